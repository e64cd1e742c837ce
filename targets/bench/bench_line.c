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

/* "PREFIX: " into LINE (SIZE bytes), cut to fit, when PREFIX is not NULL:
 * its length (0 without one), or -1. */
static int put_prefix(char* line, size_t size, const char* prefix) {
  if (prefix == NULL) return 0;
  int p = snprintf(line, size, "%s: ", prefix);
  if (p < 0) return -1;
  return (size_t)p < size ? p : (int)(size - 1);
}

/* The length of a line of LEN bytes formatted into LINE (SIZE bytes): one
 * cut short is SIZE - 1 bytes and still ends in '\n'. */
static size_t fit_line(char* line, size_t size, size_t len) {
  if (len >= size) {
    len = size - 1;
    line[len - 1] = '\n';
  }
  return len;
}

/* "PREFIX: " (when PREFIX is not NULL) and FORMAT to fd 2 with one write; a
 * line cut short still ends in '\n'. */
static void put_line(const char* prefix, const char* format, va_list ap) {
  char line[512];
  int p = put_prefix(line, sizeof line, prefix);
  if (p < 0) return;
  size_t start = (size_t)p;
  int n = vsnprintf(line + start, sizeof line - start, format, ap);
  if (n < 0) return;
  size_t len = fit_line(line, sizeof line, start + (size_t)n);
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
