/* What the eBPF counting backend's kernel half (write_counter.bpf.c) and its
 * user half (bpf_counter.cpp) share: the maps' keys and values, and how a
 * call is read. Plain C: the BPF compiler and the C++ compiler both read it. */
#ifndef FLUSHCHECK_WRITE_COUNTER_H
#define FLUSHCHECK_WRITE_COUNTER_H

#include <linux/types.h>

/* How a counted call is read at sys_enter, one entry per syscall number,
 * filled by user space from the one table of traced calls (traced_calls.hpp). */
enum fc_bytes { FC_BYTES_NONE, FC_BYTES_ARG, FC_BYTES_IOVEC, FC_BYTES_MSGHDR, FC_BYTES_RESULT };

struct fc_call {
  __u8 counted;    /* 1: a traced call */
  __s8 fd_arg;     /* the argument holding the destination fd, -1 for none */
  __u8 bytes;      /* enum fc_bytes */
  __u8 bytes_arg;  /* the argument of the count, iovec or msghdr */
  __u8 dupfd_only; /* fcntl: only F_DUPFD and F_DUPFD_CLOEXEC are traced calls */
};

/* One destination (a file, by the kernel's device, inode and the inode's
 * generation) and one syscall number, in one run. dev, ino and gen are 0 for
 * a call with no open destination (a bad fd, or no fd: clone). */
struct fc_key {
  __u32 run;
  __u32 nr;
  __u64 dev; /* the kernel's dev_t: major << 20 | minor */
  __u64 ino;
  __u64 gen; /* i_generation: a file given an unlinked file's inode has another */
};

struct fc_counts {
  __u64 calls;
  __u64 bytes;
  __u64 sizes[32]; /* bucket k: sizes in [2^k, 2^(k+1)), bucket 0: 0 and 1 */
  __u64 fd_mask;   /* fd numbers below 64 the calls came through */
  __u64 magic;     /* the file system's magic (pipefs, sockfs, ...) */
  char name[32];   /* the file's last path component, as first seen */
};

/* A byte_count::result call in progress on a thread: counted at its exit. */
struct fc_pending {
  struct fc_key key;
};

#define FC_MAX_CALLS 512 /* syscall numbers */
#define FC_MAX_IOV 1024  /* UIO_MAXIOV */
#define FC_MAX_TRACKED 16384
#define FC_MAX_KEYS 65536

#endif
