#!/usr/bin/env python3
"""A program that logs with Python's standard logging the way an application
would, for the gate file tests/loggers/python_logging.gate.toml.

  python_logging.py CONFIG RECORDS DEATH
  python_logging.py CONFIG workload OP...   (a property gate's driver)

Logs RECORDS records "rec N" (every 5th at WARNING, the rest INFO) with the
format "%(message)s", then a marker "logged" (the gate may cut it there),
then DEATH: return | sys_exit | os_exit | abort | raise (an uncaught
exception) | stop_os_exit (QueueListener.stop(), then os._exit).
CONFIG: stdout (StreamHandler(sys.stdout)) | stderr (StreamHandler(), whose
default stream is sys.stderr) | file (FileHandler on app.log) | queue
(QueueHandler into a queue.Queue, a QueueListener writing it to a
FileHandler on app.log) | print (no logging: print() to sys.stdout, the
baseline). Files go to $FLUSHCHECK_LOG_DIR/app.log.
"""
import logging
import logging.handlers
import os
import queue
import sys


def marker(label):
    """The marker protocol (docs/markers.md): a line on fd 3, then wait for
    the harness's byte. A no-op outside the harness."""
    fd = os.environ.get("FLUSHCHECK_MARKER_FD")
    if fd is None:
        return
    os.write(int(fd), label.encode() + b"\n")
    os.read(int(os.environ.get("FLUSHCHECK_RELEASE_FD", fd)), 1)


def handler(config, path):
    """The handler CONFIG names, and the QueueListener to stop (or None)."""
    if config == "stdout":
        return logging.StreamHandler(sys.stdout), None
    if config == "stderr":
        return logging.StreamHandler(), None
    if config == "file":
        return logging.FileHandler(path, mode="w"), None
    if config == "queue":
        target = logging.FileHandler(path, mode="w")
        target.setFormatter(logging.Formatter("%(message)s"))
        q = queue.Queue()
        listener = logging.handlers.QueueListener(q, target)
        listener.start()
        return logging.handlers.QueueHandler(q), listener
    sys.exit("python_logging.py: unknown CONFIG " + config)


def log_records(config, records, path):
    if config == "print":
        for i in range(records):
            print("rec %d %s" % (i, "warn" if i % 5 == 4 else "info"))
        return None
    h, listener = handler(config, path)
    h.setFormatter(logging.Formatter("%(message)s"))
    log = logging.getLogger("app")
    log.setLevel(logging.INFO)
    log.addHandler(h)
    for i in range(records):
        if i % 5 == 4:
            log.warning("rec %d warn", i)
        else:
            log.info("rec %d info", i)
    return listener


def workload(config, parts, path):
    """The workload mode (docs/workload.md; flushcheck_workload on
    PYTHONPATH): CONFIG's handler on logger "app" at DEBUG, each record at its
    level, `flush` as the handler's flush()."""
    import flushcheck_workload
    h, listener = handler(config, path)
    h.setFormatter(logging.Formatter("%(message)s"))
    log = logging.getLogger("app")
    log.setLevel(logging.DEBUG)
    log.addHandler(h)
    levels = {"debug": logging.DEBUG, "info": logging.INFO,
              "warn": logging.WARNING, "error": logging.ERROR}
    flushcheck_workload.run(parts, lambda level, n, message: log.log(levels[level], message),
                            h.flush)


def die(death, listener):
    if death == "sys_exit":
        sys.exit(0)
    if death == "os_exit":
        os._exit(0)
    if death == "abort":
        os.abort()
    if death == "raise":
        raise RuntimeError("an uncaught exception")
    if death == "stop_os_exit":
        if listener is None:
            sys.exit("python_logging.py: stop_os_exit needs CONFIG queue")
        listener.stop()
        os._exit(0)
    if death != "return":
        sys.exit("python_logging.py: unknown DEATH " + death)


def main():
    path = os.path.join(os.environ.get("FLUSHCHECK_LOG_DIR", "."), "app.log")
    if len(sys.argv) >= 3 and sys.argv[2] == "workload":
        return workload(sys.argv[1], sys.argv[3:], path)
    if len(sys.argv) != 4:
        sys.exit("usage: python_logging.py CONFIG RECORDS DEATH")
    config, records, death = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    listener = log_records(config, records, path)
    marker("logged")
    die(death, listener)


if __name__ == "__main__":
    main()
