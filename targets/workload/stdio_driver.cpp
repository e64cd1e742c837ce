// stdio_driver.c's twin compiled as C++ (docs/workload.md): the same LEVEL
// MESSAGE lines by fprintf and `flush` by fflush, so that `throw` is what it
// is in C++, an exception out of main: uncaught, std::terminate aborts.
#include <flushcheck/workload.h>

#include <cstddef>
#include <cstdio>

namespace {

void log_line(void*, int level, long, const char* message, std::size_t length) {
  static const char* const names[] = {"DEBUG", "INFO", "WARN", "ERROR"};
  std::fprintf(stdout, "%s %.*s\n", names[level], static_cast<int>(length), message);
}

void flush_stdout(void*) { std::fflush(stdout); }

}  // namespace

int main(int argc, char** argv) {
  flushcheck_driver d = {log_line, flush_stdout, nullptr};
  return flushcheck_workload_run("stdio_driver_cpp", argc - 1, argv + 1, &d);
}
