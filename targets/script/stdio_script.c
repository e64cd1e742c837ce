/* stdio_script: interprets a flushcheck script with C stdio (docs/script.md).
 * Usage: stdio_script SCRIPT...   (several arguments are joined with ';') */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fd_ops.h"
#include "flushcheck/marker.h"
#include "script.h"

#ifdef FC_BUG_SILENT_ERRORS /* injected bug (tests only): failed calls go unreported */
#define fc_report(index, op, call, err) ((void)(index), (void)(op), (void)(err))
#endif

static int g_closed[2] = {0, 0};

static FILE* stream_of(enum fc_stream s) { return s == FC_ERR ? stderr : stdout; }

/* putc: the N bytes of BUF in N calls; the first that fails is reported. */
static void putc_each(int index, const struct fc_op* op, FILE* f, const char* buf, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (putc(buf[i], f) == EOF) {
      fc_report(index, op, "putc", errno);
      return;
    }
}

/* write, line, newline: the WANT bytes of BUF in one fwrite. */
static void fwrite_once(int index, const struct fc_op* op, FILE* f, const char* buf, size_t want) {
  if (want > 0 && fwrite(buf, 1, want, f) != want) fc_report(index, op, "fwrite", errno);
#ifdef FC_BUG_DOUBLE_BYTE /* injected bug (tests only): an fwrite's last byte goes out twice */
  if (want > 0) fwrite(buf + want - 1, 1, 1, f);
#endif
}

/* BUF, its WANT bytes (the payload and any newline; putc has none), on F by
 * the op's own call. */
static void put_payload(int index, const struct fc_op* op, FILE* f, const char* buf, size_t want) {
  switch (op->kind) {
    case FC_PRINTF:
      if (printf("%s", buf) < 0) fc_report(index, op, "printf", errno);
      break;
    case FC_FPUTS:
      if (fputs(buf, f) == EOF) fc_report(index, op, "fputs", errno);
      break;
    case FC_PUTC: putc_each(index, op, f, buf, want); break;
    default: fwrite_once(index, op, f, buf, want);
  }
}

static void put_bytes(int index, const struct fc_op* op, long n, int newline) {
  FILE* f = stream_of(op->stream);
  size_t want = (size_t)n + (newline ? 1 : 0);
  char* buf;
  if (g_closed[op->stream == FC_ERR]) {
    fc_report(index, op, "write after close", EBADF);
    return;
  }
  buf = fc_payload(index, n, newline);
  errno = 0;
  put_payload(index, op, f, buf, want);
  free(buf);
}

static void do_setvbuf(int index, const struct fc_op* op) {
  static const int modes[] = {_IOFBF, _IOLBF, _IONBF};
  /* The buffer must outlive the stream: it is never freed. */
  char* buf = op->n > 0 && op->mode != FC_BUF_NONE ? malloc((size_t)op->n) : NULL;
  errno = 0;
  if (setvbuf(stream_of(op->stream), buf, modes[op->mode], (size_t)op->n) != 0)
    fc_report(index, op, "setvbuf", errno ? errno : EINVAL);
}

static void do_read(int index, const struct fc_op* op) {
  int c = 0;
  if (op->kind == FC_GETLINE) {
    while ((c = getchar()) != EOF && c != '\n') {
    }
  } else {
    for (long i = 0; i < op->n && (c = getchar()) != EOF; ++i) {
    }
  }
  if (c == EOF && ferror(stdin)) fc_report(index, op, "read", errno);
}

static int cxx_only(const struct fc_op* op) {
  return op->kind == FC_ENDL || op->kind == FC_SYNC || op->kind == FC_TIE ||
         op->kind == FC_UNITBUF || op->kind == FC_THROW || op->kind == FC_CLEAR ||
         op->stream == FC_LOG;
}

static void do_flush(int index, const struct fc_op* op) {
#ifdef FC_BUG_NO_FFLUSH /* injected bug (tests only): the flush is dropped */
  return;
#endif
  if (fflush(op->stream == FC_ALL ? NULL : stream_of(op->stream)) == EOF)
    fc_report(index, op, "fflush", errno);
}

static void do_close(int index, const struct fc_op* op) {
  if (fclose(stream_of(op->stream)) == EOF) fc_report(index, op, "fclose", errno);
  g_closed[op->stream == FC_ERR] = 1;
}

/* Runs op INDEX; returns 1 when the op is "return from main" (code in *rc). */
static int run_op(int index, const struct fc_op* op, int* rc) {
  switch (op->kind) {
    case FC_WRITE:
    case FC_PUTC:
    case FC_PRINTF:
    case FC_FPUTS: put_bytes(index, op, op->n, 0); break;
    case FC_LINE: put_bytes(index, op, op->n, 1); break;
    case FC_NEWLINE: put_bytes(index, op, 0, 1); break;
    case FC_FLUSH: do_flush(index, op); break;
    case FC_SETVBUF: do_setvbuf(index, op); break;
    case FC_READ:
    case FC_GETLINE: do_read(index, op); break;
    case FC_MARKER: flushcheck_marker(op->label); break;
    case FC_SLEEP: fc_sleep_ms(op->n); break;
    case FC_CLOSE: do_close(index, op); break;
    case FC_EXIT: exit((int)op->n);
    case FC_UEXIT: _exit((int)op->n);
    case FC_QUICK_EXIT: quick_exit((int)op->n);
    case FC_ABORT: abort();
    case FC_RETURN: *rc = (int)op->n; return 1;
    case FC_RAISE: raise((int)op->n); break;
    case FC_IGNORE: signal((int)op->n, SIG_IGN); break;
    case FC_FORK: fc_fork(index, op); break;
    case FC_THREADS: break; /* run_ops starts them */
    case FC_BARRIER: fc_barrier(); break;
    case FC_CRASH: fc_crash(); break;
    default:
      if (!fc_run_fd_op(index, op)) fc_run_c_stream_op(index, op);
      break;
  }
  return 0;
}

static struct fc_script g_script;
static void run_rest(int from);

/* Runs ops FROM.. to the end; 1 when one returned from main (code in *RC).
 * "threads N" starts N-1 threads that run the ops after it too. */
static int run_ops(int from, int* rc) {
  for (int i = from; i < g_script.count; ++i) {
    const struct fc_op* op = &g_script.ops[i];
    if (op->kind == FC_THREADS) {
      fc_start_threads(i, op, run_rest);
      continue;
    }
    if (run_op(i, op, rc)) return 1;
  }
  return 0;
}

/* A thread's part: "return" ends the thread, not the program. */
static void run_rest(int from) {
  int rc = 0;
  run_ops(from, &rc);
}

/* 1, said on stderr, when SCRIPT has an op that only iostream_script has. */
static int has_cxx_only_op(const struct fc_script* script) {
  for (int i = 0; i < script->count; ++i)
    if (cxx_only(&script->ops[i])) {
      fprintf(stderr, "%s: bad script: op %d '%s': only iostream_script has it\n", fc_program_name,
              i + 1, script->ops[i].text);
      return 1;
    }
  return 0;
}

/* The injected bugs (tests only) in stdout's buffering, before the script runs. */
static void inject_buffer_bugs(void) {
#ifdef FC_BUG_LINEBUF_STDOUT /* injected bug (tests only): stdout always line buffered */
  setvbuf(stdout, NULL, _IOLBF, 0);
#endif
#ifdef FC_BUG_BUFFER_PLUS_ONE /* injected bug (tests only): a buffer one byte too long */
  {
    struct stat st;
    if (!isatty(1) && fstat(1, &st) == 0 && st.st_blksize > 0)
      setvbuf(stdout, malloc((size_t)st.st_blksize + 1), _IOFBF, (size_t)st.st_blksize + 1);
  }
#endif
}

/* Runs SCRIPT from its first op, after the injected bugs (tests only) that
 * act before it; main's exit code. */
static int run_script(struct fc_script* script) {
  int rc = 0;
  flushcheck_marker_init();
  inject_buffer_bugs();
#ifdef FC_BUG_EXIT_NO_FLUSH /* injected bug (tests only): exit behaves like _exit */
  for (int i = 0; i < script->count; ++i)
    if (script->ops[i].kind == FC_EXIT) script->ops[i].kind = FC_UEXIT;
#endif
  g_script = *script;
  const int returned = run_ops(0, &rc);
  fc_join_threads();
  return returned ? rc : fc_io_error ? FC_EXIT_IO_ERROR : 0;
}

int main(int argc, char** argv) {
  struct fc_script script;
  int rc = 0;
  fc_program_name = "stdio_script";
  if ((rc = fc_load(argc, argv, &script)) < 0) { /* --version */
    fc_print_libc();
    return 0;
  }
  if (rc != 0) return rc;
  if (has_cxx_only_op(&script)) return FC_EXIT_USAGE;
  return run_script(&script);
}
