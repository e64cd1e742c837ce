// 10 records to a log4cpp FileAppender on app.log (PatternLayout "%m%n"); one
// write(2) a record. repro.sh makes one of those writes fail or come up short.
#include <log4cpp/Category.hh>
#include <log4cpp/FileAppender.hh>
#include <log4cpp/PatternLayout.hh>
#include <log4cpp/Priority.hh>

#include <cstdio>

int main() {
  auto* file = new log4cpp::FileAppender("app", "app.log", false);
  auto* layout = new log4cpp::PatternLayout();
  layout->setConversionPattern("%m%n");
  file->setLayout(layout);
  log4cpp::Category& log = log4cpp::Category::getInstance("app");
  log.setPriority(log4cpp::Priority::INFO);
  log.addAppender(file);
  for (int i = 0; i < 10; ++i) log.info("record %d", i);
  std::printf("all 10 records logged\n");
  log4cpp::Category::shutdown();
  return 0;
}
