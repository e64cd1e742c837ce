/* bench_pagecache: times reading or writing the harness's file sink through
 * the page cache or around it (O_DIRECT). Fd 1 must be a regular file; the
 * program opens it again by /proc/self/fd/1 and leaves SIZE bytes in it.
 *   bench_pagecache read warm|cold|direct SIZE BLOCK
 *     fills the file with SIZE bytes and fsyncs it (untimed); warm: reads it
 *     once (untimed); cold and direct: drop its pages (POSIX_FADV_DONTNEED),
 *     so that what a read brings into the page cache shows. Measured:
 *     open (O_DIRECT for direct), read(2) of BLOCK bytes until SIZE, close.
 *     "bench ns=T bytes=SIZE pages=P resident_before=A resident_after=B"
 *   bench_pagecache write buffered|direct SIZE BLOCK
 *     empties the file and fsyncs it (untimed). Measured: open O_WRONLY
 *     (O_DIRECT for direct), write(2) of BLOCK bytes until SIZE, close; then,
 *     untimed, the resident pages and, timed alone, an fsync of fd 1.
 *     "bench ns=T bytes=SIZE pages=P resident_after=A fsync_ns=F"
 * SIZE: a multiple of BLOCK and of 4096; BLOCK a multiple of 4096 for direct.
 * Resident pages are counted with mincore(2) on a read-only shared mapping of
 * the whole file, no page touched. The line goes to fd 2 with one write(2).
 * Exit 0 ("bench skip: ..." when the file system refuses O_DIRECT); 1 with the
 * failed call on fd 2; 64 for bad arguments. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench_line.h"

#define SINK "/proc/self/fd/1"
#define ALIGN 4096
#define FILL_CHUNK (1 << 20) /* the setup's pwrite size */
#define SKIPPED (-1)         /* a status: the skip line is written, exit 0 */
#define ENDED_EARLY (-1)     /* move's value when read(2) found the end of the file */

enum { WARM, COLD, DIRECT, BUFFERED }; /* how: read warm|cold|direct, write buffered|direct */

struct args {
  int writing, how;
  long long size, block;
};

/* The measured part's outcome. */
struct io {
  int64_t ns;
  const char* what; /* the call that failed */
  int at_start;     /* it was the open or the first read or write */
  long long done;   /* bytes moved */
};

static int usage(const char* why) {
  return bench_usage(
      "bench_pagecache read warm|cold|direct SIZE BLOCK | "
      "bench_pagecache write buffered|direct SIZE BLOCK",
      why);
}

/* SIZE and BLOCK (ARGV[3], ARGV[4]) into A, whose HOW is parsed; 0, or 64 (usage). */
static int parse_sizes(char** argv, struct args* a) {
  a->size = bench_count(argv[3], 1, SSIZE_MAX);
  a->block = bench_count(argv[4], 1, SSIZE_MAX);
  if (a->size < 0 || a->block < 0) return usage("SIZE and BLOCK: whole numbers > 0");
  if (a->size % a->block != 0 || a->size % ALIGN != 0)
    return usage("SIZE must be a multiple of BLOCK and of 4096");
  if (a->how == DIRECT && a->block % ALIGN != 0)
    return usage("direct needs BLOCK a multiple of 4096");
  return 0;
}

static int parse_args(int argc, char** argv, struct args* a) {
  static const char* const hows[] = {"warm", "cold", "direct", "buffered"};
  if (argc != 5) return usage("4 arguments");
  a->writing = strcmp(argv[1], "write") == 0;
  if (!a->writing && strcmp(argv[1], "read") != 0) return usage("read or write");
  a->how = -1;
  for (int i = 0; i < 4; ++i)
    if (strcmp(argv[2], hows[i]) == 0) a->how = i;
  if (a->how < 0 || (a->writing && (a->how == WARM || a->how == COLD)) ||
      (!a->writing && a->how == BUFFERED))
    return usage("read takes warm|cold|direct, write buffered|direct");
  return parse_sizes(argv, a);
}

static int check_sink(void) {
  struct stat st;
  if (fstat(1, &st) != 0) return bench_fail("fstat of fd 1", errno);
  if (S_ISREG(st.st_mode)) return 0;
  return bench_error("fd 1 is not a regular file (it needs the file sink)\n");
}

/* A BLOCK-byte buffer aligned for O_DIRECT, filled with a pattern, or NULL. */
static char* pattern_buffer(long long block) {
  void* buf = NULL;
  int err = posix_memalign(&buf, ALIGN, (size_t)block);
  if (err != 0) {
    bench_fail("posix_memalign", err);
    return NULL;
  }
  for (long long i = 0; i < block; ++i) ((char*)buf)[i] = (char)('a' + i % 26);
  return buf;
}

/* The file holds SIZE bytes of the pattern, synced. */
static int fill(long long size) {
  char* chunk = pattern_buffer(FILL_CHUNK);
  if (chunk == NULL) return 1;
  if (ftruncate(1, 0) != 0) return bench_fail("ftruncate of fd 1", errno);
  for (long long off = 0; off < size;) {
    size_t want = size - off < FILL_CHUNK ? (size_t)(size - off) : FILL_CHUNK;
    ssize_t n = pwrite(1, chunk, want, off);
    if (n < 0 && errno != EINTR) return bench_fail("pwrite to fd 1", errno);
    if (n == 0) return bench_fail("pwrite to fd 1 wrote nothing", EIO);
    if (n > 0) off += n;
  }
  free(chunk);
  return fsync(1) != 0 ? bench_fail("fsync of fd 1", errno) : 0;
}

/* The pages of SIZE bytes. */
static long long pages_of(long long size) {
  long page = sysconf(_SC_PAGESIZE);
  return (size + page - 1) / page;
}

/* The pages in the page cache of the SIZE bytes (PAGES pages) mapped at
 * MAP, into *COUNT; 0, or 1 (reported). */
static int count_mapped(void* map, long long size, size_t pages, long long* count) {
  unsigned char* vec = malloc(pages);
  if (vec == NULL) return bench_fail("malloc", errno);
  if (mincore(map, (size_t)size, vec) != 0) return bench_fail("mincore", errno);
  *count = 0;
  for (size_t i = 0; i < pages; ++i) *count += vec[i] & 1;
  free(vec);
  return 0;
}

/* The pages of the file's first SIZE bytes in the page cache, into *COUNT. */
static int resident(long long size, long long* count) {
  size_t pages = (size_t)pages_of(size);
  int fd = open(SINK, O_RDONLY); /* fd 1 may be write-only: no mapping of it */
  if (fd < 0) return bench_fail("open " SINK " (for mincore)", errno);
  void* map = mmap(NULL, (size_t)size, PROT_READ, MAP_SHARED, fd, 0);
  close(fd);
  if (map == MAP_FAILED) return bench_fail("mmap of the file", errno);
  int rc = count_mapped(map, size, pages, count);
  if (rc != 0) return rc;
  munmap(map, (size_t)size);
  return 0;
}

/* move's loop: SIZE bytes on FD in BLOCK-byte read(2)s or write(2)s from or
 * into BUF, counted in IO; 0, or as move returns. */
static int move_blocks(int fd, int writing, char* buf, long long size, long long block,
                       struct io* io) {
  while (io->done < size) {
    size_t want = (size_t)(size - io->done < block ? size - io->done : block);
    ssize_t n = writing ? write(fd, buf, want) : read(fd, buf, want);
    if (n < 0 && errno == EINTR) continue;
    io->what = writing ? "write" : "read";
    if (n <= 0) return n == 0 ? ENDED_EARLY : errno; /* the fd is left to exit */
    io->done += n;
    io->at_start = 0;
  }
  return 0;
}

/* Opens the sink with FLAGS, moves SIZE bytes in BLOCK-byte read(2)s or
 * write(2)s from or into BUF, closes it. 0, the errno of the failed call
 * (named in IO), or ENDED_EARLY. */
static int move(int flags, int writing, char* buf, long long size, long long block, struct io* io) {
  int fd = open(SINK, flags);
  io->what = "open " SINK;
  io->at_start = 1;
  io->done = 0;
  if (fd < 0) return errno;
  int err = move_blocks(fd, writing, buf, size, block, io);
  if (err != 0) return err;
  io->what = "close";
  return close(fd) != 0 ? errno : 0;
}

/* Reports move's failure ERR; 1. */
static int move_failed(const struct io* io, int err, long long size) {
  if (err != ENDED_EARLY) return bench_fail(io->what, err);
  return bench_error("the file ended after %lld of %lld bytes\n", io->done, size);
}

/* The measured part, timed into IO->ns; 0, SKIPPED or 1 (reported). */
static int timed_move(const struct args* a, char* buf, struct io* io) {
  int flags = (a->writing ? O_WRONLY : O_RDONLY) | (a->how == DIRECT ? O_DIRECT : 0);
  int64_t start = bench_now_ns();
  int err = move(flags, a->writing, buf, a->size, a->block, io);
  io->ns = bench_now_ns() - start;
  if (err == 0) return 0;
  if (err != EINVAL || a->how != DIRECT || !io->at_start) return move_failed(io, err, a->size);
  bench_line("bench skip: O_DIRECT refused here: %s\n", strerror(err));
  return SKIPPED;
}

/* Warm: the file read once (untimed); cold and direct: its pages dropped.
 * 0, or 1 (reported). */
static int warm_or_drop(const struct args* a, char* buf) {
  struct io io;
  int rc = 0;
  if (a->how == WARM && (rc = move(O_RDONLY, 0, buf, a->size, a->block, &io)) != 0)
    return move_failed(&io, rc, a->size);
  if (a->how != WARM && (rc = posix_fadvise(1, 0, 0, POSIX_FADV_DONTNEED)) != 0)
    return bench_fail("posix_fadvise DONTNEED of fd 1", rc);
  return 0;
}

/* Read: fill, warm or drop, count, time, count. */
static int bench_read(const struct args* a, char* buf) {
  struct io io;
  long long before = 0, after = 0;
  int rc = fill(a->size);
  if (rc != 0) return rc;
  if ((rc = warm_or_drop(a, buf)) != 0) return rc;
  if ((rc = resident(a->size, &before)) != 0 || (rc = timed_move(a, buf, &io)) != 0 ||
      (rc = resident(a->size, &after)) != 0)
    return rc;
  bench_line("bench ns=%lld bytes=%lld pages=%lld resident_before=%lld resident_after=%lld\n",
             (long long)io.ns, a->size, pages_of(a->size), before, after);
  return 0;
}

/* Write: empty, time, count, time the fsync. */
static int bench_write(const struct args* a, char* buf) {
  struct io io;
  long long after = 0;
  int rc;
  if (ftruncate(1, 0) != 0) return bench_fail("ftruncate of fd 1", errno);
  if (fsync(1) != 0) return bench_fail("fsync of fd 1", errno);
  if ((rc = timed_move(a, buf, &io)) != 0 || (rc = resident(a->size, &after)) != 0) return rc;
  int64_t start = bench_now_ns();
  if (fsync(1) != 0) return bench_fail("fsync of fd 1", errno);
  int64_t fsync_ns = bench_now_ns() - start;
  bench_line("bench ns=%lld bytes=%lld pages=%lld resident_after=%lld fsync_ns=%lld\n",
             (long long)io.ns, a->size, pages_of(a->size), after, (long long)fsync_ns);
  return 0;
}

int main(int argc, char** argv) {
  struct args a = {0};
  bench_line_init("bench_pagecache");
  int rc = parse_args(argc, argv, &a);
  if (rc != 0 || (rc = check_sink()) != 0) return rc;
  char* buf = pattern_buffer(a.block);
  if (buf == NULL) return 1;
  rc = a.writing ? bench_write(&a, buf) : bench_read(&a, buf);
  return rc == SKIPPED ? 0 : rc;
}
