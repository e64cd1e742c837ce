// 50 records with Easylogging++, LogFlushThreshold 16, every 5th a WARNING,
// then SIGKILL: how many reached the file?
#include <easylogging++.h>

#include <csignal>

INITIALIZE_EASYLOGGINGPP

int main() {
  el::Configurations conf;
  conf.setToDefault();
  conf.set(el::Level::Global, el::ConfigurationType::Format, "%msg");
  conf.set(el::Level::Global, el::ConfigurationType::Filename, "app.log");
  conf.set(el::Level::Global, el::ConfigurationType::ToStandardOutput, "false");
  conf.set(el::Level::Global, el::ConfigurationType::LogFlushThreshold, "16");
  el::Loggers::reconfigureLogger("default", conf);
  for (int i = 0; i < 50; ++i) {
    if (i % 5 == 4)
      LOG(WARNING) << "record " << i;
    else
      LOG(INFO) << "record " << i;
  }
  std::raise(SIGKILL);
}
