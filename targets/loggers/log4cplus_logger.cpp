// A property gate's driver for log4cplus (Debian's liblog4cplus-dev, 2.0.8):
// tests/loggers/log4cplus.property.toml.
//
//   log4cplus_logger CONFIG workload OP...   (docs/workload.md)
//
// log4cplus::Initializer first in main, as initializer.h asks: its
// destructor calls log4cplus::Logger::shutdown(), at `return` only. Logger
// "app" at every level, one appender on $FLUSHCHECK_LOG_DIR/app.log
// (truncated), PatternLayout "%p %m%n". CONFIG: file (FileAppender, its
// default ImmediateFlush true) | file_no_flush (ImmediateFlush false) |
// async_append (ImmediateFlush true and AsyncAppend true: appends done on
// log4cplus's thread pool) | console (a ConsoleAppender on stderr,
// logToStdErr true, ImmediateFlush true: consoleappender.h). `flush` is
// Appender::waitToFinishAsyncLogging()
// ("waits for all events that are being asynchronously logged to finish");
// log4cplus has no other flush.
#include <log4cplus/consoleappender.h>
#include <log4cplus/fileappender.h>
#include <log4cplus/helpers/property.h>
#include <log4cplus/initializer.h>
#include <log4cplus/layout.h>
#include <log4cplus/logger.h>
#include <log4cplus/loglevel.h>

#include <cstdio>
#include <memory>
#include <string>

#include "logger_main.hpp"

namespace {

/// The console config's appender: stderr, each record flushed.
log4cplus::SharedAppenderPtr console_appender() {
  log4cplus::SharedAppenderPtr appender(new log4cplus::ConsoleAppender(true, true));
  appender->setLayout(std::make_unique<log4cplus::PatternLayout>(LOG4CPLUS_TEXT("%p %m%n")));
  return appender;
}

/// CONFIG's appender on FILE; null for an unknown CONFIG.
log4cplus::SharedAppenderPtr make_appender(const std::string& config, const std::string& file) {
  if (config == "console") return console_appender();
  const bool async = config == "async_append";
  if (config != "file" && config != "file_no_flush" && !async)
    return log4cplus::SharedAppenderPtr();
  log4cplus::helpers::Properties properties;
  properties.setProperty(LOG4CPLUS_TEXT("File"), LOG4CPLUS_STRING_TO_TSTRING(file));
  properties.setProperty(LOG4CPLUS_TEXT("ImmediateFlush"), config == "file_no_flush"
                                                               ? LOG4CPLUS_TEXT("false")
                                                               : LOG4CPLUS_TEXT("true"));
  properties.setProperty(LOG4CPLUS_TEXT("AsyncAppend"),
                         async ? LOG4CPLUS_TEXT("true") : LOG4CPLUS_TEXT("false"));
  log4cplus::SharedAppenderPtr appender(
      new log4cplus::FileAppender(properties, std::ios_base::trunc));
  appender->setLayout(std::make_unique<log4cplus::PatternLayout>(LOG4CPLUS_TEXT("%p %m%n")));
  return appender;
}

}  // namespace

int main(int argc, char** argv) {
  log4cplus::Initializer initializer;
  if (!logger_main::is_workload(argc, argv)) {
    std::fprintf(stderr, "usage: log4cplus_logger CONFIG workload OP...\n");
    return 64;
  }
  auto appender = make_appender(argv[1], logger_main::log_file());
  if (!appender) {
    std::fprintf(stderr, "log4cplus_logger: unknown CONFIG %s\n", argv[1]);
    return 64;
  }
  auto log = log4cplus::Logger::getInstance(LOG4CPLUS_TEXT("app"));
  log.setLogLevel(log4cplus::ALL_LOG_LEVEL);
  log.addAppender(appender);
  return logger_main::run_workload(
      argc, argv, "log4cplus_logger",
      [log](int level, const std::string& message) {
        static const log4cplus::LogLevel levels[] = {
            log4cplus::DEBUG_LOG_LEVEL, log4cplus::INFO_LOG_LEVEL, log4cplus::WARN_LOG_LEVEL,
            log4cplus::ERROR_LOG_LEVEL};
        log.log(levels[level], LOG4CPLUS_STRING_TO_TSTRING(message));
      },
      [appender] { appender->waitToFinishAsyncLogging(); });
}
