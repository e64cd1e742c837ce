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

int fc_fd_of(const struct fc_op* op) { return op->stream == FC_ERR ? 2 : 1; }

/* A new open of FD's file (its /proc/self/fd link) with FLAGS; -1 on error. */
static int open_again(int fd, int flags) {
  char path[64];
  snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
  return open(path, flags | O_CLOEXEC);
}

void fc_reopen(int index, const struct fc_op* op) {
  static const int extra[] = {0, O_APPEND, O_DIRECT}; /* enum fc_open_mode */
  const int fd = fc_fd_of(op);
  const int fresh = open_again(fd, O_WRONLY | extra[op->mode]);
  if (fresh < 0) {
    fc_report(index, op, "open", errno);
    return;
  }
  if (dup2(fresh, fd) < 0) fc_report(index, op, "dup2", errno);
  close(fresh);
}

void fc_syswrite(int index, const struct fc_op* op) {
  const long page = sysconf(_SC_PAGESIZE);
  void* block = NULL;
  int err = posix_memalign(&block, (size_t)page, (size_t)(op->n + op->offset) + 1);
  if (err != 0) {
    fc_report(index, op, "posix_memalign", err);
    return;
  }
  memset((char*)block + op->offset, fc_payload_char(index), (size_t)op->n);
  ssize_t put = write(fc_fd_of(op), (char*)block + op->offset, (size_t)op->n);
  if (put < 0) fc_report(index, op, "write", errno);
  free(block);
}

void fc_fadvise(int index, const struct fc_op* op) {
  static const int advice[] = {POSIX_FADV_NORMAL,   POSIX_FADV_SEQUENTIAL, POSIX_FADV_RANDOM,
                               POSIX_FADV_WILLNEED, POSIX_FADV_DONTNEED,   POSIX_FADV_NOREUSE};
  const int err = posix_fadvise(fc_fd_of(op), 0, 0, advice[op->mode]);
  if (err != 0) fc_report(index, op, "posix_fadvise", err);
}

/* Pages of the LEN-byte file behind FD in the page cache, into *RESIDENT
 * and *PAGES; an errno, or 0. */
static int count_resident(int fd, size_t len, long* resident, long* pages) {
  const size_t page = (size_t)sysconf(_SC_PAGESIZE);
  *pages = (long)((len + page - 1) / page);
  *resident = 0;
  if (len == 0) return 0;
  void* map = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
  unsigned char* vec = malloc((size_t)*pages);
  int err = map == MAP_FAILED ? errno : vec == NULL ? ENOMEM : 0;
  if (err == 0 && mincore(map, len, vec) != 0) err = errno;
  for (long i = 0; err == 0 && i < *pages; ++i) *resident += vec[i] & 1;
  free(vec);
  if (map != MAP_FAILED) munmap(map, len);
  return err;
}

void fc_resident(int index, const struct fc_op* op) {
  struct stat st;
  long resident = 0, pages = 0;
  const int fd = open_again(fc_fd_of(op), O_RDONLY);
  int err = fd < 0 ? errno : fstat(fd, &st) != 0 ? errno : 0;
  if (err == 0) err = count_resident(fd, (size_t)st.st_size, &resident, &pages);
  if (fd >= 0) close(fd);
  if (err != 0) {
    fc_report(index, op, "mincore", err);
    return;
  }
  char line[200];
  int n = snprintf(line, sizeof line, "%s: op %d '%s': %ld of %ld pages resident\n",
                   fc_program_name, index + 1, op->text, resident, pages);
  if (n > 0 && write(2, line, (size_t)n) < 0) fc_io_error = 1;
}
