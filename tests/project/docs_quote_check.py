#!/usr/bin/env python3
"""Docs quote compiled files, word for word: a fenced block whose info string
names a file after its language (```go targets/workload/stdio_driver.go) must
hold exactly that file, which the build compiles and the tests run. So a
template in the docs cannot rot.

    docs_quote_check.py ROOT DOC.md...

Exit status 0 when every such block is its file, 1 when one differs (each
named, with the first line that differs), 2 for a block naming no file."""
import re
import sys
from pathlib import Path

FENCE = re.compile(r"^```(\w+) (\S+)\s*$")


def quotes(doc):
    """(line, path, text) of each fenced block of DOC that names a file."""
    lines = doc.read_text(encoding="utf-8").split("\n")
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        start, body = i + 1, []
        i += 1
        while i < len(lines) and lines[i] != "```":
            body.append(lines[i])
            i += 1
        yield start, m.group(2), "\n".join(body) + "\n"
        i += 1


def first_difference(a, b):
    for n, (x, y) in enumerate(zip(a.split("\n"), b.split("\n")), 1):
        if x != y:
            return n, x, y
    return min(a.count("\n"), b.count("\n")) + 1, "(end)", "(end)"


def main(argv):
    root, docs = Path(argv[1]), [Path(d) for d in argv[2:]]
    status, checked = 0, 0
    for doc in docs:
        for line, path, text in quotes(doc):
            file = root / path
            if not file.is_file():
                print(f"{doc}:{line}: the block names {path}, which is no file")
                return 2
            checked += 1
            want = file.read_text(encoding="utf-8")
            if text != want:
                n, got, has = first_difference(text, want)
                print(f"{doc}:{line}: the block is not {path}: its line {n} is {got!r}, "
                      f"the file's {has!r}")
                status = 1
    print(f"docs_quote_check: {checked} quoted files checked")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
