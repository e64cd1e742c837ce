/* Ops on a stream's file descriptor rather than its buffer (docs/script.md):
 * what sits under stdio, the kernel's open file description and its page
 * cache. Shared by stdio_script and iostream_script; plain C. */
#ifndef FLUSHCHECK_FD_OPS_H
#define FLUSHCHECK_FD_OPS_H

#include "script.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Runs op INDEX if it is an op on the fd (fc_is_fd_op); 1 if it ran, 0 if
 * OP is another kind. Failures are reported (fc_report):
 *   fsync       fsync(2) of the stream's fd; nothing is flushed.
 *   reopen MODE a new open file description of the stream's file (open of
 *               /proc/self/fd/N, O_WRONLY plus O_APPEND or O_DIRECT), put on
 *               the fd with dup2. Its offset starts at 0, as for a second
 *               program opening the file. Nothing is flushed.
 *   syswrite N [OFFSET]  one write(2) of N payload bytes from a buffer that
 *               starts OFFSET bytes past a page boundary (O_DIRECT's concern);
 *               a short write is reported too.
 *   fadvise ADVICE  posix_fadvise(fd, 0, 0, ADVICE).
 *   resident    mincore(2) of the file, said on fd 2 with write(2):
 *               "<prog>: op 4 'resident': 16 of 16 pages resident". Maps
 *               the file read-only through a new open of it; touches nothing. */
int fc_run_fd_op(int index, const struct fc_op* op);

#ifdef __cplusplus
}
#endif

#endif
