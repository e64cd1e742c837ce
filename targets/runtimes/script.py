#!/usr/bin/python3
"""script.py: flushcheck's script language in Python 3, writing through
sys.stdout / sys.stderr as a Python program does (docs/script.md, "In other
runtimes").

  script.py SCRIPT...      (several arguments are joined with ';')
  script.py --version      (one line: "python 3.11.2")

The whole script is parsed first: a bad op is one line on stderr and exit 64.
A failed output call is one line on stderr; the script goes on and exits 1.
"""
import os
import re
import signal
import sys
import time

from flushcheck_marker import marker

PROG = "script.py"
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
SIGNALS = ("TERM", "INT", "KILL", "ABRT", "HUP", "USR1", "USR2", "PIPE")
failed = False


class BadScript(Exception):
    pass


# ---- parsing: each argument shape takes the next token (or not) ----------

def count(tok):
    if tok is None or not (tok.isascii() and tok.isdigit()) or int(tok) > 10**9:
        raise BadScript("expects a count (0 to 1000000000)")
    return int(tok)


def optional_count(tok):
    # A sign starts a number too: "exit -1" is a bad count, not a stream.
    return count(tok) if tok is not None and tok[0] in "0123456789+-" else None


def stream(tok, allowed=("out", "err")):
    if tok is not None and tok not in allowed:
        raise BadScript("stream must be " + " or ".join(allowed))
    return tok or "out"


def flush_stream(tok):
    return stream(tok, ("out", "err", "all"))


def mode(tok):
    if tok not in ("none", "line", "full"):
        raise BadScript("mode must be none, line or full")
    return tok


def label(tok):
    if tok is None:
        raise BadScript("expects a label")
    if len(os.fsencode(tok)) >= 64:  # bytes, as script.c: the argument's own
        raise BadScript("label too long")
    return tok


def signum(tok):
    name = tok[3:] if tok and tok.startswith("SIG") else tok
    if name in SIGNALS:
        return getattr(signal, "SIG" + name)
    if name and name.isascii() and name.isdigit() and 0 < int(name) < 65:
        return int(name)
    raise BadScript("expects a signal name (%s) or number" % " ".join(SIGNALS))


OPTIONAL = (optional_count, stream, flush_stream)


def parse_args(shapes, toks):
    """The values of TOKS (the op's arguments) by SHAPES, or BadScript."""
    values, toks = [], list(toks)
    for shape in shapes:
        tok = toks[0] if toks else None
        value = shape(tok)
        if tok is not None and (shape not in OPTIONAL or value is not None):
            toks.pop(0)
        values.append(value)
    if toks:
        raise BadScript("too many arguments")
    return values


# ---- the ops --------------------------------------------------------------

def say(k, text, what):
    """One line on fd 2, unbuffered."""
    msg = "%s: op %d '%s': %s\n" % (PROG, k + 1, text, what)
    try:
        os.write(2, os.fsencode(msg))
    except OSError:
        pass


def report(k, text, exc):
    """One line on fd 2, and the script will exit 1."""
    global failed
    failed = True
    say(k, text, "%s: %s" % (type(exc).__name__, exc))


def out(name):
    return sys.stderr if name == "err" else sys.stdout


def op_write(k, n, name, newline=""):
    # Python docs, sys.stdout: a TextIOWrapper, line buffered on a terminal,
    # block buffered otherwise (unless -u / PYTHONUNBUFFERED).
    out(name).write(ALPHABET[k % 62] * n + newline)


def op_line(k, n, name):
    op_write(k, n, name, "\n")


def op_flush(k, name):
    for f in (sys.stdout, sys.stderr) if name == "all" else (out(name),):
        f.flush()


def op_buffer(k, how, size):
    # Python docs, io.TextIOWrapper.reconfigure: line_buffering only; it
    # "does an implicit stream flush before setting the new parameters".
    sys.stdout.reconfigure(line_buffering=(how == "line"))


def op_marker(k, text):
    marker(text)


def op_sleep(k, ms):
    time.sleep(ms / 1000)


def op_exit(k, code):
    finish(code or 0)


def op_uexit(k, code):
    os._exit(code or 0)


def op_abort(k):
    os.abort()


def op_throw(k):
    raise RuntimeError("throw: an uncaught exception")


def op_raise(k, sig):
    os.kill(os.getpid(), sig)
    time.sleep(1)


OPS = {
    "write": ((count, stream), op_write),
    "line": ((count, stream), op_line),
    "flush": ((flush_stream,), op_flush),
    "buffer": ((mode, optional_count), op_buffer),
    "marker": ((label,), op_marker),
    "sleep": ((count,), op_sleep),
    "exit": ((optional_count,), op_exit),
    "_exit": ((optional_count,), op_uexit),
    "abort": ((), op_abort),
    "throw": ((), op_throw),
    "raise": ((signum,), op_raise),
}


def refused(name, values):
    """Why Python refuses a well-formed op (docs/script.md, the buffer table)."""
    if name == "buffer" and values[0] == "none":
        return "Python has no switch to unbuffered: run it with -u or PYTHONUNBUFFERED=1"
    if name == "buffer" and values[1] is not None:
        return "Python's reconfigure takes no buffer size"
    return None


def parse(source):
    """[(k, text, function, values)] for every op, or BadScript."""
    ops = []
    for text in source.replace("\n", ";").split(";"):
        text = text.lstrip(" \t")
        toks = [t for t in re.split("[ \t\r]+", text) if t]  # as script.c
        if not toks:
            continue
        where = "op %d '%s': " % (len(ops) + 1, text)
        if toks[0] not in OPS:
            raise BadScript(where + "unknown operation")
        shapes, fn = OPS[toks[0]]
        try:
            values = parse_args(shapes, toks[1:])
        except BadScript as e:
            raise BadScript(where + str(e))
        why = refused(toks[0], values)
        if why:
            raise BadScript(where + why)
        ops.append((len(ops), text, fn, values))
    return ops


def finish(code):
    """The end of the script (its last op, or `exit`). After a reported
    failure, Python's own flush at exit would fail again and print
    "Exception ignored" (exit 120): as the Python docs' "Note on SIGPIPE"
    (module signal) do, point the stream at /dev/null then, after the flush
    that exit would do anyway. CODE stays, as C's exit(N) keeps its N."""
    for f in (sys.stdout, sys.stderr) if failed else ():
        try:
            f.flush()
        except OSError:
            os.dup2(os.open(os.devnull, os.O_WRONLY), f.fileno())
    sys.exit(code)


def main():
    args = sys.argv[1:]
    if args == ["--version"]:
        print("python %d.%d.%d" % sys.version_info[:3])
        return
    if not args:
        sys.stderr.write("%s: usage: %s SCRIPT... (ops separated by ';', see docs/script.md)\n"
                         % (PROG, PROG))
        sys.exit(64)
    try:
        ops = parse(";".join(args))
    except BadScript as e:
        sys.stderr.write("%s: bad script: %s\n" % (PROG, e))
        sys.exit(64)
    for k, text, fn, values in ops:
        try:
            fn(k, *values)
        except OSError as e:
            report(k, text, e)
        except MemoryError:  # docs/script.md: 70, out of memory
            say(k, text, "out of memory")
            finish(70)
    finish(1 if failed else 0)


if __name__ == "__main__":
    main()
