// A program that logs with glog (Debian's libgoogle-glog-dev), for the gates
// in tests/loggers/glog_gate.cpp.
//
//   glog_logger RECORDS DEATH [handler]
//   glog_logger default|handler workload OP...   (a property gate's driver: docs/workload.md,
//   tests/loggers/glog.property.toml)
//
// Logs RECORDS records "rec N" (every 5th WARNING, the rest INFO), then a
// marker "logged" (the gate may kill it there), then DEATH: return | exit |
// _exit | segv (a real invalid write) | term (raise SIGTERM). With
// "handler", glog's failure signal handler is installed first. glog's flags
// come from GLOG_* variables (GLOG_logbuflevel, GLOG_logtostderr, ...); its
// files go to $FLUSHCHECK_LOG_DIR.
#include <glog/logging.h>
#include <unistd.h>

#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "flushcheck/marker.h"
#include "logger_main.hpp"

namespace {

/// glog started: its files in $FLUSHCHECK_LOG_DIR, and with HANDLER its
/// failure signal handler installed.
void start_glog(bool handler) {
  if (const char* dir = std::getenv("FLUSHCHECK_LOG_DIR")) FLAGS_log_dir = dir;
  google::InitGoogleLogging("glog_logger");
  if (handler) google::InstallFailureSignalHandler();
}

/// The workload mode (docs/workload.md), CONFIG "default" or "handler"
/// (InstallFailureSignalHandler); glog's other settings are its GLOG_*
/// variables. debug and info are INFO; `flush` is FlushLogFiles(INFO),
/// every severity's file.
int workload(int argc, char** argv) {
  start_glog(std::strcmp(argv[1], "handler") == 0);
  return logger_main::run_workload(
      argc, argv, "glog_logger",
      [](int level, const std::string& message) {
        if (level >= 3)
          LOG(ERROR) << message;
        else if (level == 2)
          LOG(WARNING) << message;
        else
          LOG(INFO) << message;
      },
      [] { google::FlushLogFiles(google::GLOG_INFO); });
}

/// RECORDS records "rec N", every 5th a WARNING, the rest INFO.
void log_records(long records) {
  for (long i = 0; i < records; ++i) {
    if (i % 5 == 4)
      LOG(WARNING) << "rec " << i << " warning";
    else
      LOG(INFO) << "rec " << i << " info";
  }
}

/// Ends the process as DEATH says; returns main's status for "return".
int die(const std::string& death) {
  if (death == "exit") std::exit(0);
  if (death == "_exit") _exit(0);
  if (death == "term") std::raise(SIGTERM);
  if (death == "segv") {
    volatile int* volatile bad = reinterpret_cast<volatile int*>(std::uintptr_t{16});
    *bad = 1;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (logger_main::is_workload(argc, argv)) return workload(argc, argv);
  if (argc < 3) {
    std::fprintf(stderr, "usage: glog_logger RECORDS DEATH [handler]\n");
    return 64;
  }
  const long records = std::atol(argv[1]);
  const std::string death = argv[2];
  start_glog(argc > 3 && std::strcmp(argv[3], "handler") == 0);
  flushcheck_marker_init();
  log_records(records);
  flushcheck_marker("logged");
  return die(death);
}
