/* bench_line: what the programs of targets/bench share (their one line on
 * fd 2, their failure and usage lines, their numbers, their clock).
 * The protocol `flushcheck bench` reads: each program times only its
 * measured part and writes one line to fd 2 with one write(2):
 *   "bench ns=T bytes=B ..." (T: the measured part in nanoseconds; more
 *   KEY=VALUE fields per program), or "bench skip: ..." and exit 0 when the
 *   case cannot run here (split placement on one CPU, O_DIRECT refused).
 * Exit 0; 1 with the failed call on fd 2 ("NAME: WHAT: STRERROR (errno N)");
 * 64 for bad arguments ("NAME: usage: SYNOPSIS (WHY)").
 * Plain C11 + POSIX: it is built against every C library of the matrix, and
 * the C++ program calls it too. */
#ifndef FLUSHCHECK_BENCH_LINE_H
#define FLUSHCHECK_BENCH_LINE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define BENCH_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define BENCH_PRINTF(f, a)
#endif

/* The program's name, the start of its failure and usage lines; call it
 * first in main. NAME must outlive the program (a string literal). */
void bench_line_init(const char* name);

/* One line, formatted, to fd 2 with one write(2) (FORMAT ends in '\n');
 * a line cut short (512 bytes) still ends in '\n'. */
void bench_line(const char* format, ...) BENCH_PRINTF(1, 2);

/* As bench_line, after "NAME: "; 1. */
int bench_error(const char* format, ...) BENCH_PRINTF(1, 2);

/* "NAME: WHAT: strerror(ERR) (errno ERR)"; 1. */
int bench_fail(const char* what, int err);

/* "NAME: usage: SYNOPSIS (WHY)"; 64. */
int bench_usage(const char* synopsis, const char* why);

/* A whole decimal number in [MIN, MAX] (no sign, no space), or -1. */
long long bench_count(const char* s, long long min, long long max);

/* CLOCK_MONOTONIC in nanoseconds. */
int64_t bench_now_ns(void);

#ifdef __cplusplus
}
#endif

#endif
