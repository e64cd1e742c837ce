/* A workload driver whose "library" is C stdio on stdout: LEVEL MESSAGE
 * lines by fprintf, `flush` by fflush (docs/workload.md). The tests run it,
 * and its C++, Python and Node twins, with the same workloads. */
#include <flushcheck/workload.h>
#include <stdio.h>

static void log_line(void* context, int level, long n, const char* message, size_t length) {
  static const char* const names[] = {"DEBUG", "INFO", "WARN", "ERROR"};
  (void)context;
  (void)n;
  fprintf(stdout, "%s %.*s\n", names[level], (int)length, message);
}

static void flush_stdout(void* context) {
  (void)context;
  fflush(stdout);
}

int main(int argc, char** argv) {
  struct flushcheck_driver d = {log_line, flush_stdout, NULL};
  return flushcheck_workload_run("stdio_driver", argc - 1, argv + 1, &d);
}
