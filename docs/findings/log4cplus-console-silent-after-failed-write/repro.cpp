// 10 records to a log4cplus ConsoleAppender on stderr (logToStdErr=true, the
// rest default); strace makes the 3rd write(2) to stderr fail with EIO.
#include <log4cplus/consoleappender.h>
#include <log4cplus/initializer.h>
#include <log4cplus/layout.h>
#include <log4cplus/logger.h>
#include <log4cplus/loggingmacros.h>

#include <cstdio>
#include <iostream>
#include <memory>

int main() {
  log4cplus::Initializer init;
  log4cplus::SharedAppenderPtr console(new log4cplus::ConsoleAppender(true));
  console->setLayout(
      std::unique_ptr<log4cplus::Layout>(new log4cplus::PatternLayout(LOG4CPLUS_TEXT("%m%n"))));
  log4cplus::Logger log = log4cplus::Logger::getRoot();
  log.addAppender(console);
  for (int i = 0; i < 10; ++i) LOG4CPLUS_INFO(log, "record " << i);
  std::printf("all 10 records logged; std::cerr.bad() = %d\n", std::cerr.bad() ? 1 : 0);
  return 0;
}
