"""flushcheck workloads, driver side, in Python (docs/workload.md): what
flushcheck/workload.h is to C. A driver gives run() how its library logs a
record and flushes; the rest is done here:

    import logging, os, sys
    import flushcheck_workload
    log = logging.getLogger("app")
    log.addHandler(logging.FileHandler(os.environ["FLUSHCHECK_LOG_DIR"] + "/app.log"))
    log.setLevel(logging.DEBUG)
    flushcheck_workload.run(sys.argv[1:], lambda level, n, message: log.log(
        LEVELS[level], message), lambda: [h.flush() for h in log.handlers])

A malformed workload is one line on stderr and exit 64, before anything runs.
`throw` raises RuntimeError out of run(), uncaught: Python prints the
traceback, runs its atexit handlers (logging.shutdown is one) and exits 1
(Python's docs for sys.exit and atexit).
"""
import os
import signal
import sys
import threading
import time

from flushcheck_marker import marker

LEVELS = ("debug", "info", "warn", "error")
ENDS = ("return", "exit", "_exit", "abort", "raise", "throw")
MAX_OPS, MAX_BYTES, MAX_SLEEP_MS, MAX_THREADS = 100000, 1 << 20, 600000, 64
SIGNALS = {name: int(getattr(signal, "SIG" + name)) for name in (
    "HUP", "INT", "QUIT", "ILL", "TRAP", "ABRT", "BUS", "FPE", "KILL", "USR1", "SEGV",
    "USR2", "PIPE", "ALRM", "TERM", "CHLD", "CONT", "STOP", "TSTP", "TTIN", "TTOU", "XCPU",
    "XFSZ", "SYS")}
# Signals whose default action stops the program: a driver stopped for good.
STOPS = (signal.SIGSTOP, signal.SIGTSTP, signal.SIGTTIN, signal.SIGTTOU)


class BadWorkload(Exception):
    pass


def number(token, most):
    """TOKEN's value if it is ASCII digits (leading zeros too, as workload.h
    takes them) no larger than MOST, else None. The digits are counted before
    int() converts them: int() refuses more than 4300 by default
    (sys.get_int_max_str_digits())."""
    if token is None or not (token.isascii() and token.isdigit()):
        return None
    digits = token.lstrip("0") or "0"
    if len(digits) > len(str(most)) or int(digits) > most:
        return None
    return int(digits)


def count(token, most):
    value = number(token, most)
    if value is None:
        raise BadWorkload("expects a number in range")
    return value


def signal_number(token):
    name = token[3:] if token.startswith("SIG") else token
    if name in SIGNALS:
        sig = SIGNALS[name]
    elif name.isascii() and name.isdigit() and len(name) <= 3 and 1 <= int(name) <= 64:
        sig = int(name)
    else:
        raise BadWorkload("expects a signal name or number")
    if sig in STOPS:
        raise BadWorkload("expects a signal that ends or is ignored, not one that stops the "
                          "program (STOP, TSTP, TTIN, TTOU)")
    return sig


def parse_op(tokens):
    """One op's tokens: (name, argument) as workload.h takes them."""
    name, args = tokens[0], tokens[1:]
    shapes = {"log": 2, "flush": 0, "sleep": 1, "marker": 1, "threads": 1, "return": 1,
              "exit": 1, "_exit": 1, "abort": 0, "raise": 1, "throw": 0}
    if name not in shapes:
        raise BadWorkload("unknown operation")
    if len(args) != shapes[name]:
        raise BadWorkload("takes no argument" if shapes[name] == 0 else
                          "expects a level (debug, info, warn, error) and a size in bytes"
                          if name == "log" else "expects one argument")
    if name == "log":
        if args[0] not in LEVELS:
            raise BadWorkload("expects a level: debug, info, warn or error")
        size = number(args[1], MAX_BYTES)
        if size is None:
            raise BadWorkload("expects a size in bytes, at most 1048576")
        return name, (args[0], size)
    if name == "marker":
        if len(os.fsencode(args[0])) >= 64:
            raise BadWorkload("expects a label under 64 bytes")
        return name, args[0]
    if name == "raise":
        return name, signal_number(args[0])
    if name == "threads" and count(args[0], MAX_THREADS) < 2:
        raise BadWorkload("expects 2 to 64 threads")
    most = {"sleep": MAX_SLEEP_MS, "threads": MAX_THREADS}.get(name, 255)
    return name, count(args[0], most) if args else None


def check_order(ops, op, threaded):
    """Whether OPS (THREADED: one is `threads`) can take OP, in constant time:
    only the last op can be an end."""
    if ops and ops[-1][0] in ENDS:
        raise BadWorkload("comes after the workload's end")
    if threaded and op[0] == "threads":
        raise BadWorkload("a second threads")
    if threaded and op[0] == "marker":
        raise BadWorkload("a marker after threads (every thread would stop at it)")


def parse(text, prog):
    """TEXT's ops, each (name, argument); exits 64 after one line for a bad one."""
    ops, threaded = [], False
    for piece in text.replace("\n", ";").split(";"):
        tokens = piece.replace("\t", " ").replace("\r", " ").split(" ")
        tokens = [t for t in tokens if t]
        if not tokens:
            continue
        try:
            if len(ops) == MAX_OPS:
                raise BadWorkload("more than 100000 ops")
            if len(tokens) > 4:
                raise BadWorkload("too many arguments")
            op = parse_op(tokens)
            check_order(ops, op, threaded)
        except BadWorkload as why:
            shown = piece.lstrip(" \t\r")[:79]
            sys.stderr.write(f"{prog}: bad workload: op {len(ops)} '{shown}': {why}\n")
            sys.exit(64)
        ops.append(op)
        threaded = threaded or op[0] == "threads"
    return ops


def message(n, size):
    """Record N's message: "rec N", padded with " xxx..." to SIZE bytes."""
    text = f"rec {n}"
    return text if len(text) >= size else text + " " + "x" * (size - len(text) - 1)


def steps(ops, records, log, flush, thread=0, threads=1):
    """One thread's share of OPS: every flush, sleep and marker, and the
    records whose place among OPS's logs is THREAD mod THREADS."""
    place = 0
    for (name, arg), n in zip(ops, records):
        if name == "log":
            if place % threads == thread:
                log(arg[0], n, message(n, arg[1]))
            place += 1
        elif name == "flush" and flush is not None:
            flush()
        elif name == "sleep":
            time.sleep(arg / 1000)
        elif name == "marker":
            marker(arg)


def end(op):
    """Ends the program as OP says ("return" and "exit" are sys.exit: Python
    has no other ordinary end; "throw" an exception nobody catches)."""
    name, arg = op
    if name == "throw":
        raise RuntimeError("flushcheck workload: throw")
    if name == "_exit":
        os._exit(arg)
    if name == "abort":
        os.abort()
    if name == "raise":
        signal.raise_signal(arg)
        sys.exit(0)
    sys.exit(arg)


def run(parts, log, flush=None, prog=None):
    """Runs the workload PARTS spell (joined with ';'): LOG(level, n, message)
    for each record, FLUSH() for each flush; then ends the program (`throw`
    raises RuntimeError from here, on the calling thread, after the threads
    are joined)."""
    ops = parse(";".join(parts), prog or os.path.basename(sys.argv[0]))
    records, n = [], 0
    for name, _ in ops:
        records.append(n)
        n += name == "log"
    split = next((i for i, (name, _) in enumerate(ops) if name == "threads"), len(ops))
    last = len(ops) - (1 if ops and ops[-1][0] in ENDS else 0)
    steps(ops[:split], records[:split], log, flush)
    if split < len(ops):
        k = ops[split][1]
        rest, numbers = ops[split + 1:last], records[split + 1:last]
        workers = [threading.Thread(target=steps, args=(rest, numbers, log, flush, t, k))
                   for t in range(k)]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
    end(ops[-1] if last < len(ops) else ("return", 0))
