// 50 records with Easylogging++'s default configuration (to a file only),
// then SIGKILL: what reached the file, and in how many write(2) calls.
#include <easylogging++.h>

#include <csignal>

INITIALIZE_EASYLOGGINGPP

int main() {
  el::Configurations conf;
  conf.setToDefault();
  conf.set(el::Level::Global, el::ConfigurationType::Format, "%msg");
  conf.set(el::Level::Global, el::ConfigurationType::Filename, "app.log");
  conf.set(el::Level::Global, el::ConfigurationType::ToStandardOutput, "false");
  el::Loggers::reconfigureLogger("default", conf);
  for (int i = 0; i < 50; ++i) LOG(INFO) << "record " << i;
  std::raise(SIGKILL);
}
