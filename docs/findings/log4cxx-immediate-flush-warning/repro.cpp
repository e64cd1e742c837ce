// 50 records to a log4cxx FileAppender with ImmediateFlush off (and no
// BufferedIO), then SIGKILL: writerappender.h warns the last events are lost.
#include <log4cxx/fileappender.h>
#include <log4cxx/helpers/pool.h>
#include <log4cxx/logger.h>
#include <log4cxx/patternlayout.h>

#include <csignal>

int main() {
  using namespace log4cxx;
  auto appender = std::make_shared<FileAppender>();
  appender->setLayout(std::make_shared<PatternLayout>(LOG4CXX_STR("%m%n")));
  appender->setFile(LOG4CXX_STR("app.log"));
  appender->setAppend(false);
  appender->setImmediateFlush(false);
  helpers::Pool pool;
  appender->activateOptions(pool);
  LoggerPtr log = Logger::getLogger("app");
  log->addAppender(appender);
  for (int i = 0; i < 50; ++i) LOG4CXX_INFO(log, "record " << i);
  std::raise(SIGKILL);
}
