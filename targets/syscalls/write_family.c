/* Writes "hello\n" to stdout with one call of the write family, or moves
 * fds with close_range(2), so that the tracer's (and the eBPF backend's)
 * tests can check that each is counted, cut at and decoded:
 *   write_family write|writev|pwrite64|pwritev|pwritev2 (pwrite*: a file)
 *   write_family sendto|sendmsg   (the line through a socket pair, then
 *                                  written to stdout with write(2))
 *   write_family sendfile|splice|tee|vmsplice|copy_file_range
 *   write_family close_range PATH_A PATH_B   (writes 1 line to A, 3 to B,
 *                                             both through the same fd number)
 *   write_family reused_inode PATH_A PATH_B  (1 line to A, unlinked, then 3
 *     to B once B has the inode A had; "tries N" on stdout, exit 3 if no B
 *     got it in 64 tries)
 *   write_family clone_untraced|clone3_untraced  (a child made with
 *     CLONE_UNTRACED writes "child", then the parent "parent")
 * Exit 0, or 1 with the failed call named on stderr. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/sched.h> /* struct clone_args */
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

static const char k_line[] = "hello\n";
#define LINE_LEN ((sizeof k_line) - 1)

static int fail(const char* what) {
  perror(what);
  return 1;
}

/* A regular file in $TMPDIR holding the line, at offset 0, already unlinked. */
static int line_file(void) {
  const char* dir = getenv("TMPDIR");
  char path[4096];
  snprintf(path, sizeof path, "%s/write_family.XXXXXX", dir && *dir ? dir : "/tmp");
  int fd = mkstemp(path);
  if (fd < 0) return -1;
  unlink(path);
  if (write(fd, k_line, LINE_LEN) != (ssize_t)LINE_LEN) return -1;
  return lseek(fd, 0, SEEK_SET) == 0 ? fd : -1;
}

/* A pipe holding the line; its read end. */
static int line_pipe(void) {
  int p[2];
  if (pipe(p) != 0 || write(p[1], k_line, LINE_LEN) != (ssize_t)LINE_LEN) return -1;
  close(p[1]);
  return p[0];
}

static int by_write(void) {
  return write(1, k_line, LINE_LEN) == (ssize_t)LINE_LEN ? 0 : fail("write");
}

/* "hello\n" in two pieces, as writev and pwritev* take it. */
static struct iovec k_pieces[2] = {{(void*)k_line, 3}, {(void*)(k_line + 3), LINE_LEN - 3}};

static int by_writev(void) {
  return writev(1, k_pieces, 2) == (ssize_t)LINE_LEN ? 0 : fail("writev");
}

static int by_pwrite64(void) {
  return pwrite(1, k_line, LINE_LEN, 0) == (ssize_t)LINE_LEN ? 0 : fail("pwrite64");
}

static int by_pwritev(void) {
  return pwritev(1, k_pieces, 2, 0) == (ssize_t)LINE_LEN ? 0 : fail("pwritev");
}

static int by_pwritev2(void) {
  return pwritev2(1, k_pieces, 2, 0, 0) == (ssize_t)LINE_LEN ? 0 : fail("pwritev2");
}

/* The line sent into one end of a socket pair (sendto or sendmsg), read
 * from the other, then written to stdout. */
static int by_socket(int with_sendmsg) {
  int sv[2];
  char buf[sizeof k_line];
  if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0) return fail("socketpair");
  struct msghdr m;
  memset(&m, 0, sizeof m);
  m.msg_iov = k_pieces;
  m.msg_iovlen = 2;
  ssize_t sent = with_sendmsg ? sendmsg(sv[0], &m, 0) : sendto(sv[0], k_line, LINE_LEN, 0, NULL, 0);
  if (sent != (ssize_t)LINE_LEN) return fail(with_sendmsg ? "sendmsg" : "sendto");
  if (read(sv[1], buf, LINE_LEN) != (ssize_t)LINE_LEN) return fail("read");
  return write(1, buf, LINE_LEN) == (ssize_t)LINE_LEN ? 0 : fail("write");
}

static int by_sendfile(void) {
  int in = line_file();
  if (in < 0) return fail("line_file");
  return sendfile(1, in, NULL, LINE_LEN) == (ssize_t)LINE_LEN ? 0 : fail("sendfile");
}

static int by_splice(void) {
  int in = line_pipe();
  if (in < 0) return fail("line_pipe");
  return splice(in, NULL, 1, NULL, LINE_LEN, 0) == (ssize_t)LINE_LEN ? 0 : fail("splice");
}

static int by_tee(void) { /* stdout must be a pipe */
  int in = line_pipe();
  if (in < 0) return fail("line_pipe");
  return tee(in, 1, LINE_LEN, 0) == (ssize_t)LINE_LEN ? 0 : fail("tee");
}

static int by_vmsplice(void) { /* stdout must be a pipe */
  struct iovec iov = {(void*)k_line, LINE_LEN};
  return vmsplice(1, &iov, 1, 0) == (ssize_t)LINE_LEN ? 0 : fail("vmsplice");
}

static int by_copy_file_range(void) { /* stdout must be a regular file */
  int in = line_file();
  if (in < 0) return fail("line_file");
  /* an upper bound far past the data, as coreutils' cat asks for */
  ssize_t n = copy_file_range(in, NULL, 1, NULL, (size_t)1 << 30, 0);
  return n == (ssize_t)LINE_LEN ? 0 : fail("copy_file_range");
}

static int by_close_range(const char* a, const char* b) {
  int fd = open(a, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (fd < 0 || write(fd, "a\n", 2) != 2) return fail(a);
  if (syscall(SYS_close_range, fd, fd, 0) != 0) return fail("close_range");
  int again = open(b, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (again != fd) return fail("open did not reuse the fd number");
  for (int i = 0; i < 3; ++i)
    if (write(again, "b\n", 2) != 2) return fail(b);
  return 0;
}

/* A, written once, closed and unlinked, then B, until B is given A's inode
 * (ext4 hands a freed inode out again at once; tmpfs never does): B then
 * gets three lines. A tracer that knows a file by device and inode alone
 * counts B's writes as A's. */
static int by_reused_inode(const char* a, const char* b) {
  for (int tries = 1; tries <= 64; ++tries) {
    struct stat sa, sb;
    int fa = open(a, O_WRONLY | O_CREAT | O_EXCL, 0600);
    if (fa < 0 || write(fa, "a\n", 2) != 2 || fstat(fa, &sa) != 0) return fail(a);
    if (close(fa) != 0 || unlink(a) != 0) return fail(a);
    int fb = open(b, O_WRONLY | O_CREAT | O_EXCL, 0600);
    if (fb < 0 || fstat(fb, &sb) != 0) return fail(b);
    if (sb.st_dev == sa.st_dev && sb.st_ino == sa.st_ino) {
      for (int i = 0; i < 3; ++i)
        if (write(fb, "b\n", 2) != 2) return fail(b);
      if (close(fb) != 0) return fail(b);
      return printf("tries %d\n", tries) > 0 && fflush(stdout) == 0 ? 0 : fail("stdout");
    }
    if (close(fb) != 0 || unlink(b) != 0) return fail(b);
  }
  return 3;
}

/* The child writes "child\n" and exits 0 if its write worked; the parent
 * then writes "parent\n" and exits with the child's status. */
static int child_writes(void) { return write(1, "child\n", 6) == 6 ? 0 : 1; }

static int parent_waits(pid_t pid) {
  int status = 0;
  if (pid < 0) return fail("clone");
  if (waitpid(pid, &status, __WALL) != pid) return fail("waitpid");
  if (write(1, "parent\n", 7) != 7) return 1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static int child_main(void* arg) {
  (void)arg;
  return child_writes();
}

static int by_clone_untraced(void) {
  static char stack[64 * 1024];
  return parent_waits(clone(child_main, stack + sizeof stack, CLONE_UNTRACED | SIGCHLD, NULL));
}

static int by_clone3_untraced(void) {
  struct clone_args args;
  memset(&args, 0, sizeof args);
  args.flags = CLONE_UNTRACED;
  args.exit_signal = SIGCHLD;
  long pid = syscall(SYS_clone3, &args, sizeof args);
  if (pid == 0) _exit(child_writes());
  return parent_waits((pid_t)pid);
}

/* HOW done by a call of the write family proper (write, writev, pwrite*):
 * the exit status, or -1 when HOW is none of them. */
static int by_write_call(const char* how) {
  if (strcmp(how, "write") == 0) return by_write();
  if (strcmp(how, "writev") == 0) return by_writev();
  if (strcmp(how, "pwrite64") == 0) return by_pwrite64();
  if (strcmp(how, "pwritev") == 0) return by_pwritev();
  if (strcmp(how, "pwritev2") == 0) return by_pwritev2();
  return -1;
}

/* HOW done by a call that moves the line from a socket, file or pipe
 * (send*, sendfile, splice, tee, vmsplice, copy_file_range): the exit
 * status, or -1 when HOW is none of them. */
static int by_transfer(const char* how) {
  if (strcmp(how, "sendto") == 0) return by_socket(0);
  if (strcmp(how, "sendmsg") == 0) return by_socket(1);
  if (strcmp(how, "sendfile") == 0) return by_sendfile();
  if (strcmp(how, "splice") == 0) return by_splice();
  if (strcmp(how, "tee") == 0) return by_tee();
  if (strcmp(how, "vmsplice") == 0) return by_vmsplice();
  if (strcmp(how, "copy_file_range") == 0) return by_copy_file_range();
  return -1;
}

/* HOW done by moving an fd (close_range, with ARGV's two paths), by giving a
 * new file an unlinked one's inode (reused_inode, the same two) or by a
 * child made with CLONE_UNTRACED: the exit status, or -1 when HOW is none of
 * them (or lacks its two paths). */
static int by_fd_or_clone(const char* how, int argc, char** argv) {
  if (strcmp(how, "close_range") == 0 && argc == 4) return by_close_range(argv[2], argv[3]);
  if (strcmp(how, "reused_inode") == 0 && argc == 4) return by_reused_inode(argv[2], argv[3]);
  if (strcmp(how, "clone_untraced") == 0) return by_clone_untraced();
  if (strcmp(how, "clone3_untraced") == 0) return by_clone3_untraced();
  return -1;
}

static int usage(void) {
  fprintf(stderr,
          "usage: write_family write|writev|pwrite64|pwritev|pwritev2|sendto|sendmsg\n"
          "       write_family sendfile|splice|tee|vmsplice|copy_file_range\n"
          "       write_family close_range|reused_inode PATH_A PATH_B\n"
          "       write_family clone_untraced|clone3_untraced\n");
  return 2;
}

/* HOW (ARGV[1]) by the group that has it, each -1 for a HOW not its own:
 * no by_* function returns a negative status, so -1 only ever means that. */
int main(int argc, char** argv) {
  const char* how = argc > 1 ? argv[1] : "";
  int rc = by_write_call(how);
  if (rc < 0) rc = by_transfer(how);
  if (rc < 0) rc = by_fd_or_clone(how, argc, argv);
  return rc >= 0 ? rc : usage();
}
