#!/usr/bin/env python3
"""A property gate's driver for loguru (Debian's python3-loguru, 0.6.0):
tests/loggers/loguru.property.toml.

  loguru_logger.py CONFIG workload OP...   (docs/workload.md;
  flushcheck_workload on PYTHONPATH)

CONFIG: file (logger.add($FLUSHCHECK_LOG_DIR/app.log): a file sink, its
defaults: mode "a", buffering 1) | file_enqueue (the same with enqueue=True:
a queue and a writer thread) | stdout (logger.add(sys.stdout): a file-like
sink) | stdout_enqueue. The pre-configured sys.stderr handler is removed;
one line a record, "LEVEL MESSAGE", every level. `flush` is
logger.complete(), which "waits for all logging messages added to handlers
with enqueue=True to be processed" (its docstring).
"""
import os
import sys

from loguru import logger

import flushcheck_workload

LEVELS = {"debug": "DEBUG", "info": "INFO", "warn": "WARNING", "error": "ERROR"}


def add_sink(config, path):
    """CONFIG's sink on the logger, at every level."""
    sinks = {"file": path, "file_enqueue": path, "stdout": sys.stdout,
             "stdout_enqueue": sys.stdout}
    if config not in sinks:
        sys.exit("loguru_logger.py: unknown CONFIG " + config)
    logger.add(sinks[config], level="DEBUG", format="{level} {message}",
               enqueue=config.endswith("_enqueue"))


def main():
    if len(sys.argv) < 3 or sys.argv[2] != "workload":
        sys.exit("usage: loguru_logger.py CONFIG workload OP...")
    logger.remove()  # the pre-configured handler on sys.stderr
    add_sink(sys.argv[1], os.path.join(os.environ.get("FLUSHCHECK_LOG_DIR", "."), "app.log"))
    flushcheck_workload.run(sys.argv[3:],
                            lambda level, n, message: logger.log(LEVELS[level], message),
                            logger.complete, prog="loguru_logger.py")


if __name__ == "__main__":
    main()
