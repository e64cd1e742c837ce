// 10 records to a log4cxx FileAppender (the default ImmediateFlush: a
// write(2) per record); strace makes the 3rd write fail with ENOSPC.
#include <log4cxx/fileappender.h>
#include <log4cxx/helpers/pool.h>
#include <log4cxx/logger.h>
#include <log4cxx/patternlayout.h>

#include <cstdio>

int main() {
  using namespace log4cxx;
  auto appender = std::make_shared<FileAppender>();
  appender->setLayout(std::make_shared<PatternLayout>(LOG4CXX_STR("%m%n")));
  appender->setFile(LOG4CXX_STR("app.log"));
  appender->setAppend(false);
  helpers::Pool pool;
  appender->activateOptions(pool);
  LoggerPtr log = Logger::getLogger("app");
  log->addAppender(appender);
  for (int i = 0; i < 10; ++i) LOG4CXX_INFO(log, "record " << i);
  std::printf("all 10 records logged, main returns\n");
  return 0;
}
