#!/usr/bin/env python3
"""Checks the harness's layering (docs/architecture.md) from its sources.

The stages are the folders harness/CMakeLists.txt adds, lowest first. Each
stage's CMakeLists.txt names the lower stages it links (STAGES). It fails, one
line per broken rule, when
  - a stage links a stage that is not below it, or one that does not exist;
  - a file includes a header of a stage its own stage does not link, directly
    or through the stages it links (the build fails on that too: this names it);
  - two stages have a header of the same name (a bare include must name one);
  - a stage below cli throws a message that names a CLI flag ("--...): its
    callers through the API never typed it; cli/ adds the flag;
  - a pure stage (the model, the programs' data, output's formatting) links,
    directly or through the stages it links, a stage outside the closure
    named for it below (the model: the vocabulary and the programs' data,
    never the spawner or the tracer), or includes an I/O header: a system
    one (<unistd.h>, <fstream>, ...), or a harness header that does I/O
    (sink.hpp: it or its source includes one), directly or through other
    headers;
  - an installed header (INSTALL_HEADERS) declares a type it does not define
    ("class X;": the API would hand out an incomplete type) or does I/O
    itself (getenv, fopen, streams on files: the API's I/O is in sources),
    or includes the kernel's ABI (<sys/syscall.h>, <sys/user.h>, <linux/..>:
    syscall numbers and registers are the tracer's, not the API's);
  - a stream is compared by its name (== "stdout", != "stderr") below cli
    but where text becomes a type: the vocabulary stage's parsers and the
    gate files' (*_parse.cpp, *_toml.cpp). Below them it is a write_target,
    a destination or a stream_role;
  - a check is named by a string literal ("records_prefix") outside the
    check table (gate/gate_expect.cpp) and the promise terms' table
    (gate/property_spec.cpp): code says check_id::records_prefix.
Exit 0 when all hold, 1 otherwise.

Usage: architecture_check.py SOURCE_DIR
"""
import os
import re
import sys


def stage_order(harness):
    text = open(os.path.join(harness, "CMakeLists.txt")).read()
    m = re.search(r"foreach\(stage ([^)]*)\)", text)
    return m.group(1).split() if m else []


def linked_stages(harness, stage):
    text = open(os.path.join(harness, stage, "CMakeLists.txt")).read()
    m = re.search(r"^\s*STAGES ([^\n)]*)", text, re.M)
    return m.group(1).split() if m else []


def reachable(links, stage):
    seen, todo = set(), [stage]
    while todo:
        s = todo.pop()
        if s not in seen:
            seen.add(s)
            todo.extend(links.get(s, []))
    return seen


def check_links(order, links):
    errors = []
    for i, stage in enumerate(order):
        for low in links[stage]:
            if low not in order:
                errors.append(f"stage {stage} links {low}, which is not a stage")
            elif order.index(low) >= i:
                errors.append(f"stage {stage} links {low}, which is not below it")
    return errors


def headers_by_stage(harness, folders):
    owner, errors = {}, []
    for stage in folders:
        for f in sorted(os.listdir(os.path.join(harness, stage))):
            if f.endswith(".hpp"):
                if f in owner:
                    errors.append(f"header {f} is in both {owner[f]} and {stage}")
                owner[f] = stage
    return owner, errors


def check_includes(harness, folders, links, owner):
    errors = []
    for stage in folders:
        allowed = reachable(links, stage)
        for f in sorted(os.listdir(os.path.join(harness, stage))):
            if not f.endswith((".cpp", ".hpp")):
                continue
            text = open(os.path.join(harness, stage, f)).read()
            for h in re.findall(r'^#include "([^"/]+\.hpp)"', text, re.M):
                if h in owner and owner[h] not in allowed:
                    errors.append(f"harness/{stage}/{f} includes {h} of stage {owner[h]}, "
                                  f"which {stage} does not link")
    return errors


THROWN = re.compile(r"\b(?:usage_error|harness_error|spawn_error|bad)\s*\(([^;]*);", re.S)


def check_cli_words(harness, order):
    """No message thrown below cli names a flag: a string literal starting "--."""
    errors = []
    for stage in order:
        for f in sorted(os.listdir(os.path.join(harness, stage))):
            if not f.endswith((".cpp", ".hpp")):
                continue
            text = open(os.path.join(harness, stage, f)).read()
            for m in THROWN.finditer(text):
                if re.search(r'"--[a-z]', m.group(1)):
                    line = text.count("\n", 0, m.start()) + 1
                    errors.append(f"harness/{stage}/{f}:{line}: a thrown message names a CLI "
                                  f"flag; say the value and why, and let cli/ add the flag")
    return errors


# Pure stages, each with the whole closure of stages it may link: they read
# no file and run nothing, so their tests need no process. os is in each:
# its error, wait-status and signal-name headers are words too, and the I/O
# rule below sees any of its headers that does I/O. The vocabulary is not
# pure itself: parsing a file target resolves its path's symlinks, at the
# edges where text is parsed; the types a pure stage uses do no I/O.
PURE = {
    "output": {"os"},
    "programs": {"vocabulary", "os"},
    "model": {"programs", "vocabulary", "output", "os"},
}
IO_HEADER = re.compile(r"^(sys/(stat|socket|ioctl|mman|vfs|ptrace|uio|epoll)\.h|fcntl\.h|"
                       r"unistd\.h|poll\.h|dirent\.h|pty\.h|spawn\.h|"
                       r"fstream|iostream|filesystem|thread|future)$")
INCLUDE = re.compile(r'^#include ([<"])([^>"]+)[>"]', re.M)


def system_io(path):
    """The I/O system headers PATH includes itself."""
    if not os.path.exists(path):
        return []
    return [h for kind, h in INCLUDE.findall(open(path).read())
            if kind == "<" and IO_HEADER.match(h)]


def io_includes(harness, owner, path, seen):
    """The I/O headers PATH includes: its own, and each harness header's
    that it includes through headers (a harness header does I/O when it or
    its paired source includes an I/O system header)."""
    found = system_io(path)
    for kind, h in INCLUDE.findall(open(path).read()):
        if kind == '"' and h in owner and h not in seen:
            seen.add(h)
            header = os.path.join(harness, owner[h], h)
            found += [f"{x} (in {h} or its source)" for x in system_io(header[:-4] + ".cpp")]
            found += [f"{x} (through {h})" for x in io_includes(harness, owner, header, seen)]
    return found


def check_pure(harness, order, links, owner):
    errors = []
    for stage, closure in PURE.items():
        if stage not in order:
            errors.append(f"pure stage {stage} is not a stage")
            continue
        for low in sorted(reachable(links, stage) - closure - {stage}):
            errors.append(f"pure stage {stage} links {low}, outside its closure "
                          f"({', '.join(sorted(closure))})")
        for f in sorted(os.listdir(os.path.join(harness, stage))):
            if f.endswith((".cpp", ".hpp")):
                path = os.path.join(harness, stage, f)
                for h in io_includes(harness, owner, path, set()):
                    errors.append(f"harness/{stage}/{f} of pure stage {stage} includes {h}")
    return errors


INSTALLED = re.compile(r"INSTALL_HEADERS([^)]*)\)")
FORWARD = re.compile(r"^\s*(?:class|struct)\s+\w+\s*;", re.M)
KERNEL_ABI = re.compile(r"#\s*include\s*<((?:sys/syscall|sys/user|asm/[\w/]+|linux/[\w/]+)\.h)>")
IO_CALL = re.compile(r"\b(getenv|secure_getenv|fopen|freopen|popen|system|ifstream|ofstream|"
                     r"fstream)\b\s*[(<{ ]")


def check_installed(harness, order):
    """Installed headers hand out complete types, do no I/O themselves and
    need no kernel ABI (syscall numbers, registers: the tracer's own)."""
    errors = []
    for stage in order:
        m = INSTALLED.search(open(os.path.join(harness, stage, "CMakeLists.txt")).read())
        for h in m.group(1).split() if m else []:
            text = re.sub(r"//[^\n]*", "", open(os.path.join(harness, stage, h)).read())
            for d in FORWARD.finditer(text):
                line = text.count("\n", 0, d.start()) + 1
                errors.append(f"harness/{stage}/{h}:{line}: an installed header declares a type "
                              f"it does not define ({d.group(0).strip()})")
            for k in KERNEL_ABI.finditer(text):
                line = text.count("\n", 0, k.start()) + 1
                errors.append(f"harness/{stage}/{h}:{line}: an installed header includes "
                              f"<{k.group(1)}>: the kernel's ABI is the tracer's, in a source or "
                              f"a header not installed")
            for c in IO_CALL.finditer(text):
                line = text.count("\n", 0, c.start()) + 1
                errors.append(f"harness/{stage}/{h}:{line}: an installed header does I/O "
                              f"({c.group(1)}): put it in a source")
    return errors


STREAM_NAME = re.compile(r'[=!]=\s*"(stdout|stderr)[:+"]|"(stdout|stderr)"\s*[=!]=')


def parses_text(stage, f):
    """Where text becomes types: the vocabulary's parsers, the gate files'."""
    return stage == "vocabulary" or f.endswith(("_parse.cpp", "_toml.cpp"))


def check_stream_names(harness, order):
    """Below cli, no stream is compared by its name but where it is parsed."""
    errors = []
    for stage in order:
        for f in sorted(os.listdir(os.path.join(harness, stage))):
            if not f.endswith((".cpp", ".hpp")) or parses_text(stage, f):
                continue
            text = re.sub(r"//[^\n]*", "", open(os.path.join(harness, stage, f)).read())
            for m in STREAM_NAME.finditer(text):
                line = text.count("\n", 0, m.start()) + 1
                errors.append(f"harness/{stage}/{f}:{line}: a stream compared by its name "
                              f"({m.group(0).strip()}); compare its type (write_target, "
                              f"destination, stream_role)")
    return errors


CHECK_TABLE = "gate/gate_expect.cpp"       # the one table of the checks
TERM_TABLE = "gate/property_spec.cpp"       # the promise terms' (some share a check's name)
CHECK_ROW = re.compile(r'\{id::\w+,\s*"(\w+)",\s*v::(\w+)\}')


def check_check_names(harness):
    """A check is named as text only in its table (check_name() says it
    back); a literal elsewhere is a second spelling that a typo would not
    break at compile time. The promise terms' table may share a name. The
    checks of how a program ended (exit_code, signal) are not looked for:
    their names are ordinary words, JSON keys of every run's report."""
    rows = [name for name, value in CHECK_ROW.findall(open(os.path.join(harness, CHECK_TABLE)).read())
            if value not in ("exit_code", "signal")]
    if not rows:
        return [f"harness/{CHECK_TABLE}: no check table found ({{id::NAME, \"NAME\", ...}})"]
    literal = re.compile(r'"(' + "|".join(map(re.escape, rows)) + r')"')
    errors = []
    for d, _, files in sorted(os.walk(harness)):
        for f in sorted(files):
            rel = os.path.relpath(os.path.join(d, f), harness)
            if not f.endswith((".cpp", ".hpp")) or rel in (CHECK_TABLE, TERM_TABLE):
                continue
            text = re.sub(r"//[^\n]*", "", open(os.path.join(d, f)).read())
            for m in literal.finditer(text):
                line = text.count("\n", 0, m.start()) + 1
                errors.append(f"harness/{rel}:{line}: the check {m.group(0)} named by a literal; "
                              f"use check_id::{m.group(1)} (check_name() for its text)")
    return errors


def main(source):
    harness = os.path.join(source, "harness")
    order = stage_order(harness)
    if not order:
        print(f"{harness}/CMakeLists.txt: no 'foreach(stage ...)' list of stages")
        return 1
    links = {s: linked_stages(harness, s) for s in order}
    folders = order + ["cli"]
    links["cli"] = order
    owner, errors = headers_by_stage(harness, folders)
    errors += check_links(order, links)
    errors += check_includes(harness, folders, links, owner)
    errors += check_cli_words(harness, order)
    errors += check_pure(harness, order, links, owner)
    errors += check_installed(harness, order)
    errors += check_stream_names(harness, order)
    errors += check_check_names(harness)
    for e in errors:
        print(e)
    if not errors:
        print(f"{len(order)} stages, each links only stages below it; "
              f"{len(owner)} headers, each included only from its stage or above; "
              f"no message thrown below cli names a flag; "
              f"pure stages ({', '.join(PURE)}) link only their closures and include "
              f"no I/O header; installed headers declare only what they define, include no kernel ABI and do "
              f"no I/O; below cli, streams are compared by type, not by name, but "
              f"where text is parsed; checks are named as text only in their table")
    return 1 if errors else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
