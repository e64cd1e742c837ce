// 10 records with Easylogging++ to a file (its default: flushed each); strace
// makes the 3rd write(2) fail with ENOSPC. What of the later 7 reaches the file?
#include <easylogging++.h>

#include <cstdio>

INITIALIZE_EASYLOGGINGPP

int main() {
  el::Configurations conf;
  conf.setToDefault();
  conf.set(el::Level::Global, el::ConfigurationType::Format, "%msg");
  conf.set(el::Level::Global, el::ConfigurationType::Filename, "app.log");
  conf.set(el::Level::Global, el::ConfigurationType::ToStandardOutput, "false");
  el::Loggers::reconfigureLogger("default", conf);
  for (int i = 0; i < 10; ++i) LOG(INFO) << "record " << i;
  return 0;
}
