/* flushcheck workloads, driver side (docs/workload.md). A property gate
 * (docs/gate.md) runs a logging library's driver with a workload: a short
 * script of ops such as "log info 40; log error 200; flush; marker logged;
 * exit 0". This header parses it and calls the driver back for what only the
 * driver knows, how its library logs a record and flushes; sleeps, markers,
 * threads and the ways to end are done here. A driver is about 20 lines:
 *
 *   static void log_one(void* cx, int level, long n, const char* msg, size_t len) {
 *     minilog_write((minilog*)cx, level, msg, len);
 *   }
 *   static void flush_all(void* cx) { minilog_flush((minilog*)cx); }
 *   int main(int argc, char** argv) {
 *     minilog* log = minilog_open(getenv("FLUSHCHECK_LOG_DIR"), argv[1]);
 *     struct flushcheck_driver d = {log_one, flush_all, log};
 *     return flushcheck_workload_run("minilog_driver", argc - 2, argv + 2, &d);
 *   }
 *
 * Record N's message is "rec N", then (when BYTES asks for more) a space and
 * 'x' up to BYTES bytes: what the gate's checks count. Plain C99 and POSIX
 * threads; link with -pthread where the C library wants it (glibc < 2.34).
 * Compiled as C++, the `throw` op throws a std::runtime_error out of
 * flushcheck_workload_run (uncaught, std::terminate aborts the program);
 * compiled as C, which has no exceptions, `throw` is refused.
 */
#ifndef FLUSHCHECK_WORKLOAD_H
#define FLUSHCHECK_WORKLOAD_H

#if defined(__STRICT_ANSI__) && !defined(__cplusplus) && !defined(_POSIX_C_SOURCE)
#error \
    "flushcheck/workload.h needs POSIX (nanosleep, threads): define _POSIX_C_SOURCE 200809L before the first #include, or build as gnu11 (CMake's default)"
#endif

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "marker.h"

#ifdef __cplusplus
#include <stdexcept>
#endif

/* `throw` needs C++ exceptions (not C, not -fno-exceptions). */
#if defined(__cplusplus) && (defined(__cpp_exceptions) || defined(__EXCEPTIONS))
#define FLUSHCHECK_W_EXCEPTIONS_ 1
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The levels of `log LEVEL BYTES`, lowest first. */
enum flushcheck_level { FLUSHCHECK_DEBUG, FLUSHCHECK_INFO, FLUSHCHECK_WARN, FLUSHCHECK_ERROR };

struct flushcheck_driver {
  /* Logs record N at LEVEL (an enum flushcheck_level) with its MESSAGE of
   * LENGTH bytes (NUL-terminated too) through the library. Called from the
   * workload's threads after `threads K`, each record once. */
  void (*log)(void* context, int level, long n, const char* message, size_t length);
  /* The library's flush (NULL: `flush` does nothing). */
  void (*flush)(void* context);
  void* context;
};

/* The ops, in an order the code relies on: steps, then threads, then ends. */
enum flushcheck_workload_op {
  FLUSHCHECK_W_LOG,
  FLUSHCHECK_W_FLUSH,
  FLUSHCHECK_W_SLEEP,
  FLUSHCHECK_W_MARKER,
  FLUSHCHECK_W_THREADS,
  FLUSHCHECK_W_RETURN,
  FLUSHCHECK_W_EXIT,
  FLUSHCHECK_W_UEXIT,
  FLUSHCHECK_W_ABORT,
  FLUSHCHECK_W_RAISE,
  FLUSHCHECK_W_THROW
};

struct flushcheck_w_op {
  enum flushcheck_workload_op kind;
  long n;      /* BYTES, MS, K, an exit status or a signal number */
  int level;   /* log */
  long record; /* log: its record number */
  char label[64];
};

struct flushcheck_workload {
  struct flushcheck_w_op* ops;
  size_t count;
  long records; /* log ops */
  int threaded; /* a `threads` op is among them */
};

/* Bounds: what a workload may ask (a bigger one is refused, not truncated). */
enum {
  FLUSHCHECK_W_MAX_OPS = 100000,
  FLUSHCHECK_W_MAX_BYTES = 1 << 20,
  FLUSHCHECK_W_MAX_SLEEP_MS = 600000,
  FLUSHCHECK_W_MAX_THREADS = 64
};

/* The signals flushcheck_signal_number knows by name. */
static const struct flushcheck_signame_ {
  const char* name;
  int number;
} flushcheck_signames_[] = {
    {"HUP", SIGHUP},   {"INT", SIGINT},   {"QUIT", SIGQUIT}, {"ILL", SIGILL},   {"TRAP", SIGTRAP},
    {"ABRT", SIGABRT}, {"BUS", SIGBUS},   {"FPE", SIGFPE},   {"KILL", SIGKILL}, {"USR1", SIGUSR1},
    {"SEGV", SIGSEGV}, {"USR2", SIGUSR2}, {"PIPE", SIGPIPE}, {"ALRM", SIGALRM}, {"TERM", SIGTERM},
    {"CHLD", SIGCHLD}, {"CONT", SIGCONT}, {"STOP", SIGSTOP}, {"TSTP", SIGTSTP}, {"TTIN", SIGTTIN},
    {"TTOU", SIGTTOU}, {"XCPU", SIGXCPU}, {"XFSZ", SIGXFSZ}, {"SYS", SIGSYS}};

/* SIG's number from a name with or without "SIG" (TERM, SIGKILL) or a number
 * from 1 to 64; -1 for anything else. */
static inline int flushcheck_signal_number(const char* name) {
  size_t i;
  long v = 0;
  if (strncmp(name, "SIG", 3) == 0) name += 3;
  for (i = 0; i < sizeof flushcheck_signames_ / sizeof flushcheck_signames_[0]; ++i)
    if (strcmp(name, flushcheck_signames_[i].name) == 0) return flushcheck_signames_[i].number;
  for (i = 0; name[i] != '\0' && i < 3; ++i) {
    if (name[i] < '0' || name[i] > '9') return -1;
    v = v * 10 + (name[i] - '0');
  }
  return i > 0 && name[i] == '\0' && v >= 1 && v <= 64 ? (int)v : -1;
}

/* A count of ASCII digits no larger than MAX into *OUT; 0 when TEXT is not one. */
static inline int flushcheck_w_count_(const char* text, long max, long* out) {
  long v = 0;
  if (text == NULL || *text == '\0') return 0;
  for (; *text; ++text) {
    if (*text < '0' || *text > '9') return 0;
    v = v * 10 + (*text - '0');
    if (v > max) return 0;
  }
  *out = v;
  return 1;
}

static inline int flushcheck_w_level_(const char* text) {
  static const char* const k[] = {"debug", "info", "warn", "error"};
  int i;
  for (i = 0; text != NULL && i < 4; ++i)
    if (strcmp(text, k[i]) == 0) return i;
  return -1;
}

/* An op's arguments in flushcheck_w_opdefs_, when they are not one number
 * (whose bound, > 0, stands for them there). */
enum flushcheck_w_args_shape_ {
  FLUSHCHECK_W_NO_ARGUMENT = 0,
  FLUSHCHECK_W_LEVEL_AND_BYTES = -1,
  FLUSHCHECK_W_LABEL = -2,
  FLUSHCHECK_W_SIGNAL = -3
};

/* The ops by name. */
static const struct flushcheck_w_opdef_ {
  const char* name;
  enum flushcheck_workload_op kind;
  long max; /* its one number's bound, or an enum flushcheck_w_args_shape_ */
} flushcheck_w_opdefs_[] = {{"log", FLUSHCHECK_W_LOG, FLUSHCHECK_W_LEVEL_AND_BYTES},
                            {"flush", FLUSHCHECK_W_FLUSH, FLUSHCHECK_W_NO_ARGUMENT},
                            {"sleep", FLUSHCHECK_W_SLEEP, FLUSHCHECK_W_MAX_SLEEP_MS},
                            {"marker", FLUSHCHECK_W_MARKER, FLUSHCHECK_W_LABEL},
                            {"threads", FLUSHCHECK_W_THREADS, FLUSHCHECK_W_MAX_THREADS},
                            {"return", FLUSHCHECK_W_RETURN, 255},
                            {"exit", FLUSHCHECK_W_EXIT, 255},
                            {"_exit", FLUSHCHECK_W_UEXIT, 255},
                            {"abort", FLUSHCHECK_W_ABORT, FLUSHCHECK_W_NO_ARGUMENT},
                            {"raise", FLUSHCHECK_W_RAISE, FLUSHCHECK_W_SIGNAL},
                            {"throw", FLUSHCHECK_W_THROW, FLUSHCHECK_W_NO_ARGUMENT}};

/* The op named NAME, or NULL. */
static inline const struct flushcheck_w_opdef_* flushcheck_w_find_(const char* name) {
  size_t i;
  for (i = 0; i < sizeof flushcheck_w_opdefs_ / sizeof flushcheck_w_opdefs_[0]; ++i)
    if (strcmp(name, flushcheck_w_opdefs_[i].name) == 0) return &flushcheck_w_opdefs_[i];
  return NULL;
}

/* `log LEVEL BYTES`: TOKENS[1] and TOKENS[2] into OP: NULL, or why not. */
static inline const char* flushcheck_w_log_args_(char** tokens, struct flushcheck_w_op* op) {
  op->level = flushcheck_w_level_(tokens[1]);
  if (op->level < 0) return "expects a level: debug, info, warn or error";
  return flushcheck_w_count_(tokens[2], FLUSHCHECK_W_MAX_BYTES, &op->n)
             ? NULL
             : "expects a size in bytes, at most 1048576";
}

/* `marker LABEL`: LABEL into OP: NULL, or why not. */
static inline const char* flushcheck_w_label_(const char* label, struct flushcheck_w_op* op) {
  if (strlen(label) >= sizeof op->label) return "expects a label under 64 bytes";
  strcpy(op->label, label);
  return NULL;
}

/* `raise SIG`: SIG's number into OP: NULL, or why not. A signal whose
 * default action stops the program would stop the driver for good. */
static inline const char* flushcheck_w_signal_(const char* sig, struct flushcheck_w_op* op) {
  if ((op->n = flushcheck_signal_number(sig)) <= 0) return "expects a signal name or number";
  if (op->n == SIGSTOP || op->n == SIGTSTP || op->n == SIGTTIN || op->n == SIGTTOU)
    return "expects a signal that ends or is ignored, not one that stops the program (STOP, "
           "TSTP, TTIN, TTOU)";
  return NULL;
}

/* Why this driver cannot `throw`, or NULL when it can. */
static inline const char* flushcheck_w_no_throw_(void) {
#if defined(FLUSHCHECK_W_EXCEPTIONS_)
  return NULL;
#elif defined(__cplusplus)
  return "expects a C++ driver built with exceptions (not -fno-exceptions)";
#else
  return "expects a C++ driver: C has no exceptions";
#endif
}

/* The arguments TOKENS[1..] of an op whose argument is MAX (as in
 * flushcheck_w_opdefs_) into OP: NULL, or why not. */
static inline const char* flushcheck_w_args_(long max, char** tokens, struct flushcheck_w_op* op) {
  if (max == FLUSHCHECK_W_LEVEL_AND_BYTES) return flushcheck_w_log_args_(tokens, op);
  if (max == FLUSHCHECK_W_LABEL) return flushcheck_w_label_(tokens[1], op);
  if (max == FLUSHCHECK_W_SIGNAL) return flushcheck_w_signal_(tokens[1], op);
  if (max == FLUSHCHECK_W_NO_ARGUMENT) return NULL;
  if (!flushcheck_w_count_(tokens[1], max, &op->n)) return "expects a number in range";
  return op->kind == FLUSHCHECK_W_THREADS && op->n < 2 ? "expects 2 to 64 threads" : NULL;
}

/* The op named by TOKENS[0] with its COUNT tokens into OP: NULL, or why not. */
static inline const char* flushcheck_w_op_(char** tokens, int count, struct flushcheck_w_op* op) {
  const struct flushcheck_w_opdef_* def = flushcheck_w_find_(tokens[0]);
  if (def == NULL) return "unknown operation";
  op->kind = def->kind;
  if (def->kind == FLUSHCHECK_W_THROW && flushcheck_w_no_throw_() != NULL)
    return flushcheck_w_no_throw_();
  if (def->max == FLUSHCHECK_W_NO_ARGUMENT) return count == 1 ? NULL : "takes no argument";
  if (def->max == FLUSHCHECK_W_LEVEL_AND_BYTES && count != 3)
    return "expects a level (debug, info, warn, error) and a size in bytes";
  if (def->max != FLUSHCHECK_W_LEVEL_AND_BYTES && count != 2) return "expects one argument";
  return flushcheck_w_args_(def->max, tokens, op);
}

/* Why the ops parsed so far cannot take OP (an end not last, a marker after
 * threads, two threads ops), or NULL. In constant time: only the last op
 * can be an end, and W keeps whether one was `threads`. */
static inline const char* flushcheck_w_order_(const struct flushcheck_workload* w,
                                              const struct flushcheck_w_op* op) {
  if (w->count > 0 && w->ops[w->count - 1].kind >= FLUSHCHECK_W_RETURN)
    return "comes after the workload's end";
  if (w->threaded && op->kind == FLUSHCHECK_W_THREADS) return "a second threads";
  if (w->threaded && op->kind == FLUSHCHECK_W_MARKER)
    return "a marker after threads (every thread would stop at it)";
  return NULL;
}

/* TEXT cut in place into its TOKENS (4 at most): their number, or -1 when
 * there are more. */
static inline int flushcheck_w_tokens_(char* text, char** tokens) {
  int count = 0;
  for (;;) {
    text += strspn(text, " \t\r");
    if (*text == '\0') break;
    if (count == 4) return -1;
    tokens[count++] = text;
    text += strcspn(text, " \t\r");
    if (*text != '\0') *text++ = '\0';
  }
  return count;
}

/* The op that TOKENS (COUNT of them) spell, appended to W after the ops
 * before it (a log op numbered): NULL, or why not. */
static inline const char* flushcheck_w_push_(struct flushcheck_workload* w, char** tokens,
                                             int count) {
  const char* why;
  struct flushcheck_w_op op;
  memset(&op, 0, sizeof op);
  if ((why = flushcheck_w_op_(tokens, count, &op)) != NULL) return why;
  if ((why = flushcheck_w_order_(w, &op)) != NULL) return why;
  if (op.kind == FLUSHCHECK_W_LOG) op.record = w->records++;
  w->threaded |= op.kind == FLUSHCHECK_W_THREADS;
  w->ops[w->count++] = op;
  return NULL;
}

/* One op's text (TEXT is changed: tokens are cut in place) into W. */
static inline const char* flushcheck_w_add_(struct flushcheck_workload* w, char* text) {
  char* tokens[4];
  const int count = flushcheck_w_tokens_(text, tokens);
  if (count == 0) return NULL; /* an empty op: "a;;b" */
  if (w->count == FLUSHCHECK_W_MAX_OPS) return "more than 100000 ops";
  if (count < 0) return "too many arguments";
  return flushcheck_w_push_(w, tokens, count);
}

/* W emptied, with room for the ops of TEXT (LENGTH bytes), up to the bound,
 * and a copy of TEXT to cut in place, to free; exits 70 after a line on
 * stderr naming NAME when out of memory. */
static inline char* flushcheck_w_alloc_(const char* name, const char* text, size_t length,
                                        struct flushcheck_workload* w) {
  size_t room = length / 2 + 1; /* an op and its ';' take 2 bytes at least */
  char* copy = (char*)malloc(length + 1);
  if (room > FLUSHCHECK_W_MAX_OPS) room = FLUSHCHECK_W_MAX_OPS;
  memset(w, 0, sizeof *w);
  w->ops = (struct flushcheck_w_op*)calloc(room, sizeof *w->ops);
  if (copy == NULL || w->ops == NULL) {
    fprintf(stderr, "%s: out of memory\n", name);
    exit(70);
  }
  memcpy(copy, text, length + 1);
  return copy;
}

/* The op at the start of TEXT as written, without its leading blanks, into
 * SHOWN (80 bytes): at most 79 bytes of it, up to its ';' or newline. */
static inline void flushcheck_w_shown_(const char* text, char* shown) {
  size_t n = 0;
  text += strspn(text, " \t\r");
  for (; n < 79 && text[n] != '\0' && text[n] != ';' && text[n] != '\n'; ++n) shown[n] = text[n];
  shown[n] = '\0';
}

/* The op at OP_TEXT (cut from the copy of TEXT, where it is as written) into
 * W: 0, or -1 after its line on stderr. */
static inline int flushcheck_w_add_or_say_(const char* name, const char* text, char* op_text,
                                           struct flushcheck_workload* w) {
  char shown[80];
  const char* why = flushcheck_w_add_(w, op_text);
  if (why == NULL) return 0;
  flushcheck_w_shown_(text, shown);
  fprintf(stderr, "%s: bad workload: op %zu '%s': %s\n", name, w->count, shown, why);
  return -1;
}

/* Each op of COPY (TEXT's LENGTH bytes, cut in place at each ';' or newline)
 * into W: 0, or -1 after the line of the first bad one on stderr. */
static inline int flushcheck_w_add_all_(const char* name, const char* text, char* copy,
                                        size_t length, struct flushcheck_workload* w) {
  size_t start = 0, i;
  for (i = 0; i <= length; ++i) {
    if (copy[i] != ';' && copy[i] != '\n' && copy[i] != '\0') continue;
    copy[i] = '\0';
    if (flushcheck_w_add_or_say_(name, text + start, copy + start, w) != 0) return -1;
    start = i + 1;
  }
  return 0;
}

/* Parses TEXT (ops separated by ';' or newlines) into W, which the caller
 * frees with free(W->ops). 0, or -1 after one line on stderr:
 * "NAME: bad workload: op 2 'log loud 3': expects a level: ...". */
static inline int flushcheck_workload_parse(const char* name, const char* text,
                                            struct flushcheck_workload* w) {
  size_t length = strlen(text);
  char* copy = flushcheck_w_alloc_(name, text, length, w);
  const int rc = flushcheck_w_add_all_(name, text, copy, length, w);
  free(copy);
  if (rc != 0) {
    free(w->ops);
    w->ops = NULL;
  }
  return rc;
}

/* Record N's message for `log LEVEL BYTES` into BUF (BYTES + 32 bytes at
 * least): "rec N", padded with " xxx..." to BYTES; its length. */
static inline size_t flushcheck_w_message(long n, long bytes, char* buf) {
  int length = sprintf(buf, "rec %ld", n);
  size_t at = (size_t)length;
  if ((long)at < bytes) buf[at++] = ' ';
  while ((long)at < bytes) buf[at++] = 'x';
  buf[at] = '\0';
  return at;
}

static inline void flushcheck_w_sleep_(long ms) {
  struct timespec left = {ms / 1000, (ms % 1000) * 1000000L};
  while (nanosleep(&left, &left) != 0 && errno == EINTR) {
  }
}

/* One thread's share of W's ops from FROM up to `threads` or the end: every
 * flush and sleep, and the records whose place among the logs after FROM is
 * THREAD mod THREADS. */
struct flushcheck_w_share_ {
  const struct flushcheck_workload* w;
  const struct flushcheck_driver* d;
  size_t from;
  long thread, threads;
};

/* Share S's part of OP: its record when the log ops before it (*PLACE of
 * them, counted here) make it S's, with BUF for the message; every flush,
 * sleep and marker. */
static inline void flushcheck_w_share_op_(const struct flushcheck_w_share_* s,
                                          const struct flushcheck_w_op* op, long* place,
                                          char* buf) {
  if (op->kind == FLUSHCHECK_W_LOG && (*place)++ % s->threads == s->thread) {
    size_t n = flushcheck_w_message(op->record, op->n, buf);
    s->d->log(s->d->context, op->level, op->record, buf, n);
  }
  if (op->kind == FLUSHCHECK_W_FLUSH && s->d->flush != NULL) s->d->flush(s->d->context);
  if (op->kind == FLUSHCHECK_W_SLEEP) flushcheck_w_sleep_(op->n);
  if (op->kind == FLUSHCHECK_W_MARKER) flushcheck_marker(op->label);
}

static inline void* flushcheck_w_share_run_(void* arg) {
  const struct flushcheck_w_share_* s = (const struct flushcheck_w_share_*)arg;
  long place = 0;
  size_t i;
  char* buf = (char*)malloc(FLUSHCHECK_W_MAX_BYTES + 32);
  if (buf == NULL) exit(70);
  for (i = s->from; i < s->w->count && s->w->ops[i].kind < FLUSHCHECK_W_THREADS; ++i)
    flushcheck_w_share_op_(s, &s->w->ops[i], &place, buf);
  free(buf);
  return NULL;
}

/* A thread into *THREAD that runs SHARE; exits 70 after a line on stderr
 * when it cannot start. */
static inline void flushcheck_w_start_(pthread_t* thread, struct flushcheck_w_share_* share) {
  if (pthread_create(thread, NULL, flushcheck_w_share_run_, share) != 0) {
    fprintf(stderr, "flushcheck workload: pthread_create failed\n");
    exit(70);
  }
}

/* W's ops from FROM on K threads (K = 1: this one), joined before it returns. */
static inline void flushcheck_w_threads_(const struct flushcheck_workload* w,
                                         const struct flushcheck_driver* d, size_t from, long k) {
  pthread_t threads[FLUSHCHECK_W_MAX_THREADS];
  struct flushcheck_w_share_ shares[FLUSHCHECK_W_MAX_THREADS];
  long t;
  for (t = 0; t < k; ++t) {
    struct flushcheck_w_share_ s = {w, d, from, t, k};
    shares[t] = s;
    if (k > 1) flushcheck_w_start_(&threads[t], &shares[t]);
  }
  if (k == 1) flushcheck_w_share_run_(&shares[0]);
  for (t = 0; k > 1 && t < k; ++t) pthread_join(threads[t], NULL);
}

/* Ends the program as END (a workload's end op) says; returns the status
 * for `return N` (0 for a raised signal that did not end it). */
static inline int flushcheck_w_end_(const struct flushcheck_w_op* end) {
  switch (end->kind) {
    case FLUSHCHECK_W_EXIT: exit((int)end->n);
    case FLUSHCHECK_W_UEXIT: _exit((int)end->n);
    case FLUSHCHECK_W_ABORT: abort();
    case FLUSHCHECK_W_RAISE: raise((int)end->n); return 0;
#ifdef FLUSHCHECK_W_EXCEPTIONS_
    case FLUSHCHECK_W_THROW: throw std::runtime_error("flushcheck workload: throw");
#endif
    default: return (int)end->n;
  }
}

/* PARTS (COUNT of them) joined with ';' and parsed into W, as
 * flushcheck_workload_parse does; exits 70 when out of memory. */
static inline int flushcheck_w_parse_parts_(const char* name, int count, char* const* parts,
                                            struct flushcheck_workload* w) {
  size_t length = 1, at = 0;
  char* text;
  int status, p;
  for (p = 0; p < count; ++p) length += strlen(parts[p]) + 1;
  if ((text = (char*)malloc(length)) == NULL) exit(70);
  for (p = 0; p < count; ++p) { /* at a running offset: strcat would rescan TEXT */
    const size_t n = strlen(parts[p]);
    if (p > 0) text[at++] = ';';
    memcpy(text + at, parts[p], n);
    at += n;
  }
  text[at] = '\0';
  status = flushcheck_workload_parse(name, text, w);
  free(text);
  return status;
}

/* W's ops with driver D: those before `threads` on this thread, then the
 * rest on its K threads. */
static inline void flushcheck_w_run_ops_(const struct flushcheck_workload* w,
                                         const struct flushcheck_driver* d) {
  size_t i, threaded = 0;
  long k = 1;
  for (i = 0; i < w->count && w->ops[i].kind != FLUSHCHECK_W_THREADS; ++i) {
  }
  threaded = i;
  flushcheck_w_threads_(w, d, 0, 1); /* the ops before `threads` (all, without one) */
  if (threaded < w->count) k = w->ops[threaded].n;
  if (threaded < w->count) flushcheck_w_threads_(w, d, threaded + 1, k);
}

/* Runs the workload that PARTS (COUNT of them, joined with ';') spell with
 * driver D. Returns what main should return: N for `return N` (main's return
 * runs the library's destructors and atexit handlers, as a program's end
 * does), 0 without an end, 64 for a bad workload (one line on stderr naming
 * NAME); `exit`, `_exit`, `abort` and `raise` end the program here, and in
 * C++ `throw` throws std::runtime_error from here, after every op ran. */
static inline int flushcheck_workload_run(const char* name, int count, char* const* parts,
                                          const struct flushcheck_driver* d) {
  struct flushcheck_workload w;
  struct flushcheck_w_op end;
  memset(&end, 0, sizeof end);
  end.kind = FLUSHCHECK_W_RETURN; /* without an end: return 0 */
  if (flushcheck_w_parse_parts_(name, count, parts, &w) != 0) return 64;
  flushcheck_marker_init();
  flushcheck_w_run_ops_(&w, d);
  if (w.count > 0 && w.ops[w.count - 1].kind >= FLUSHCHECK_W_RETURN) end = w.ops[w.count - 1];
  free(w.ops);
  return flushcheck_w_end_(&end);
}

#ifdef __cplusplus
}
#endif

#endif /* FLUSHCHECK_WORKLOAD_H */
