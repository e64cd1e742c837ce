// A property gate's driver for log4cpp (Debian's liblog4cpp5-dev, 1.1.3):
// tests/loggers/log4cpp.property.toml.
//
//   log4cpp_logger CONFIG workload OP...   (docs/workload.md)
//
// Category "app" at DEBUG and above, one appender, PatternLayout "%p %m%n".
// CONFIG: file (a FileAppender on $FLUSHCHECK_LOG_DIR/app.log, truncated:
// one write(2) a record, src/FileAppender.cpp) | console (an
// OstreamAppender on std::cout, what PropertyConfigurator makes of a
// ConsoleAppender) | console_stderr (on std::cerr, a ConsoleAppender's
// target stderr). log4cpp has no flush (Appender has reopen() and close()
// only): `flush` does nothing. At `return`, Category::shutdown() as the
// documentation's "Properties file example" ends (doc/html/index.html).
#include <log4cpp/Appender.hh>
#include <log4cpp/Category.hh>
#include <log4cpp/FileAppender.hh>
#include <log4cpp/OstreamAppender.hh>
#include <log4cpp/PatternLayout.hh>
#include <log4cpp/Priority.hh>

#include <cstdio>
#include <iostream>
#include <string>

#include "logger_main.hpp"

namespace {

/// CONFIG's appender on FILE, with its layout; null for an unknown CONFIG.
log4cpp::Appender* make_appender(const std::string& config, const std::string& file) {
  log4cpp::Appender* appender = nullptr;
  if (config == "file") appender = new log4cpp::FileAppender("app", file, false);
  if (config == "console") appender = new log4cpp::OstreamAppender("app", &std::cout);
  if (config == "console_stderr") appender = new log4cpp::OstreamAppender("app", &std::cerr);
  if (appender == nullptr) return nullptr;
  auto* layout = new log4cpp::PatternLayout();
  layout->setConversionPattern("%p %m%n");
  appender->setLayout(layout);  // the appender owns it
  return appender;
}

}  // namespace

int main(int argc, char** argv) {
  if (!logger_main::is_workload(argc, argv)) {
    std::fprintf(stderr, "usage: log4cpp_logger CONFIG workload OP...\n");
    return 64;
  }
  log4cpp::Appender* appender = make_appender(argv[1], logger_main::log_file());
  if (appender == nullptr) {
    std::fprintf(stderr, "log4cpp_logger: unknown CONFIG %s\n", argv[1]);
    return 64;
  }
  log4cpp::Category& log = log4cpp::Category::getInstance("app");
  log.setPriority(log4cpp::Priority::DEBUG);
  log.addAppender(appender);  // the category owns it
  const int status = logger_main::run_workload(
      argc, argv, "log4cpp_logger", [&log](int level, const std::string& message) {
        static const log4cpp::Priority::Value levels[] = {
            log4cpp::Priority::DEBUG, log4cpp::Priority::INFO, log4cpp::Priority::WARN,
            log4cpp::Priority::ERROR};
        log.log(levels[level], message);
      });
  log4cpp::Category::shutdown();
  return status;
}
