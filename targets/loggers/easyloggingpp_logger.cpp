// A program that logs with Easylogging++ (9.97, Debian 12's
// libeasyloggingpp-dev: the header and easylogging++.cc, no compiled
// library) the way an application would, for the gates in
// tests/loggers/easyloggingpp_gate.cpp.
//
//   easyloggingpp_logger CONFIG RECORDS DEATH
//   easyloggingpp_logger CONFIG workload OP...   (a property gate's driver: docs/workload.md,
//   tests/loggers/easyloggingpp.property.toml)
//
// Logs RECORDS records "rec N info" (every 5th "rec N warn", at WARNING) with
// LOG(INFO) / LOG(WARNING) on the "default" logger, reconfigured from
// el::Configurations: setToDefault(), then Format "%msg" at Level::Global (the
// message alone; the log builder adds the '\n') and Filename
// $FLUSHCHECK_LOG_DIR/app.log, which is opened when the logger is configured,
// std::fstream out|app (File::newFileStream, easylogging++.cc:731; fstream_t,
// easylogging++.h:535). Then a marker "logged" (the gate may kill it there),
// then DEATH: return | exit | _exit | abort | segv (raise(SIGSEGV)) |
// flush_exit (el::Loggers::flushAll(), then _exit) | logger_flush_exit (the
// default logger's flush(), then _exit).
//
// CONFIG: default (setToDefault, ToStandardOutput off) | immediate_flush
// (LoggingFlag::ImmediateFlush, LogFlushThreshold 100) | threshold_16
// (LogFlushThreshold 16) | threshold_100 (LogFlushThreshold 100) | stdout
// (ToFile off, ToStandardOutput on).
//
// How Easylogging++ flushes the file (DefaultLogDispatchCallback::dispatch,
// easylogging++.cc:2219-2247): it writes the line into the std::fstream, then
// flushes that stream if the ImmediateFlush flag is set or isFlushNeeded(level),
// `++m_unflushedCount[level] >= logFlushThreshold(level)` (easylogging++.h:2265):
// - the flags start at ELPP_DEFAULT_LOGGING_FLAGS, 0 (easylogging++.cc:2058):
//   ImmediateFlush is off by default;
// - setToDefault() sets LogFlushThreshold "0" (easylogging++.cc:376), so
//   `++count >= 0` holds at every record: the default flushes every record;
// - the count is kept per level, and reset only for the level that flushed
//   (Logger::flush(Level, fstream*), easylogging++.cc:690); the levels share one
//   std::fstream per file name (TypedConfigurations::insertFile,
//   easylogging++.cc:1802), so a flush at INFO also sends the WARNINGs before it.
// - Logger::flush() and Loggers::flushAll() flush the streams; so does
//   ~RegisteredLoggers() (easylogging++.h:2355) when elStorage is destroyed at
//   exit. _exit and abort destroy nothing.
// ToStandardOutput writes `std::cout << line << std::flush` (ELPP_COUT and
// ELPP_COUT_LINE, easylogging++.h:530 and 541): every record, whatever the
// threshold.
//
// The crash handler: with ELPP_FEATURE_CRASH_LOG (required here), the
// elCrashHandler that INITIALIZE_EASYLOGGINGPP defines installs
// defaultCrashHandler (easylogging++.h:4536-4547, easylogging++.cc:2894-2917)
// for SIGFPE, SIGILL, SIGSEGV and SIGINT (SIGABRT only with
// ELPP_HANDLE_SIGABRT). It logs "CRASH HANDLED; ..." at FATAL on the default
// logger, whose FATAL then logs "Aborting application..." and calls ::abort()
// (Writer::triggerDispatch, easylogging++.cc:2645-2653): nothing is flushed
// but what the logger's own threshold flushes.
#include <easylogging++.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "logger_main.hpp"

#if !defined(ELPP_FEATURE_CRASH_LOG) && !defined(ELPP_FEATURE_ALL)
#error "build with ELPP_FEATURE_CRASH_LOG: the gate's segv rows expect the default crash handler"
#endif

INITIALIZE_EASYLOGGINGPP

namespace {

bool valid(const std::string& config, const std::string& death) {
  bool known = false;
  for (const char* c : {"default", "immediate_flush", "threshold_16", "threshold_100", "stdout"})
    known = known || config == c;
  if (!known) return false;
  for (const char* d :
       {"return", "exit", "_exit", "abort", "segv", "flush_exit", "logger_flush_exit"})
    if (death == d) return true;
  return false;
}

/// CONFIG's LogFlushThreshold into CONF, and the ImmediateFlush flag for
/// immediate_flush.
void configure_flushing(const std::string& config, el::Configurations& conf) {
  if (config == "threshold_16")
    conf.set(el::Level::Global, el::ConfigurationType::LogFlushThreshold, "16");
  if (config == "threshold_100" || config == "immediate_flush")
    conf.set(el::Level::Global, el::ConfigurationType::LogFlushThreshold, "100");
  if (config == "immediate_flush") el::Loggers::addFlag(el::LoggingFlag::ImmediateFlush);
}

/// Reconfigures the default logger as CONFIG says (valid() said it is known).
void configure(const std::string& config, const std::string& file) {
  el::Configurations conf;
  conf.setToDefault();  // easylogging++.cc:364: ToFile, ToStandardOutput on, threshold 0
  // set() at Level::Global sets every level too (Configurations::set, easylogging++.cc:349).
  conf.set(el::Level::Global, el::ConfigurationType::Format, "%msg");
  conf.set(el::Level::Global, el::ConfigurationType::Filename, file);
  const bool to_stdout = config == "stdout";
  conf.set(el::Level::Global, el::ConfigurationType::ToFile, to_stdout ? "false" : "true");
  conf.set(el::Level::Global, el::ConfigurationType::ToStandardOutput,
           to_stdout ? "true" : "false");
  configure_flushing(config, conf);
  el::Loggers::reconfigureLogger("default", conf);
}

/// Ends the process as DEATH says; returns main's status for "return".
int die(const std::string& death) {
  logger_main::common_death(death);  // abort: SIGABRT, not handled without ELPP_HANDLE_SIGABRT
  if (death == "segv") std::raise(SIGSEGV);  // the crash handler logs, then aborts
  if (death == "flush_exit") {
    el::Loggers::flushAll();  // "to flush all log files for all levels" (README.md)
    _exit(0);
  }
  if (death == "logger_flush_exit") {
    el::Loggers::getLogger("default")->flush();  // Logger::flush, easylogging++.cc:680
    _exit(0);
  }
  return 0;
}

/// One workload record at its level: error ERROR, warn WARNING, info and
/// debug INFO (DEBUG is compiled out where NDEBUG is set).
void log_at_level(int level, const std::string& message) {
  if (level >= 3)
    LOG(ERROR) << message;
  else if (level == 2)
    LOG(WARNING) << message;
  else
    LOG(INFO) << message;
}

/// The workload mode (docs/workload.md): CONFIG's default logger, each
/// record at its level (debug is INFO: DEBUG is compiled out where NDEBUG
/// is set), `flush` as Loggers::flushAll() ("to flush all log files for all
/// levels", README.md).
int workload(int argc, char** argv) {
  if (!valid(argv[1], "return")) {
    std::fprintf(stderr, "easyloggingpp_logger: unknown CONFIG '%s'\n", argv[1]);
    return 64;
  }
  configure(argv[1], logger_main::log_file());
  return logger_main::run_workload(argc, argv, "easyloggingpp_logger", log_at_level,
                                   [] { el::Loggers::flushAll(); });
}

}  // namespace

int main(int argc, char** argv) {
  if (logger_main::is_workload(argc, argv)) return workload(argc, argv);
  logger_main::arguments args;
  if (!logger_main::parse(argc, argv, "easyloggingpp_logger", valid, args)) return 64;
  configure(args.config, args.file);
  logger_main::log_records(args.records, [](long i, bool warning) {
    if (warning)
      LOG(WARNING) << "rec " << i << " warn";
    else
      LOG(INFO) << "rec " << i << " info";
  });
  return die(args.death);
}
