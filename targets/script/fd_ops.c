#define _GNU_SOURCE /* O_DIRECT */
#include "fd_ops.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static int fd_of(const struct fc_op* op) { return op->stream == FC_ERR ? 2 : 1; }

/* A new open of FD's file (its /proc/self/fd link) with FLAGS; -1 on error.
 * Non-blocking while it opens: a FIFO whose reader is gone fails (ENXIO)
 * rather than wait for one; a tty does not become the controlling one. */
static int open_again(int fd, int flags) {
  char path[64];
  snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
  const int fresh = open(path, flags | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  if (fresh >= 0) fcntl(fresh, F_SETFL, fcntl(fresh, F_GETFL) & ~O_NONBLOCK);
  return fresh;
}

static void do_reopen(int index, const struct fc_op* op) {
  static const int extra[] = {0, O_APPEND, O_DIRECT}; /* enum fc_open_mode */
  const int fd = fd_of(op);
  const int mode = op->mode >= 0 && op->mode <= FC_OPEN_DIRECT ? op->mode : FC_OPEN_PLAIN;
  const int fresh = open_again(fd, O_WRONLY | extra[mode]);
  if (fresh < 0) {
    fc_report(index, op, "open", errno);
    return;
  }
  if (dup2(fresh, fd) < 0) fc_report(index, op, "dup2", errno);
  close(fresh);
}

/* One write(2) of the op's N bytes at BUF; a failed or short one is reported. */
static void write_once(int index, const struct fc_op* op, const char* buf) {
  ssize_t put = write(fd_of(op), buf, (size_t)op->n);
  if (put < 0) {
    fc_report(index, op, "write", errno);
  } else if (put != op->n) {
    char what[100];
    snprintf(what, sizeof what, "write: short, %ld of %ld bytes", (long)put, op->n);
    fc_say(index, op, what);
    fc_io_error = 1;
  }
}

static void do_syswrite(int index, const struct fc_op* op) {
  const long page = sysconf(_SC_PAGESIZE);
  void* block = NULL;
  int err = posix_memalign(&block, (size_t)page, (size_t)(op->n + op->offset) + 1);
  if (err != 0) {
    fc_report(index, op, "posix_memalign", err);
    return;
  }
  memset((char*)block + op->offset, fc_payload_char(index), (size_t)op->n);
  write_once(index, op, (char*)block + op->offset);
  free(block);
}

static void do_fadvise(int index, const struct fc_op* op) {
  static const int advice[] = {POSIX_FADV_NORMAL,   POSIX_FADV_SEQUENTIAL, POSIX_FADV_RANDOM,
                               POSIX_FADV_WILLNEED, POSIX_FADV_DONTNEED,   POSIX_FADV_NOREUSE};
  const int mode = op->mode >= 0 && op->mode <= FC_ADV_NOREUSE ? op->mode : FC_ADV_NORMAL;
  const int err = posix_fadvise(fd_of(op), 0, 0, advice[mode]);
  if (err != 0) fc_report(index, op, "posix_fadvise", err);
}

/* Maps the LEN bytes (PAGES pages) of the file behind FD and adds those of
 * its pages in the page cache to *RESIDENT; NULL, or the call that failed
 * (errno set). */
static const char* count_mapped(int fd, size_t len, long pages, long* resident) {
  void* map = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
  if (map == MAP_FAILED) return "mmap";
  unsigned char* vec = malloc((size_t)pages);
  const char* failed = vec == NULL ? "malloc" : mincore(map, len, vec) != 0 ? "mincore" : NULL;
  const int err = errno;
  for (long i = 0; failed == NULL && i < pages; ++i) *resident += vec[i] & 1;
  free(vec);
  munmap(map, len);
  errno = err;
  return failed;
}

/* Pages of the LEN-byte file behind FD in the page cache, into *RESIDENT
 * and *PAGES; on failure the call that failed, errno set; else NULL. */
static const char* count_resident(int fd, size_t len, long* resident, long* pages) {
  const size_t page = (size_t)sysconf(_SC_PAGESIZE);
  *pages = (long)((len + page - 1) / page);
  *resident = 0;
  if (len == 0) return NULL;
  return count_mapped(fd, len, *pages, resident);
}

/* "R of P pages resident", said on fd 2. */
static void say_resident(int index, const struct fc_op* op, long resident, long pages) {
  char what[100];
  snprintf(what, sizeof what, "%ld of %ld pages resident", resident, pages);
  fc_say(index, op, what);
}

static void do_resident(int index, const struct fc_op* op) {
  struct stat st;
  long resident = 0, pages = 0;
  const int fd = open_again(fd_of(op), O_RDONLY);
  const char* failed = fd < 0 ? "open" : fstat(fd, &st) != 0 ? "fstat" : NULL;
  if (failed == NULL) failed = count_resident(fd, (size_t)st.st_size, &resident, &pages);
  const int err = errno;
  if (fd >= 0) close(fd);
  if (failed != NULL) {
    fc_report(index, op, failed, err);
    return;
  }
  say_resident(index, op, resident, pages);
}

int fc_run_fd_op(int index, const struct fc_op* op) {
  switch (op->kind) {
    case FC_FSYNC:
      if (fsync(fd_of(op)) != 0) fc_report(index, op, "fsync", errno);
      return 1;
    case FC_REOPEN: do_reopen(index, op); return 1;
    case FC_SYSWRITE: do_syswrite(index, op); return 1;
    case FC_FADVISE: do_fadvise(index, op); return 1;
    case FC_RESIDENT: do_resident(index, op); return 1;
    default: return 0;
  }
}
