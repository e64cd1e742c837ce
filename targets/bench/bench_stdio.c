/* bench_stdio: times N calls of one C stdio output call to stdout under one
 * buffering mode, then the fflush that ends them:
 *   bench_stdio default|none|line|full SIZE putc|fwrite1|line|printf N
 * MODE default makes no setvbuf call; none, line and full call setvbuf on
 * stdout with _IONBF, _IOLBF, _IOFBF. SIZE: 0 lets the library give the
 * buffer (setvbuf(stdout, NULL, mode, 0)); > 0 is a buffer of SIZE bytes
 * malloc'ed here (musl ignores the size of a NULL buffer). SIZE is ignored
 * for default and none. OP: putc('x'), fwrite of 1 byte, fwrite of the 10
 * bytes "123456789\n", or printf("%s\n", "123456789"), N times (N > 0).
 * The measured part runs from just after setvbuf to just after fflush returns.
 * Writes one line to fd 2 with one write(2): "bench ns=T bytes=B".
 * Exit 0; 1 with the failed call on fd 2; 64 for bad arguments.
 * Plain C11 + POSIX: it is built against every C library of the matrix. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_line.h"

enum op { OP_PUTC, OP_FWRITE1, OP_LINE, OP_PRINTF };

static const char* const k_ops[] = {"putc", "fwrite1", "line", "printf"};
static const char* const k_calls[] = {"putc", "fwrite", "fwrite", "printf"}; /* per op */

struct args {
  int mode; /* _IONBF, _IOLBF, _IOFBF, or -1: default (no setvbuf) */
  long long size;
  int op; /* an enum op */
  long long n;
};

static const char k_line[] = "123456789";
#define LINE_LEN 10 /* k_line and its newline */

/* Read once before the loop, so that the compiler cannot turn printf("%s\n")
 * into puts, nor a 1-byte fwrite into fputc: the call timed is the one named. */
static const char* volatile g_printf_format = "%s\n";
static volatile size_t g_one = 1;

static int usage(const char* why) {
  return bench_usage("bench_stdio default|none|line|full SIZE putc|fwrite1|line|printf N", why);
}

/* MODE's setvbuf mode (-1: default, no setvbuf), or -2 when it is none of them. */
static int mode_arg(const char* s) {
  static const char* const modes[] = {"default", "none", "line", "full"};
  static const int mode_values[] = {-1, _IONBF, _IOLBF, _IOFBF};
  int mode = -2;
  for (int i = 0; i < 4; ++i)
    if (strcmp(s, modes[i]) == 0) mode = mode_values[i];
  return mode;
}

static int parse_args(int argc, char** argv, struct args* a) {
  if (argc != 5) return usage("4 arguments");
  a->mode = mode_arg(argv[1]);
  if (a->mode == -2) return usage("unknown MODE");
  if ((a->size = bench_count(argv[2], 0, (long long)(SIZE_MAX >> 1))) < 0)
    return usage("SIZE: a whole number >= 0");
  a->op = -1;
  for (int i = 0; i < 4; ++i)
    if (strcmp(argv[3], k_ops[i]) == 0) a->op = i;
  if (a->op < 0) return usage("unknown OP");
  if ((a->n = bench_count(argv[4], 1, INT64_MAX / LINE_LEN)) < 0)
    return usage("N: a whole number > 0");
  return 0;
}

/* setvbuf as MODE and SIZE ask; 0, or the exit status of the failure. */
static int set_buffering(const struct args* a) {
  if (a->mode == -1) return 0;
  char* buf = NULL;
  size_t size = a->mode == _IONBF ? 0 : (size_t)a->size;
  /* The buffer must outlive the stream: it is never freed. */
  if (size > 0 && (buf = malloc(size)) == NULL) return bench_fail("malloc", errno);
  errno = 0;
  if (setvbuf(stdout, buf, a->mode, size) != 0)
    return bench_fail("setvbuf", errno ? errno : EINVAL);
  return 0;
}

/* The loops of run_ops, one per op: N calls; the bytes they wrote, or -1. */
static long long putc_n(long long n) {
  for (long long i = 0; i < n; ++i)
    if (putc('x', stdout) == EOF) return -1;
  return n;
}

static long long fwrite1_n(long long n, size_t one) {
  for (long long i = 0; i < n; ++i)
    if (fwrite("x", 1, one, stdout) != one) return -1;
  return n;
}

static long long line_n(long long n) {
  for (long long i = 0; i < n; ++i)
    if (fwrite("123456789\n", 1, LINE_LEN, stdout) != LINE_LEN) return -1;
  return n * LINE_LEN;
}

static long long printf_n(long long n, const char* format) {
  for (long long i = 0; i < n; ++i)
    if (printf(format, k_line) != LINE_LEN) return -1;
  return n * LINE_LEN;
}

/* N calls of OP; the bytes they wrote, or -1 with errno set. One loop per op,
 * so that no dispatch is timed with the call. */
static long long run_ops(int op, long long n) {
  const char* format = g_printf_format;
  size_t one = g_one;
  switch (op) {
    case OP_PUTC: return putc_n(n);
    case OP_FWRITE1: return fwrite1_n(n, one);
    case OP_LINE: return line_n(n);
    default: return printf_n(n, format);
  }
}

int main(int argc, char** argv) {
  struct args a = {0};
  bench_line_init("bench_stdio");
  int rc = parse_args(argc, argv, &a);
  if (rc != 0 || (rc = set_buffering(&a)) != 0) return rc;
  errno = 0;
  int64_t start = bench_now_ns();
  long long bytes = run_ops(a.op, a.n);
  if (bytes < 0 || ferror(stdout)) return bench_fail(k_calls[a.op], errno ? errno : EIO);
  if (fflush(stdout) != 0 || ferror(stdout)) return bench_fail("fflush", errno ? errno : EIO);
  int64_t end = bench_now_ns();
  bench_line("bench ns=%lld bytes=%lld\n", (long long)(end - start), bytes);
  return 0;
}
