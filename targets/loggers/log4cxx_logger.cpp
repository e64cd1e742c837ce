// A program that logs with Apache log4cxx (Debian's liblog4cxx-dev) the way
// an application would, for the gates in tests/loggers/log4cxx_gate.cpp.
//
//   log4cxx_logger CONFIG RECORDS DEATH
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

#include "flushcheck/marker.h"

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

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: log4cxx_logger CONFIG RECORDS DEATH\n");
    return 64;
  }
  const std::string config = argv[1], death = argv[3];
  const long records = std::atol(argv[2]);
  const char* dir = std::getenv("FLUSHCHECK_LOG_DIR");
  const std::string file = std::string(dir != nullptr ? dir : ".") + "/app.log";
  flushcheck_marker_init();
  LoggerPtr log = Logger::getLogger("app");
  log->addAppender(make_appender(config, file));
  for (long i = 0; i < records; ++i) {
    if (i % 5 == 4)
      LOG4CXX_WARN(log, "rec " << i << " warn");
    else
      LOG4CXX_INFO(log, "rec " << i << " info");
  }
  flushcheck_marker("logged");
  if (death == "exit") std::exit(0);
  if (death == "_exit") _exit(0);
  if (death == "abort") std::abort();
  if (death == "shutdown_exit") {
    LogManager::shutdown();
    _exit(0);
  }
  return 0;
}
