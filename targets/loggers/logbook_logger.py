#!/usr/bin/env python3
"""A property gate's driver for Logbook (Debian's python3-logbook, 1.5.3):
tests/loggers/logbook.property.toml.

  logbook_logger.py CONFIG workload OP...   (docs/workload.md;
  flushcheck_workload on PYTHONPATH)

CONFIG: file (FileHandler($FLUSHCHECK_LOG_DIR/app.log): its defaults, mode
"a", utf-8) | stdout (StreamHandler(sys.stdout), as the quickstart's first
example). The handler is pushed on the application's stack
(push_application(): every thread's records), at every level, one line a
record, "LEVEL MESSAGE", from Logger "app". `flush` is the handler's
flush(), which "Flushes the inner stream." (its docstring).
"""
import os
import sys

import logbook

import flushcheck_workload

LEVELS = {"debug": logbook.DEBUG, "info": logbook.INFO, "warn": logbook.WARNING,
          "error": logbook.ERROR}
FORMAT = "{record.level_name} {record.message}"


def make_handler(config, path):
    """CONFIG's handler, at every level."""
    if config == "file":
        return logbook.FileHandler(path, format_string=FORMAT)
    if config == "stdout":
        return logbook.StreamHandler(sys.stdout, format_string=FORMAT)
    sys.exit("logbook_logger.py: unknown CONFIG " + config)


def main():
    if len(sys.argv) < 3 or sys.argv[2] != "workload":
        sys.exit("usage: logbook_logger.py CONFIG workload OP...")
    handler = make_handler(sys.argv[1],
                           os.path.join(os.environ.get("FLUSHCHECK_LOG_DIR", "."), "app.log"))
    handler.push_application()
    log = logbook.Logger("app")
    flushcheck_workload.run(sys.argv[3:],
                            lambda level, n, message: log.log(LEVELS[level], message),
                            handler.flush, prog="logbook_logger.py")


if __name__ == "__main__":
    main()
