#include "logger_main.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "flushcheck/marker.h"
#include "flushcheck/workload.h"

namespace logger_main {

bool parse(int argc, char** argv, const char* program, const validator& valid, arguments& out) {
  if (argc != 4 || !valid(argv[1], argv[3])) {
    std::fprintf(stderr, "usage: %s CONFIG RECORDS DEATH\n", program);
    return false;
  }
  out = {argv[1], std::atol(argv[2]), argv[3], log_file()};
  flushcheck_marker_init();
  return true;
}

void log_records(long records, const std::function<void(long index, bool warning)>& log) {
  for (long i = 0; i < records; ++i) log(i, i % 5 == 4);
  flushcheck_marker("logged");
}

std::string log_file() {
  const char* dir = std::getenv("FLUSHCHECK_LOG_DIR");
  return std::string(dir != nullptr ? dir : ".") + "/app.log";
}

bool is_workload(int argc, char** argv) { return argc >= 3 && std::string(argv[2]) == "workload"; }

namespace {

struct workload_driver {
  level_log log;
  std::function<void()> flush;
};

void log_one(void* cx, int level, long, const char* message, std::size_t length) {
  static_cast<workload_driver*>(cx)->log(level, std::string(message, length));
}

void flush_all(void* cx) {
  auto* d = static_cast<workload_driver*>(cx);
  if (d->flush) d->flush();
}

}  // namespace

int run_workload(int argc, char** argv, const char* program, level_log log,
                 std::function<void()> flush) {
  static workload_driver d;  // outlives main: exit's handlers may log
  d = {std::move(log), std::move(flush)};
  flushcheck_driver driver{log_one, flush_all, &d};
  return flushcheck_workload_run(program, argc - 3, argv + 3, &driver);
}

void common_death(const std::string& death) {
  if (death == "exit") std::exit(0);
  if (death == "_exit") _exit(0);
  if (death == "abort") std::abort();
}

}  // namespace logger_main
