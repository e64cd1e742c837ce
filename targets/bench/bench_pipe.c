/* bench_pipe: times a pipe(2) of its own between a writer (this process) and
 * a reader child, each pinned to a CPU:
 *   bench_pipe throughput BLOCK TOTAL PIPESIZE same|split
 *     writes TOTAL bytes (a multiple of BLOCK) in write(2)s of BLOCK bytes;
 *     the child reads them in read(2)s of BLOCK bytes until EOF. PIPESIZE > 0
 *     sets the pipe's size (F_SETPIPE_SZ); 0 keeps the kernel's. Measured: from
 *     just before the first write to after waitpid of the reader.
 *     "bench ns=T bytes=TOTAL pipe_size=P writer_cpu=A reader_cpu=B"
 *   bench_pipe pingpong N same|split
 *     N round trips of 1 byte (to the child by one pipe, back by another),
 *     after 100 untimed ones, each timed alone. Measured: the timed loop.
 *     "bench ns=T bytes=N min_ns=.. p10_ns=.. p50_ns=.. p90_ns=.. p99_ns=..
 *      p999_ns=.. max_ns=.. writer_cpu=A reader_cpu=B"
 * same: both on the first CPU this process may use; split: the writer on the
 * first, the reader on the second ("bench skip: ..." and exit 0 with one).
 * The line goes to fd 2 with one write(2). Exit 0; 1 with the failed call on
 * fd 2; 64 for bad arguments. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench_line.h"

#define SKIPPED (-1) /* a status: the skip line is written, exit 0 */
#define WARM_UP 100  /* untimed round trips before pingpong's timed ones */

struct placement {
  int writer_cpu, reader_cpu;
};

static int usage(const char* why) {
  return bench_usage(
      "bench_pipe throughput BLOCK TOTAL PIPESIZE same|split | bench_pipe pingpong N same|split",
      why);
}

/* The skip line of a split placement in SET, which has fewer than 2 CPUs; SKIPPED. */
static int skip_split(const cpu_set_t* set) {
  bench_line("bench skip: split placement needs 2 CPUs, this process may use %d\n", CPU_COUNT(set));
  return SKIPPED;
}

/* The CPUs of the writer and the reader, same or SPLIT, among those this
 * process may use; 0, SKIPPED, or 1 (reported). */
static int place(int split, struct placement* p) {
  cpu_set_t set;
  int cpus[2] = {-1, -1}, count = 0;
  if (sched_getaffinity(0, sizeof set, &set) != 0) return bench_fail("sched_getaffinity", errno);
  for (int cpu = 0; cpu < CPU_SETSIZE && count < 2; ++cpu)
    if (CPU_ISSET(cpu, &set)) cpus[count++] = cpu;
  if (split && count < 2) return skip_split(&set);
  p->writer_cpu = cpus[0];
  p->reader_cpu = split ? cpus[1] : cpus[0];
  return 0;
}

static int pin(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  return sched_setaffinity(0, sizeof set, &set);
}

/* Waits for the child; 0 when it exited 0, else 1 (reported here unless the
 * child exited 1, having reported its failure itself). */
static int wait_child(pid_t pid) {
  int status = 0;
  if (waitpid(pid, &status, 0) != pid) return bench_fail("waitpid", errno);
  if (WIFEXITED(status) && WEXITSTATUS(status) <= 1) return WEXITSTATUS(status);
  if (WIFSIGNALED(status))
    return bench_error("reader child killed by signal %d\n", WTERMSIG(status));
  return bench_error("reader child exited %d\n", WEXITSTATUS(status));
}

/* The reader's reads of FD into BUF, BLOCK bytes each, until EOF: the bytes
 * read (a failed read ends the child, reported). */
static long long read_to_eof(int fd, char* buf, long long block) {
  long long got = 0;
  for (;;) {
    ssize_t n = read(fd, buf, (size_t)block);
    if (n == 0) break;
    if (n < 0 && errno != EINTR) _exit(bench_fail("read (reader)", errno));
    if (n > 0) got += n;
  }
  return got;
}

/* The throughput reader: pins itself, makes its buffer, says so by closing
 * READY (a close, not a write: the tracer counts this program's writes, and
 * they must be the blocks alone), then reads FD until EOF. Exits 0 when it
 * read TOTAL bytes. */
static _Noreturn void reader(int fd, int ready, int cpu, long long block, long long total) {
  if (pin(cpu) != 0) _exit(bench_fail("sched_setaffinity (reader)", errno));
  char* buf = malloc((size_t)block);
  if (buf == NULL) _exit(bench_fail("malloc (reader)", errno));
  memset(buf, 0, (size_t)block);
  close(ready);
  long long got = read_to_eof(fd, buf, block);
  if (got == total) _exit(0);
  _exit(bench_error("reader got %lld bytes of %lld\n", got, total));
}

/* Sets the pipe's size when SIZE > 0; its size (F_GETPIPE_SZ), or -1 (reported). */
static int pipe_size(int fd, long long size) {
  if (size > 0 && fcntl(fd, F_SETPIPE_SZ, (int)size) < 0) {
    bench_fail("fcntl F_SETPIPE_SZ", errno);
    return -1;
  }
  int got = fcntl(fd, F_GETPIPE_SZ);
  if (got < 0) bench_fail("fcntl F_GETPIPE_SZ", errno);
  return got;
}

/* TOTAL bytes to FD in write(2)s of BLOCK bytes (the rest of a short one
 * again); 0, or the errno of the failed write. */
static int write_all(int fd, const char* buf, long long block, long long total) {
  for (long long done = 0; done < total; done += block) {
    for (long long off = 0; off < block;) {
      ssize_t n = write(fd, buf + off, (size_t)(block - off));
      if (n < 0 && errno != EINTR) return errno;
      if (n == 0) return EIO; /* a pipe never takes nothing: do not spin */
      if (n > 0) off += n;
    }
  }
  return 0;
}

/* The data pipe into DATA, its size set as pipe_size does; its size, or -1
 * (reported). */
static int data_pipe(int data[2], long long size) {
  if (pipe(data) != 0) {
    bench_fail("pipe", errno);
    return -1;
  }
  return pipe_size(data[1], size);
}

/* Forks the reader child, on the read ends of DATA and READY; its pid, or
 * -1 (reported). */
static pid_t fork_reader(int data[2], int ready[2], int cpu, long long block, long long total) {
  pid_t pid = fork();
  if (pid < 0) {
    bench_fail("fork", errno);
    return -1;
  }
  if (pid == 0) {
    close(data[1]);
    close(ready[0]);
    reader(data[0], ready[1], cpu, block, total);
  }
  return pid;
}

/* The reader PID never said it was ready (ERR): reported, killed, reaped; -1. */
static pid_t abandon_reader(pid_t pid, int err) {
  int status;
  bench_fail("read (reader ready)", err);
  kill(pid, SIGKILL); /* it would wait for EOF on the data pipe, whose end we hold */
  waitpid(pid, &status, 0);
  return -1;
}

/* Waits until the reader PID closes its end of READY; PID when it is ready
 * and running, or -1 (reported). */
static pid_t await_reader(pid_t pid, int ready) {
  char c;
  ssize_t n;
  while ((n = read(ready, &c, 1)) < 0 && errno == EINTR) {
  }
  close(ready);
  int status;
  pid_t ended = n == 0 ? waitpid(pid, &status, WNOHANG) : 0;
  if (n == 0 && ended == 0) return pid; /* ready, and running */
  if (ended == pid) return -1;          /* it failed in its set-up and said so */
  return abandon_reader(pid, n < 0 ? errno : EPIPE);
}

/* Forks the reader of DATA[0] on CPU; its pid once it is ready, or -1 (reported). */
static pid_t start_reader(int data[2], int cpu, long long block, long long total) {
  int ready[2];
  if (pipe(ready) != 0) {
    bench_fail("pipe", errno);
    return -1;
  }
  pid_t pid = fork_reader(data, ready, cpu, block, total);
  if (pid < 0) return -1;
  close(data[0]);
  close(ready[1]);
  return await_reader(pid, ready[0]);
}

/* The writer's buffer, BLOCK bytes of 'p', then the writer pinned to CPU;
 * NULL (reported) on failure. */
static char* prepare_writer(long long block, int cpu) {
  char* buf = malloc((size_t)block);
  if (buf == NULL) {
    bench_fail("malloc", errno);
    return NULL;
  }
  memset(buf, 'p', (size_t)block);
  if (pin(cpu) != 0) {
    bench_fail("sched_setaffinity (writer)", errno);
    return NULL;
  }
  return buf;
}

/* The measured part: TOTAL bytes of BUF to FD in write(2)s of BLOCK bytes,
 * then FD closed and the reader PID reaped; its nanoseconds, or -1 (reported). */
static int64_t timed_writes(int fd, const char* buf, long long block, long long total, pid_t pid) {
  int64_t start = bench_now_ns();
  int err = write_all(fd, buf, block, total);
  close(fd);
  if (wait_child(pid) != 0) return -1;
  if (err != 0) {
    bench_fail("write", err);
    return -1;
  }
  int64_t end = bench_now_ns();
  return end - start;
}

static void report_throughput(int64_t ns, long long total, int actual, struct placement p) {
  bench_line("bench ns=%lld bytes=%lld pipe_size=%d writer_cpu=%d reader_cpu=%d\n", (long long)ns,
             total, actual, p.writer_cpu, p.reader_cpu);
}

static int throughput(long long block, long long total, long long size, int split) {
  struct placement p;
  int data[2], rc = place(split, &p);
  if (rc != 0) return rc;
  int actual = data_pipe(data, size);
  if (actual < 0) return 1;
  char* buf = prepare_writer(block, p.writer_cpu);
  if (buf == NULL) return 1;
  pid_t pid = start_reader(data, p.reader_cpu, block, total);
  if (pid < 0) return 1;
  int64_t ns = timed_writes(data[1], buf, block, total, pid);
  if (ns < 0) return 1;
  report_throughput(ns, total, actual, p);
  return 0;
}

/* The pingpong child: each byte read from IN goes back on OUT, until EOF. */
static _Noreturn void echo(int in, int out, int cpu) {
  char c;
  if (pin(cpu) != 0) _exit(bench_fail("sched_setaffinity (reader)", errno));
  for (;;) {
    ssize_t n = read(in, &c, 1);
    if (n == 0) _exit(0);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) _exit(bench_fail("read (reader)", errno));
    if (write(out, &c, 1) != 1) _exit(bench_fail("write (reader)", errno));
  }
}

/* One byte to TO and one back from FROM; 0, or the errno (EPIPE: the child is gone). */
static int round_trip(int to, int from) {
  char c = 'x';
  if (write(to, &c, 1) != 1) return errno;
  ssize_t n = read(from, &c, 1);
  return n == 1 ? 0 : n == 0 ? EPIPE : errno;
}

static int cmp_i64(const void* a, const void* b) {
  int64_t x = *(const int64_t*)a, y = *(const int64_t*)b;
  return (x > y) - (x < y);
}

/* SORTED[floor(PERMILLE / 1000 * (N - 1))], in integers. */
static long long at(const int64_t* sorted, long long n, long long permille) {
  return (long long)sorted[permille * (n - 1) / 1000];
}

static void report_pingpong(int64_t* rt, long long n, int64_t total, struct placement p) {
  qsort(rt, (size_t)n, sizeof *rt, cmp_i64);
  bench_line(
      "bench ns=%lld bytes=%lld min_ns=%lld p10_ns=%lld p50_ns=%lld p90_ns=%lld "
      "p99_ns=%lld p999_ns=%lld max_ns=%lld writer_cpu=%d reader_cpu=%d\n",
      (long long)total, n, (long long)rt[0], at(rt, n, 100), at(rt, n, 500), at(rt, n, 900),
      at(rt, n, 990), at(rt, n, 999), (long long)rt[n - 1], p.writer_cpu, p.reader_cpu);
}

/* The round trips: WARM_UP untimed, then N timed into RT; the timed loop's
 * nanoseconds, or -errno. */
static int64_t round_trips(int to, int from, int64_t* rt, long long n) {
  int err = 0;
  int64_t first = 0, end = 0;
  for (int i = 0; i < WARM_UP && err == 0; ++i) err = round_trip(to, from);
  for (long long i = 0; i < n && err == 0; ++i) {
    int64_t start = bench_now_ns();
    err = round_trip(to, from);
    end = bench_now_ns();
    rt[i] = end - start;
    if (i == 0) first = start;
  }
  return err != 0 ? -err : end - first;
}

/* Forks the echo child on CPU, on the read end of TO and the write end of
 * BACK; its pid, or -1 (reported). */
static pid_t fork_echo(int to[2], int back[2], int cpu) {
  pid_t pid = fork();
  if (pid < 0) {
    bench_fail("fork", errno);
    return -1;
  }
  if (pid == 0) {
    close(to[1]);
    close(back[0]);
    echo(to[0], back[1], cpu);
  }
  return pid;
}

/* The pipes TO and BACK, then this process pinned to CPU; 0, or 1 (reported). */
static int pipes_and_pin(int to[2], int back[2], int cpu) {
  if (pipe(to) != 0 || pipe(back) != 0) return bench_fail("pipe", errno);
  if (pin(cpu) != 0) return bench_fail("sched_setaffinity (writer)", errno);
  return 0;
}

/* The pipes TO and BACK (pipes_and_pin, on P's writer CPU), then the echo
 * child forked on P's reader CPU, its ends of them closed here; its pid, or
 * -1 (reported). */
static pid_t start_echo(int to[2], int back[2], struct placement p) {
  if (pipes_and_pin(to, back, p.writer_cpu) != 0) return -1;
  pid_t pid = fork_echo(to, back, p.reader_cpu);
  if (pid < 0) return -1;
  close(to[0]);
  close(back[1]);
  return pid;
}

static int pingpong(long long n, int split) {
  struct placement p;
  int to[2], back[2], rc = place(split, &p);
  if (rc != 0) return rc;
  int64_t* rt = malloc((size_t)n * sizeof *rt);
  if (rt == NULL) return bench_fail("malloc", errno);
  pid_t pid = start_echo(to, back, p);
  if (pid < 0) return 1;
  int64_t total = round_trips(to[1], back[0], rt, n);
  close(to[1]);
  if ((rc = wait_child(pid)) != 0 || total < 0)
    return rc != 0 ? rc : bench_fail("round trip", (int)-total);
  report_pingpong(rt, n, total, p);
  return 0;
}

/* "same" 0, "split" 1, else -1. */
static int placement_arg(const char* s) {
  if (strcmp(s, "same") == 0) return 0;
  return strcmp(s, "split") == 0 ? 1 : -1;
}

/* throughput BLOCK TOTAL PIPESIZE (ARGV[2..4]), SPLIT its placement_arg. */
static int run_throughput(char** argv, int split) {
  long long block = bench_count(argv[2], 1, INT_MAX);
  long long total = bench_count(argv[3], 1, LLONG_MAX);
  long long size = bench_count(argv[4], 0, INT_MAX);
  if (block < 0 || total < 0 || size < 0) return usage("BLOCK, TOTAL > 0; PIPESIZE >= 0");
  if (total % block != 0) return usage("TOTAL must be a multiple of BLOCK");
  if (split < 0) return usage("same or split");
  return throughput(block, total, size, split);
}

/* pingpong N (ARGV[2]), SPLIT its placement_arg. */
static int run_pingpong(char** argv, int split) {
  long long n = bench_count(argv[2], 1, (long long)(SIZE_MAX / sizeof(int64_t)) / 1000);
  if (n < 0) return usage("N: a whole number > 0");
  if (split < 0) return usage("same or split");
  return pingpong(n, split);
}

static int run(int argc, char** argv) {
  const char* what = argc > 1 ? argv[1] : "";
  int split = placement_arg(argv[argc - 1]);
  if (strcmp(what, "throughput") == 0 && argc == 6) return run_throughput(argv, split);
  if (strcmp(what, "pingpong") == 0 && argc == 4) return run_pingpong(argv, split);
  return usage("throughput or pingpong, and its arguments");
}

int main(int argc, char** argv) {
  /* A reader gone early is a failed write (EPIPE), not a silent death. */
  signal(SIGPIPE, SIG_IGN);
  bench_line_init("bench_pipe");
  int rc = run(argc, argv);
  return rc == SKIPPED ? 0 : rc;
}
