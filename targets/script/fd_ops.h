/* Ops on a stream's file descriptor rather than its buffer (docs/script.md):
 * what sits under stdio, the kernel's open file description and its page
 * cache. Shared by stdio_script and iostream_script; plain C. */
#ifndef FLUSHCHECK_FD_OPS_H
#define FLUSHCHECK_FD_OPS_H

#include "script.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The fd behind OP's stream: 1 for out, 2 for err. */
int fc_fd_of(const struct fc_op* op);

/* reopen plain|append|direct: a new open file description of the stream's
 * file (open of /proc/self/fd/N, O_WRONLY, plus O_APPEND or O_DIRECT), put
 * on the stream's fd with dup2. Its offset starts at 0, as for a second
 * program opening the file. Nothing is flushed. */
void fc_reopen(int index, const struct fc_op* op);

/* syswrite N [OFFSET]: one write(2) of N payload bytes from a buffer that
 * starts OFFSET bytes past a page boundary (what O_DIRECT asks of memory). */
void fc_syswrite(int index, const struct fc_op* op);

/* fadvise ADVICE: posix_fadvise(fd, 0, 0, ADVICE) on the stream's file. */
void fc_fadvise(int index, const struct fc_op* op);

/* resident: mincore(2) of the stream's file, said on fd 2 with write(2):
 * "<prog>: op 4 'resident': 16 of 16 pages resident". Maps the file
 * (read-only, through a new open of it) and touches nothing. */
void fc_resident(int index, const struct fc_op* op);

#ifdef __cplusplus
}
#endif

#endif
