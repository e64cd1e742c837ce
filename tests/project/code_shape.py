#!/usr/bin/env python3
"""The code's shape: how long the functions of a tree are.

A function is a definition whose body opens at the end of a line outside any
other function (a signature, possibly over several lines, then "{"), and ends
at its matching "}"; its length counts the lines from its first signature line
to that brace. Lambdas and classes are inside their function or skipped.
Prints, per tree, the number of functions, the median, the 90th percentile and
the longest, then every function longer than --max. Exit 1 when one is longer
than --max, or when a tree's 90th percentile is over --p90; 0 otherwise.

Usage: code_shape.py [--max N] [--p90 N] DIR...     (default --max 60, no --p90 bar)
"""
import os
import re
import sys

SKIP = re.compile(r"^\s*(namespace|class|struct|enum|union|extern|template\s*<[^>]*>\s*(class|struct))\b")
CONTROL = re.compile(r"^\s*(if|for|while|switch|do|else|try|catch)\b")


def strip(line):
    """LINE without its comment and the contents of its string and char literals."""
    line = re.sub(r'"(\\.|[^"\\])*"', '""', line)
    line = re.sub(r"'(\\.|[^'\\])*'", "''", line)
    return line.split("//", 1)[0]


def functions(path):
    """(name, first line, length) of each function defined in PATH."""
    lines = [strip(l) for l in open(path, errors="replace").read().split("\n")]
    out, depth, start, name, scopes = [], 0, None, "", []
    for i, line in enumerate(lines):
        opens, closes = line.count("{"), line.count("}")
        if start is None and line.rstrip().endswith("{") and not CONTROL.match(line):
            head = " ".join(l.strip() for l in lines[max(0, i - 3):i + 1])
            if (SKIP.match(line) and "(" not in line) or "=" in line.split("(")[0] or "(" not in head:
                scopes.append(depth)
            else:
                first = i
                while first > 0 and lines[first - 1].strip() and not lines[first - 1].rstrip().endswith((";", "}", "{")) \
                        and not lines[first - 1].lstrip().startswith(("#", "///", "//")):
                    first -= 1
                m = re.search(r"([\w:~<>=!+\-*/\[\]]+)\s*\(", head)
                start, name, base = first, m.group(1) if m else "?", depth
        depth += opens - closes
        while scopes and depth <= scopes[-1]:
            scopes.pop()
        if start is not None and depth <= base:
            out.append((name, start + 1, i - start + 1))
            start = None
    return out


def tree(root):
    found = []
    for d, dirs, files in os.walk(root):
        # Not ours: packages npm installed (ci/setup), and build trees.
        dirs[:] = [x for x in dirs if x not in ("node_modules", "target", "build")]
        for f in sorted(files):
            if f.endswith((".cpp", ".hpp", ".c", ".h")):
                p = os.path.join(d, f)
                found += [(p, *fn) for fn in functions(p)]
    return found


def percentile(sorted_lengths, q):
    return sorted_lengths[min(len(sorted_lengths) - 1, int(q * len(sorted_lengths)))]


def main(argv):
    limit, p90_bar, dirs = 60, None, []
    while argv:
        a = argv.pop(0)
        if a == "--max" and argv:
            limit = int(argv.pop(0))
        elif a == "--p90" and argv:
            p90_bar = int(argv.pop(0))
        else:
            dirs.append(a)
    if not dirs:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    over, wide = [], []
    for root in dirs:
        fns = tree(root)
        lengths = sorted(n for *_, n in fns)
        if not lengths:
            print(f"{root}: no functions")
            continue
        print(f"{root}: {len(lengths)} functions, median {percentile(lengths, 0.5)} lines, "
              f"p90 {percentile(lengths, 0.9)}, longest {lengths[-1]}")
        over += [f for f in fns if f[3] > limit]
        if p90_bar is not None and percentile(lengths, 0.9) > p90_bar:
            wide.append(f"{root}: p90 {percentile(lengths, 0.9)} is over {p90_bar}")
    for path, name, line, n in sorted(over, key=lambda f: -f[3]):
        print(f"  over {limit}: {path}:{line} {name} ({n} lines)")
    for line in wide:
        print(line)
    return 1 if over or wide else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
