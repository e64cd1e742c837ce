/* bench_line: the helpers of the programs of targets/bench (bench_line.h). */
#define _POSIX_C_SOURCE 200809L
#include "bench_line.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char* g_name = "bench";

void bench_line_init(const char* name) { g_name = name; }

/* "PREFIX: " (when PREFIX is not NULL) and FORMAT to fd 2 with one write; a
 * line cut short still ends in '\n'. */
static void put_line(const char* prefix, const char* format, va_list ap) {
  char line[512];
  size_t start = 0;
  if (prefix != NULL) {
    int p = snprintf(line, sizeof line, "%s: ", prefix);
    if (p < 0) return;
    start = (size_t)p < sizeof line ? (size_t)p : sizeof line - 1;
  }
  int n = vsnprintf(line + start, sizeof line - start, format, ap);
  if (n < 0) return;
  size_t len = start + (size_t)n;
  if (len >= sizeof line) {
    len = sizeof line - 1;
    line[len - 1] = '\n';
  }
  ssize_t r = write(2, line, len);
  (void)r;
}

void bench_line(const char* format, ...) {
  va_list ap;
  va_start(ap, format);
  put_line(NULL, format, ap);
  va_end(ap);
}

int bench_error(const char* format, ...) {
  va_list ap;
  va_start(ap, format);
  put_line(g_name, format, ap);
  va_end(ap);
  return 1;
}

int bench_fail(const char* what, int err) {
  return bench_error("%s: %s (errno %d)\n", what, strerror(err), err);
}

int bench_usage(const char* synopsis, const char* why) {
  bench_error("usage: %s (%s)\n", synopsis, why);
  return 64;
}

long long bench_count(const char* s, long long min, long long max) {
  char* end = NULL;
  if (*s < '0' || *s > '9') return -1; /* no sign, no space */
  errno = 0;
  long long v = strtoll(s, &end, 10);
  if (errno != 0 || *end != '\0' || v < min || v > max) return -1;
  return v;
}

int64_t bench_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}
