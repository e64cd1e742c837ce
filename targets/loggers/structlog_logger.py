#!/usr/bin/env python3
"""A property gate's driver for structlog (Debian's python3-structlog,
22.3.0): tests/loggers/structlog.property.toml.

  structlog_logger.py CONFIG workload OP...   (docs/workload.md;
  flushcheck_workload on PYTHONPATH)

CONFIG: stdout (structlog's defaults: structlog.get_logger() unconfigured, a
PrintLogger on sys.stdout, rendered by ConsoleRenderer) | file (the same
processors, PrintLoggerFactory(file) on $FLUSHCHECK_LOG_DIR/app.log, opened
"a") | write_file (WriteLoggerFactory(file) on it). Every level is logged
(the default wrapper filters nothing). structlog has no flush: its loggers
flush each record (src/structlog/_output.py), so `flush` does nothing.
"""
import os
import sys

import structlog

import flushcheck_workload

METHODS = {"debug": "debug", "info": "info", "warn": "warning", "error": "error"}


def configure(config, path):
    """CONFIG's logger factory; stdout keeps structlog's defaults."""
    factories = {"file": structlog.PrintLoggerFactory, "write_file": structlog.WriteLoggerFactory}
    if config == "stdout":
        return
    if config not in factories:
        sys.exit("structlog_logger.py: unknown CONFIG " + config)
    structlog.configure(logger_factory=factories[config](open(path, "a", encoding="utf-8")))


def main():
    if len(sys.argv) < 3 or sys.argv[2] != "workload":
        sys.exit("usage: structlog_logger.py CONFIG workload OP...")
    configure(sys.argv[1], os.path.join(os.environ.get("FLUSHCHECK_LOG_DIR", "."), "app.log"))
    log = structlog.get_logger()
    flushcheck_workload.run(sys.argv[3:],
                            lambda level, n, message: getattr(log, METHODS[level])(message),
                            prog="structlog_logger.py")


if __name__ == "__main__":
    main()
