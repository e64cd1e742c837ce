"""stdio_driver.c's twin in Python: LEVEL MESSAGE lines by sys.stdout.write,
`flush` by sys.stdout.flush (docs/workload.md). A lock around the write, as
logging.Handler takes one: io's TextIOWrapper is not thread-safe (Python's
io docs, "Multi-threading"), and stdio's fprintf is (POSIX flockfile)."""
import sys
import threading

import flushcheck_workload

lock = threading.Lock()


def log(level, n, message):
    with lock:
        sys.stdout.write(f"{level.upper()} {message}\n")


def flush():
    with lock:
        sys.stdout.flush()


flushcheck_workload.run(sys.argv[1:], log, flush, prog="stdio_driver.py")
