// A program that logs with Apache log4cxx (Debian's liblog4cxx-dev) the way
// an application would, for the gates in tests/loggers/log4cxx_gate.cpp.
//
//   log4cxx_logger CONFIG RECORDS DEATH
//   log4cxx_logger CONFIG workload OP...   (a property gate's driver: docs/workload.md,
//   tests/loggers/log4cxx.property.toml)
//
// Logs RECORDS records "rec N" (every 5th at WARN, the rest INFO) with the
// layout "%m%n", then a marker "logged" (the gate may kill it there), then
// DEATH: return | exit | _exit | abort | shutdown_exit (LogManager::shutdown(),
// then _exit).
// CONFIG: file (FileAppender, its defaults: ImmediateFlush on, BufferedIO off)
// | file_no_flush (ImmediateFlush off) | file_buffered (BufferedIO on, 8 KiB)
// | console (ConsoleAppender on System.out) | async (AsyncAppender over the
// default FileAppender). Files go to $FLUSHCHECK_LOG_DIR/app.log.
#include <log4cxx/asyncappender.h>
#include <log4cxx/consoleappender.h>
#include <log4cxx/fileappender.h>
#include <log4cxx/helpers/pool.h>
#include <log4cxx/logger.h>
#include <log4cxx/logmanager.h>
#include <log4cxx/patternlayout.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "logger_main.hpp"

namespace {

using namespace log4cxx;

AppenderPtr file_appender(const std::string& config, const std::string& file) {
  auto a = std::make_shared<FileAppender>();
  a->setLayout(std::make_shared<PatternLayout>(LOG4CXX_STR("%m%n")));
  a->setFile(file);
  a->setAppend(false);
  if (config == "file_no_flush") a->setImmediateFlush(false);
  if (config == "file_buffered") {
    a->setBufferedIO(true);
    a->setBufferSize(8192);
  }
  helpers::Pool pool;
  a->activateOptions(pool);
  return a;
}

bool valid(const std::string& config, const std::string& death) {
  bool known = false;
  for (const char* c : {"file", "file_no_flush", "file_buffered", "console", "async"})
    known = known || config == c;
  for (const char* d : {"return", "exit", "_exit", "abort", "shutdown_exit"})
    if (known && death == d) return true;
  return false;
}

AppenderPtr make_appender(const std::string& config, const std::string& file) {
  if (config == "console")
    return std::make_shared<ConsoleAppender>(std::make_shared<PatternLayout>(LOG4CXX_STR("%m%n")),
                                             ConsoleAppender::getSystemOut());
  if (config == "async") {
    auto a = std::make_shared<AsyncAppender>();
    a->addAppender(file_appender("file", file));
    helpers::Pool pool;
    a->activateOptions(pool);
    return a;
  }
  return file_appender(config, file);
}

/// One workload record through LOG at its level (0 DEBUG, 1 INFO, 2 WARN,
/// 3 ERROR).
void log_at_level(const LoggerPtr& log, int level, const std::string& message) {
  if (level == 0)
    LOG4CXX_DEBUG(log, message);
  else if (level == 1)
    LOG4CXX_INFO(log, message);
  else if (level == 2)
    LOG4CXX_WARN(log, message);
  else
    LOG4CXX_ERROR(log, message);
}

/// The workload mode (docs/workload.md): CONFIG's appender on logger "app",
/// each record at its level. log4cxx 1.0's Logger has no flush: `flush`
/// does nothing.
int workload(int argc, char** argv) {
  if (!valid(argv[1], "return")) {
    std::fprintf(stderr, "log4cxx_logger: unknown CONFIG '%s'\n", argv[1]);
    return 64;
  }
  LoggerPtr log = Logger::getLogger("app");
  log->addAppender(make_appender(argv[1], logger_main::log_file()));
  return logger_main::run_workload(
      argc, argv, "log4cxx_logger",
      [log](int level, const std::string& message) { log_at_level(log, level, message); });
}

/// Ends the process as DEATH says; returns main's status for "return".
int die(const std::string& death) {
  logger_main::common_death(death);
  if (death == "shutdown_exit") {
    LogManager::shutdown();
    _exit(0);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (logger_main::is_workload(argc, argv)) return workload(argc, argv);
  logger_main::arguments args;
  if (!logger_main::parse(argc, argv, "log4cxx_logger", valid, args)) return 64;
  LoggerPtr log = Logger::getLogger("app");
  log->addAppender(make_appender(args.config, args.file));
  logger_main::log_records(args.records, [&log](long i, bool warning) {
    if (warning)
      LOG4CXX_WARN(log, "rec " << i << " warn");
    else
      LOG4CXX_INFO(log, "rec " << i << " info");
  });
  return die(args.death);
}
