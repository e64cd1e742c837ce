// 3 records through spdlog, to the stdout sink ("stdout") or to a basic file
// sink flushed at every record ("file"); strace makes the 1st write(2) to the
// output file fail with EIO. Which of the two says so?
#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <cstring>
#include <memory>

int main(int argc, char** argv) {
  std::shared_ptr<spdlog::logger> log;
  if (argc > 1 && std::strcmp(argv[1], "file") == 0) {
    log = spdlog::basic_logger_mt("app", "app.log", true);
    log->flush_on(spdlog::level::info);
  } else {
    log = spdlog::stdout_logger_mt("app");
  }
  log->set_pattern("%v");
  for (int i = 0; i < 3; ++i) log->info("record {}", i);
  return 0;
}
