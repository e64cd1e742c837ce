/* The eBPF counting backend, its kernel half (docs/tracing.md): the traced
 * calls of a program and of every process it makes, counted per destination
 * (the file an fd names, by device, inode and generation) and per syscall number, in
 * the kernel, with no stop. One object serves every run of a flushcheck
 * process: a run is a number, tracked[tgid] says whose run a process is in.
 *
 * Attached to the raw tracepoints sys_enter and sys_exit (and
 * sched_process_fork/exit to follow processes). The calls whose bytes are
 * their result (sendfile, splice, tee, vmsplice, copy_file_range) finish at
 * sys_exit, which checks the call before anything else: the syscalls'
 * own exit tracepoints would skip the program for other calls, but they
 * are perf events, whose attach and detach cost about 70 ms each here
 * against a few ms for the raw tracepoints (docs/tracing.md). fentry
 * on the syscalls would be cheaper, but needs BPF_PROG_TYPE_TRACING, which
 * kernels may refuse (this project's CI machines do: EPERM as root), and raw
 * tracepoints load wherever BPF does.
 *
 * Each of sys_enter and sys_exit has two programs, and the user half loads
 * one pair: on kernels with the kfunc bpf_rdonly_cast (6.2 and later),
 * fc_sys_enter and fc_sys_exit read the registers and the file by plain
 * loads; elsewhere the _compat pair reads each field with
 * bpf_probe_read_kernel, a helper call per field, about 1.5 times the cost
 * per write (docs/tracing.md).
 *
 * Kernel types are declared here, only the fields read, and relocated by
 * CO-RE against the running kernel's BTF (preserve_access_index): no
 * vmlinux.h, so the object builds on any machine. */
/* linux/bpf.h first: the libbpf headers use its types. */
#include <linux/bpf.h>

#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>

#include "write_counter.h"

char LICENSE[] SEC("license") = "GPL";

/* A kernel address as a BTF pointer of type BTF_ID, read by plain loads (a
 * fault reads 0): kernel 6.2 and later. Weak: left unresolved elsewhere,
 * where only fc_sys_enter_compat is loaded. */
extern void* bpf_rdonly_cast(const void* obj, __u32 btf_id) __ksym __weak;

struct pt_regs {
  unsigned long r10, r9, r8, dx, si, di, orig_ax;
} __attribute__((preserve_access_index));

struct super_block {
  unsigned int s_dev;
  unsigned long s_magic;
} __attribute__((preserve_access_index));

struct inode {
  unsigned long i_ino;
  __u32 i_generation;
  struct super_block* i_sb;
} __attribute__((preserve_access_index));

struct qstr {
  const unsigned char* name;
} __attribute__((preserve_access_index));

struct dentry {
  struct qstr d_name;
} __attribute__((preserve_access_index));

struct path {
  struct dentry* dentry;
} __attribute__((preserve_access_index));

struct file {
  struct inode* f_inode;
  struct path f_path;
} __attribute__((preserve_access_index));

struct fdtable {
  unsigned int max_fds;
  struct file** fd;
} __attribute__((preserve_access_index));

struct files_struct {
  struct fdtable* fdt;
} __attribute__((preserve_access_index));

struct signal_struct {
  struct {
    int counter;
  } live;
} __attribute__((preserve_access_index));

struct task_struct {
  int pid;
  int tgid;
  struct files_struct* files;
  struct signal_struct* signal;
} __attribute__((preserve_access_index));

struct {
  __uint(type, BPF_MAP_TYPE_ARRAY);
  __uint(max_entries, FC_MAX_CALLS);
  __type(key, __u32);
  __type(value, struct fc_call);
} calls SEC(".maps");

struct {
  __uint(type, BPF_MAP_TYPE_HASH);
  __uint(max_entries, FC_MAX_TRACKED);
  __type(key, __u32);   /* tgid */
  __type(value, __u32); /* run */
} tracked SEC(".maps");

struct {
  __uint(type, BPF_MAP_TYPE_PERCPU_HASH);
  __uint(max_entries, FC_MAX_KEYS);
  __type(key, struct fc_key);
  __type(value, struct fc_counts);
} counts SEC(".maps");

struct {
  __uint(type, BPF_MAP_TYPE_HASH);
  __uint(max_entries, FC_MAX_TRACKED);
  __type(key, __u32); /* tid */
  __type(value, struct fc_pending);
} pending SEC(".maps");

/* Calls that could not be counted because a map was full, all runs together
 * (a run compares it before and after: bpf_counters::read). */
__u64 lost = 0;

/* Register FIELD of REGS: a plain load when FAST (REGS is then a BTF
 * pointer, from bpf_rdonly_cast), else a bpf_probe_read_kernel. */
#define REG(regs, field, fast) ((fast) ? (regs)->field : BPF_CORE_READ(regs, field))

/* The register holding argument I of a syscall. */
static __always_inline unsigned long arg(const struct pt_regs* regs, int i, int fast) {
  switch (i) {
    case 0: return REG(regs, di, fast);
    case 1: return REG(regs, si, fast);
    case 2: return REG(regs, dx, fast);
    case 3: return REG(regs, r10, fast);
    case 4: return REG(regs, r8, fast);
    default: return REG(regs, r9, fast);
  }
}

/* The file fd FD of this process names, or 0 when FD is not open. */
static __always_inline struct file* open_file(int fd) {
  /* A BTF pointer: its fields are read by plain loads, no helper call. */
  struct task_struct* task = (struct task_struct*)bpf_get_current_task_btf();
  struct fdtable* fdt = task->files->fdt;
  if (fd < 0 || fdt == 0 || (unsigned int)fd >= fdt->max_fds) return 0;
  struct file** fds = fdt->fd;
  struct file* f = 0;
  if (bpf_probe_read_kernel(&f, sizeof f, &fds[fd]) != 0) return 0;
  return f;
}

/* F's device, inode and generation into KEY: by plain loads when FAST. */
static __always_inline void identify(struct file* f, struct fc_key* key, int fast) {
  if (fast) {
    struct file* bf = bpf_rdonly_cast(f, bpf_core_type_id_kernel(struct file));
    struct inode* inode = bf->f_inode;
    key->ino = inode->i_ino;
    key->gen = inode->i_generation;
    key->dev = inode->i_sb->s_dev;
  } else {
    struct inode* inode = BPF_CORE_READ(f, f_inode);
    key->ino = BPF_CORE_READ(inode, i_ino);
    key->gen = BPF_CORE_READ(inode, i_generation);
    key->dev = BPF_CORE_READ(inode, i_sb, s_dev);
  }
}

static __always_inline __u64 iovec_bytes(unsigned long vec, unsigned long count) {
  __u64 sum = 0;
  for (int i = 0; i < FC_MAX_IOV; i++) {
    struct {
      __u64 base, len;
    } iov;
    if (i >= count || bpf_probe_read_user(&iov, sizeof iov, (void*)(vec + 16 * i)) != 0) break;
    sum += iov.len;
  }
  return sum;
}

static __always_inline __u64 msghdr_bytes(unsigned long msg) {
  struct {
    __u64 name;
    __u32 namelen, pad;
    __u64 iov, iovlen;
  } m;
  if (bpf_probe_read_user(&m, sizeof m, (void*)msg) != 0) return 0;
  return iovec_bytes(m.iov, m.iovlen);
}

static __always_inline __u64 requested_bytes(const struct fc_call* c, const struct pt_regs* regs,
                                             int fast) {
  unsigned long a = arg(regs, c->bytes_arg, fast);
  switch (c->bytes) {
    case FC_BYTES_ARG: return a;
    case FC_BYTES_IOVEC: return iovec_bytes(a, arg(regs, c->bytes_arg + 1, fast));
    case FC_BYTES_MSGHDR: return msghdr_bytes(a);
    default: return 0;
  }
}

/* The size bucket of N bytes: floor(log2 N), 0 for 0 and 1, at most 31. */
static __always_inline int bucket(__u64 n) {
  int b = 0;
  if (n >> 16) {
    n >>= 16;
    b += 16;
  }
  if (n >> 8) {
    n >>= 8;
    b += 8;
  }
  if (n >> 4) {
    n >>= 4;
    b += 4;
  }
  if (n >> 2) {
    n >>= 2;
    b += 2;
  }
  if (n >> 1) b += 1;
  return b > 31 ? 31 : b;
}

/* FILE's file system magic and last path component into V. */
static __always_inline void describe(struct file* file, struct fc_counts* v) {
  v->magic = BPF_CORE_READ(file, f_inode, i_sb, s_magic);
  bpf_probe_read_kernel_str(v->name, sizeof v->name,
                            BPF_CORE_READ(file, f_path.dentry, d_name.name));
}

/* A new key's counts start at zero, with the file's name and file system
 * read once. */
static __always_inline struct fc_counts* counts_of(const struct fc_key* key, struct file* file) {
  struct fc_counts* v = bpf_map_lookup_elem(&counts, key);
  if (v) return v;
  struct fc_counts zero = {};
  if (file != 0) describe(file, &zero);
  if (bpf_map_update_elem(&counts, key, &zero, BPF_NOEXIST) != 0 &&
      bpf_map_lookup_elem(&counts, key) == 0) {
    __sync_fetch_and_add(&lost, 1);
    return 0;
  }
  return bpf_map_lookup_elem(&counts, key);
}

static __always_inline void add_bytes(struct fc_counts* v, __u64 n) {
  __sync_fetch_and_add(&v->bytes, n);
  int b = bucket(n);
  if (b >= 0 && b < 32) __sync_fetch_and_add(&v->sizes[b], 1);
}

/* The calls table's entry for syscall NR, or 0 past the table. */
static __always_inline struct fc_call* lookup_call(long nr) {
  if (nr < 0 || nr >= FC_MAX_CALLS) return 0;
  __u32 n = (__u32)nr;
  return bpf_map_lookup_elem(&calls, &n);
}

/* The syscall's registers: a BTF pointer, read by plain loads, when FAST. */
static __always_inline const struct pt_regs* regs_of(struct bpf_raw_tracepoint_args* ctx,
                                                     int fast) {
  const struct pt_regs* regs = (const struct pt_regs*)ctx->args[0];
  if (fast) regs = bpf_rdonly_cast(regs, bpf_core_type_id_kernel(struct pt_regs));
  return regs;
}

/* fcntl is counted with F_DUPFD and F_DUPFD_CLOEXEC only. */
static __always_inline int is_dupfd(const struct pt_regs* regs, int fast) {
  unsigned long cmd = arg(regs, 1, fast);
  return cmd == 0 /* F_DUPFD */ || cmd == 1030 /* F_DUPFD_CLOEXEC */;
}

/* A traced call as it enters, for the helpers that count it: C, its entry
 * in the calls table; REGS, the syscall's registers (a BTF pointer when
 * FAST); TID, the calling thread; KEY, what it is counted under. KEY lives
 * apart, on count_if_tracked's stack: its address goes to the map helpers,
 * while the entry, whose address never does, stays in registers, so FAST
 * stays a constant of each program (no plain loads in the _compat pair). */
struct fc_entry {
  const struct fc_call* c;
  const struct pt_regs* regs;
  int fast;
  __u32 tid;
  struct fc_key* key;
};

/* E's bytes into V: at its exit (finish_call) for a result call, which E's
 * key then names; the others' now, from its arguments. */
static __always_inline void count_bytes(const struct fc_entry* e, struct fc_counts* v) {
  if (e->c->bytes == FC_BYTES_RESULT) {
    struct fc_pending p = {.key = *e->key};
    __u32 tid = e->tid; /* a copy: the map helper gets a pointer to it */
    if (bpf_map_update_elem(&pending, &tid, &p, BPF_ANY) != 0) __sync_fetch_and_add(&lost, 1);
  } else if (e->c->bytes != FC_BYTES_NONE) {
    add_bytes(v, requested_bytes(e->c, e->regs, e->fast));
  }
}

/* Call E, counted under its key (its run and number) and the file its fd
 * names. */
static __always_inline void count_for_file(const struct fc_entry* e) {
  const struct fc_call* c = e->c;
  int fd = c->fd_arg >= 0 && c->fd_arg < 6 ? (int)arg(e->regs, c->fd_arg, e->fast) : -1;
  struct file* file = open_file(fd);
  if (file != 0) identify(file, e->key, e->fast);
  struct fc_counts* v = counts_of(e->key, file);
  if (v == 0) return;
  /* Atomic though per CPU: a preemptible kernel (CONFIG_PREEMPT_DYNAMIC, and
   * syscall tracepoints that may fault) can switch tasks inside a program. */
  __sync_fetch_and_add(&v->calls, 1);
  if (file != 0 && fd < 64) __sync_fetch_and_or(&v->fd_mask, 1ULL << fd);
  count_bytes(e, v);
}

/* Traced call C (syscall NR) enters: counted if its process is tracked. */
static __always_inline void count_if_tracked(struct bpf_raw_tracepoint_args* ctx, int fast,
                                             const struct fc_call* c, __u32 nr) {
  __u64 id = bpf_get_current_pid_tgid();
  __u32 tgid = id >> 32, tid = (__u32)id;
  __u32* run = bpf_map_lookup_elem(&tracked, &tgid);
  if (run == 0) return;
  struct fc_entry e = {.c = c, .regs = regs_of(ctx, fast), .fast = fast, .tid = tid};
  if (c->dupfd_only && !is_dupfd(e.regs, fast)) return;
  struct fc_key key = {.run = *run, .nr = nr};
  e.key = &key;
  count_for_file(&e);
}

/* A traced call of a tracked process enters: count it for its destination. */
static __always_inline int count_call(struct bpf_raw_tracepoint_args* ctx, int fast) {
  /* The call first, by an array lookup: most syscalls of the machine stop
   * here, before the hash lookup of the process. */
  long nr = (long)ctx->args[1];
  struct fc_call* c = lookup_call(nr);
  if (c != 0 && c->counted) count_if_tracked(ctx, fast, c, (__u32)nr);
  return 0;
}

SEC("raw_tp/sys_enter")
int fc_sys_enter(struct bpf_raw_tracepoint_args* ctx) { return count_call(ctx, 1); }

SEC("raw_tp/sys_enter")
int fc_sys_enter_compat(struct bpf_raw_tracepoint_args* ctx) { return count_call(ctx, 0); }

/* The result call in progress on this thread, if any, returns: its bytes
 * are what it returned (the tracepoint's second argument). */
static __always_inline void finish_pending(struct bpf_raw_tracepoint_args* ctx) {
  __u32 tid = (__u32)bpf_get_current_pid_tgid();
  struct fc_pending* p = bpf_map_lookup_elem(&pending, &tid);
  if (p == 0) return;
  struct fc_key key = p->key;
  bpf_map_delete_elem(&pending, &tid);
  long ret = (long)ctx->args[1];
  struct fc_counts* v = bpf_map_lookup_elem(&counts, &key);
  if (v) add_bytes(v, ret > 0 ? (__u64)ret : 0);
}

/* A byte_count::result call returns: its bytes are what it returned. Every
 * syscall of the machine ends here, so the call is checked first, by the
 * array lookup, as at sys_enter. */
static __always_inline int finish_call(struct bpf_raw_tracepoint_args* ctx, int fast) {
  const struct pt_regs* regs = regs_of(ctx, fast);
  long nr = (long)REG(regs, orig_ax, fast);
  struct fc_call* c = lookup_call(nr);
  if (c == 0 || c->bytes != FC_BYTES_RESULT) return 0;
  finish_pending(ctx);
  return 0;
}

SEC("raw_tp/sys_exit")
int fc_sys_exit(struct bpf_raw_tracepoint_args* ctx) { return finish_call(ctx, 1); }

SEC("raw_tp/sys_exit")
int fc_sys_exit_compat(struct bpf_raw_tracepoint_args* ctx) { return finish_call(ctx, 0); }

/* A process made by a tracked one is in the same run, from its first
 * instruction: the tracepoint fires before the child can run. */
SEC("raw_tp/sched_process_fork")
int fc_fork(struct bpf_raw_tracepoint_args* ctx) {
  struct task_struct* parent = (struct task_struct*)ctx->args[0];
  struct task_struct* child = (struct task_struct*)ctx->args[1];
  __u32 ptgid = BPF_CORE_READ(parent, tgid), ctgid = BPF_CORE_READ(child, tgid);
  if (ptgid == ctgid) return 0; /* a thread */
  __u32* run = bpf_map_lookup_elem(&tracked, &ptgid);
  if (run == 0) return 0;
  __u32 r = *run;
  if (bpf_map_update_elem(&tracked, &ctgid, &r, BPF_ANY) != 0) __sync_fetch_and_add(&lost, 1);
  return 0;
}

/* The last thread of a tracked process exits: its pid may be reused by a
 * process of somebody else's. */
SEC("raw_tp/sched_process_exit")
int fc_exit(struct bpf_raw_tracepoint_args* ctx) {
  struct task_struct* task = (struct task_struct*)ctx->args[0];
  __u32 tgid = BPF_CORE_READ(task, tgid), tid = BPF_CORE_READ(task, pid);
  bpf_map_delete_elem(&pending, &tid);
  if (BPF_CORE_READ(task, signal, live.counter) == 0) bpf_map_delete_elem(&tracked, &tgid);
  return 0;
}

/* The floor (bench's tracer suite): empty programs on the same four attach
 * points, loaded alone by bpf_floor_attachment, never with the counters:
 * what the attach points cost every syscall of the machine before any
 * program does work, against which the counters' cost is measured. */
SEC("raw_tp/sys_enter")
int fc_floor_sys_enter(struct bpf_raw_tracepoint_args* ctx) { return 0; }

SEC("raw_tp/sys_exit")
int fc_floor_sys_exit(struct bpf_raw_tracepoint_args* ctx) { return 0; }

SEC("raw_tp/sched_process_fork")
int fc_floor_fork(struct bpf_raw_tracepoint_args* ctx) { return 0; }

SEC("raw_tp/sched_process_exit")
int fc_floor_exit(struct bpf_raw_tracepoint_args* ctx) { return 0; }
