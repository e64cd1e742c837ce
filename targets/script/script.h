/* The op language shared by stdio_script and iostream_script (docs/script.md).
 * A script is ops separated by ';' or newlines; an op is a name and
 * whitespace-separated arguments. Parsing is plain C so that both targets
 * (and any libc they are built against) share one parser. */
#ifndef FLUSHCHECK_SCRIPT_H
#define FLUSHCHECK_SCRIPT_H

#ifdef __cplusplus
extern "C" {
#endif

enum fc_op_kind {
  FC_WRITE,         /* write N [stream]   N payload bytes in one call           */
  FC_LINE,          /* line N [stream]    N payload bytes and '\n' in one call   */
  FC_PUTC,          /* putc N [stream]    N one-byte calls                       */
  FC_PRINTF,        /* printf N           printf("%s") of N bytes to stdout      */
  FC_FPUTS,         /* fputs N [out|err]  fputs of N bytes                       */
  FC_NEWLINE,       /* newline [stream]   one '\n'                               */
  FC_ENDL,          /* endl [stream]      std::endl (C++)                        */
  FC_FLUSH,         /* flush [stream|all] fflush / ostream::flush               */
  FC_SETVBUF,       /* setvbuf full|line|none [SIZE] [out|err]                   */
  FC_SYNC,          /* sync_with_stdio on|off (C++)                              */
  FC_TIE,           /* tie in|err|log on|off (C++): X.tie(&cout) or nullptr      */
  FC_UNITBUF,       /* unitbuf on|off [stream] (C++)                             */
  FC_READ,          /* read N             N bytes from stdin                     */
  FC_GETLINE,       /* getline            one line from stdin                    */
  FC_MARKER,        /* marker LABEL                                              */
  FC_SLEEP,         /* sleep MS                                                  */
  FC_CLOSE,         /* close out|err      fclose (reports its error)             */
  FC_EXIT,          /* exit N                                                    */
  FC_UEXIT,         /* _exit N                                                   */
  FC_QUICK_EXIT,    /* quick_exit N                                            */
  FC_ABORT,         /* abort                                                     */
  FC_RETURN,        /* return N           return from main                       */
  FC_RAISE,         /* raise SIG          raise(SIG), by name or number          */
  FC_CRASH,         /* crash              a real invalid memory write (SIGSEGV)  */
  FC_THROW,         /* throw              uncaught exception (C++)               */
  FC_IGNORE,        /* ignore SIG         signal(SIG, SIG_IGN)                   */
  FC_CLEAR,         /* clear on|off       C++: clear() a stream that went bad    */
  FC_FORK,          /* fork N             N-1 more processes run the rest        */
  FC_THREADS,       /* threads N          N-1 more threads run the rest          */
  FC_FSYNC,         /* fsync [out|err]    fsync(2) of the stream's fd (no flush)  */
  FC_REOPEN,        /* reopen plain|append|direct [out|err]  a new description    */
  FC_SYSWRITE,      /* syswrite N [OFFSET] [out|err]  one write(2), no stdio      */
  FC_FADVISE,       /* fadvise ADVICE [out|err]  posix_fadvise of the whole file  */
  FC_RESIDENT,      /* resident [out|err]  mincore: its pages in the page cache   */
  FC_LOCK,          /* lock [out|err]     flockfile                              */
  FC_UNLOCK,        /* unlock [out|err]   funlockfile                            */
  FC_PUTC_UNLOCKED, /* putc_unlocked N [out|err]  N calls, no lock taken      */
  FC_BARRIER        /* barrier  the threads of "threads N" wait for each other */
};

enum fc_stream { FC_OUT, FC_ERR, FC_LOG, FC_IN, FC_ALL };

enum fc_bufmode { FC_BUF_FULL, FC_BUF_LINE, FC_BUF_NONE };

enum fc_open_mode { FC_OPEN_PLAIN, FC_OPEN_APPEND, FC_OPEN_DIRECT };

/* In the order of fd_ops.c's table: normal sequential random willneed
 * dontneed noreuse. */
enum fc_advice {
  FC_ADV_NORMAL,
  FC_ADV_SEQUENTIAL,
  FC_ADV_RANDOM,
  FC_ADV_WILLNEED,
  FC_ADV_DONTNEED,
  FC_ADV_NOREUSE
};

struct fc_op {
  enum fc_op_kind kind;
  enum fc_stream stream;
  long n;         /* byte count, size, code, ms, signal number or on(1)/off(0) */
  long offset;    /* syswrite: the buffer's offset past a page boundary */
  int mode;       /* enum fc_bufmode (setvbuf), fc_open_mode, fc_advice */
  char label[64]; /* marker label */
  char text[96];  /* the op as written, for error messages */
};

struct fc_script {
  struct fc_op* ops;
  int count;
};

/* The byte that op INDEX writes: the op's position names every byte it
 * writes, so a reader can attribute each byte it receives. */
char fc_payload_char(int index);

/* Parses SRC. On error returns -1 and writes a one-line reason to ERR. */
int fc_parse(const char* src, struct fc_script* out, char* err, unsigned errlen);

/* 1 for an op on the stream's fd, under stdio (fsync and fd_ops.h's):
 * they take out or err, never log. */
int fc_is_fd_op(enum fc_op_kind kind);

/* Signals are numbered 1 to FC_MAX_SIGNAL (Linux: 64, SIGRTMAX). */
#define FC_MAX_SIGNAL 64

/* Signal number for "KILL", "SIGKILL" or "9"; -1 if unknown. */
int fc_signal_number(const char* name);

/* Exit codes of the script targets. */
enum { FC_EXIT_IO_ERROR = 1, FC_EXIT_USAGE = 64, FC_EXIT_INTERNAL = 70 };

/* Runtime shared by the targets. */
extern const char* fc_program_name;
extern int fc_io_error; /* set by fc_report: the target then exits 1 */

/* Parses argv[1..] (joined with ';') into SCRIPT; on error prints one line
 * to stderr and returns FC_EXIT_USAGE, else 0. */
int fc_load(int argc, char** argv, struct fc_script* script);

/* One line on fd 2, written with write(2) so stdio's buffers stay as they
 * are: "<prog>: op 3 'flush out': fflush: No space left on device (errno 28)"
 * (the number, because the text differs between C libraries). */
void fc_report(int index, const struct fc_op* op, const char* call, int err);

/* One line on fd 2 with write(2), not an error: "<prog>: op 3 'resident': WHAT". */
void fc_say(int index, const struct fc_op* op, const char* what);

/* N payload bytes of op INDEX, plus '\n' if NEWLINE; NUL-terminated. */
char* fc_payload(int index, long n, int newline);

void fc_sleep_ms(long ms);

/* fork N: N-1 children, each (and the parent) running the rest of the
 * script from the next op with a copy of every stdio buffer, unflushed
 * bytes included. Nobody waits: each ends on its own, and the sinks stay
 * open until the last one has. A failed fork is reported (op INDEX). */
void fc_fork(int index, const struct fc_op* op);

/* threads N: N-1 new threads each call REST(INDEX + 1), which runs the rest
 * of the script as the calling thread goes on to do; a thread that reaches
 * "return" ends there. fc_join_threads() waits for all of them (the
 * targets call it before returning from main). A failed start is reported. */
void fc_start_threads(int index, const struct fc_op* op, void (*rest)(int from));
void fc_join_threads(void);

/* barrier: waits until all N threads of the script's one "threads N" (the
 * parser allows no other) have reached it, so that what each did before it
 * comes before what any does after it: an order that no sleep can promise. */
void fc_barrier(void);

/* 1 for an op on C's FILE itself, its lock (lock, unlock, putc_unlocked):
 * they take out or err, never log. */
int fc_is_c_stream_op(enum fc_op_kind kind);

/* Runs op INDEX if it is one of those, on C's stdout or stderr in either
 * target: lock / unlock are flockfile / funlockfile, putc_unlocked N is N
 * putc_unlocked calls of the op's byte (the lock is whatever the thread
 * holds, or none). 1 if it ran, 0 if OP is another kind. */
int fc_run_c_stream_op(int index, const struct fc_op* op);

/* crash: a real invalid memory write (SIGSEGV), in either target. */
void fc_crash(void);

/* "libc=glibc 2.36": FC_LIBC_NAME when the build names it (musl has no
 * macro of its own), else glibc's version, else "unknown". */
void fc_print_libc(void);

#ifdef __cplusplus
}
#endif

#endif
