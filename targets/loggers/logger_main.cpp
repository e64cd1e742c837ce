#include "logger_main.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "flushcheck/marker.h"

namespace logger_main {

bool parse(int argc, char** argv, const char* program, const validator& valid, arguments& out) {
  if (argc != 4 || !valid(argv[1], argv[3])) {
    std::fprintf(stderr, "usage: %s CONFIG RECORDS DEATH\n", program);
    return false;
  }
  const char* dir = std::getenv("FLUSHCHECK_LOG_DIR");
  out = {argv[1], std::atol(argv[2]), argv[3],
         std::string(dir != nullptr ? dir : ".") + "/app.log"};
  flushcheck_marker_init();
  return true;
}

void log_records(long records, const std::function<void(long index, bool warning)>& log) {
  for (long i = 0; i < records; ++i) log(i, i % 5 == 4);
  flushcheck_marker("logged");
}

void common_death(const std::string& death) {
  if (death == "exit") std::exit(0);
  if (death == "_exit") _exit(0);
  if (death == "abort") std::abort();
}

}  // namespace logger_main
