#define _POSIX_C_SOURCE 200809L /* strtok_r, nanosleep under -std=c11 (musl) */
#include "script.h"

#include "flushcheck/payload.h"

#include <ctype.h>
#ifdef __GLIBC__
#include <gnu/libc-version.h>
#endif
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

char fc_payload_char(int index) { return flushcheck_payload_char(index); }

struct fc_signame {
  const char* name;
  int number;
};

static const struct fc_signame k_signals[] = {
    {"HUP", SIGHUP},   {"INT", SIGINT},   {"QUIT", SIGQUIT}, {"ILL", SIGILL},   {"TRAP", SIGTRAP},
    {"ABRT", SIGABRT}, {"BUS", SIGBUS},   {"FPE", SIGFPE},   {"KILL", SIGKILL}, {"USR1", SIGUSR1},
    {"SEGV", SIGSEGV}, {"USR2", SIGUSR2}, {"PIPE", SIGPIPE}, {"ALRM", SIGALRM}, {"TERM", SIGTERM},
    {"XCPU", SIGXCPU}, {"XFSZ", SIGXFSZ}, {"SYS", SIGSYS},
};

int fc_signal_number(const char* name) {
  char* end;
  long v;
  size_t i;
  if (strncmp(name, "SIG", 3) == 0) name += 3;
  for (i = 0; i < sizeof k_signals / sizeof k_signals[0]; ++i)
    if (strcmp(name, k_signals[i].name) == 0) return k_signals[i].number;
  v = strtol(name, &end, 10);
  if (*name != '\0' && *end == '\0' && v > 0 && v <= FC_MAX_SIGNAL) return (int)v;
  return -1;
}

struct fc_opdef {
  const char* name;
  enum fc_op_kind kind;
  /* argument shape: 'N' count, 'n' optional count, 'S' stream (optional),
   * 'M' buffer mode, 'B' on/off, 'T' tie stream, 'L' label, 'G' signal,
   * 'O' open mode, 'A' fadvise advice, 'o' optional offset */
  const char* args;
};

static const struct fc_opdef k_ops[] = {
    {"write", FC_WRITE, "NS"},
    {"line", FC_LINE, "NS"},
    {"putc", FC_PUTC, "NS"},
    {"printf", FC_PRINTF, "N"},
    {"fputs", FC_FPUTS, "NS"},
    {"newline", FC_NEWLINE, "S"},
    {"endl", FC_ENDL, "S"},
    {"flush", FC_FLUSH, "S"},
    {"setvbuf", FC_SETVBUF, "MnS"},
    {"sync_with_stdio", FC_SYNC, "B"},
    {"tie", FC_TIE, "TB"},
    {"unitbuf", FC_UNITBUF, "BS"},
    {"read", FC_READ, "N"},
    {"getline", FC_GETLINE, ""},
    {"marker", FC_MARKER, "L"},
    {"sleep", FC_SLEEP, "N"},
    {"close", FC_CLOSE, "S"},
    {"exit", FC_EXIT, "n"},
    {"_exit", FC_UEXIT, "n"},
    {"quick_exit", FC_QUICK_EXIT, "n"},
    {"abort", FC_ABORT, ""},
    {"return", FC_RETURN, "n"},
    {"raise", FC_RAISE, "G"},
    {"crash", FC_CRASH, ""},
    {"throw", FC_THROW, ""},
    {"ignore", FC_IGNORE, "G"},
    {"clear", FC_CLEAR, "B"},
    {"fork", FC_FORK, "N"},
    {"threads", FC_THREADS, "N"},
    {"fsync", FC_FSYNC, "S"},
    {"reopen", FC_REOPEN, "OS"},
    {"syswrite", FC_SYSWRITE, "NoS"},
    {"fadvise", FC_FADVISE, "AS"},
    {"resident", FC_RESIDENT, "S"},
    {"lock", FC_LOCK, "S"},
    {"unlock", FC_UNLOCK, "S"},
    {"putc_unlocked", FC_PUTC_UNLOCKED, "NS"},
    {"barrier", FC_BARRIER, ""},
};

static int fail(char* err, unsigned errlen, int index, const char* text, const char* why) {
  snprintf(err, errlen, "op %d '%s': %s", index + 1, text, why);
  return -1;
}

static int parse_count(const char* tok, long* out) {
  char* end;
  long v;
  if (!isdigit((unsigned char)tok[0])) return -1;
  v = strtol(tok, &end, 10);
  if (*end != '\0' || v < 0 || v > 1000000000L) return -1;
  *out = v;
  return 0;
}

static int parse_stream(const char* tok, enum fc_stream* out) {
  if (strcmp(tok, "out") == 0)
    *out = FC_OUT;
  else if (strcmp(tok, "err") == 0)
    *out = FC_ERR;
  else if (strcmp(tok, "log") == 0)
    *out = FC_LOG;
  else if (strcmp(tok, "all") == 0)
    *out = FC_ALL;
  else
    return -1;
  return 0;
}

static int parse_mode(const char* tok, int* out) {
  if (tok != NULL && strcmp(tok, "full") == 0)
    *out = FC_BUF_FULL;
  else if (tok != NULL && strcmp(tok, "line") == 0)
    *out = FC_BUF_LINE;
  else if (tok != NULL && strcmp(tok, "none") == 0)
    *out = FC_BUF_NONE;
  else
    return -1;
  return 0;
}

/* The index of TOK in the NULL-terminated WORDS into *OUT, or -1. */
static int parse_word(const char* tok, const char* const* words, int* out) {
  for (int i = 0; tok != NULL && words[i] != NULL; ++i)
    if (strcmp(tok, words[i]) == 0) {
      *out = i;
      return 0;
    }
  return -1;
}

static const char* const k_open_modes[] = {"plain", "append", "direct", NULL};
static const char* const k_advice[] = {"normal",   "sequential", "random", "willneed",
                                       "dontneed", "noreuse",    NULL};

static int parse_on_off(const char* tok, long* out) {
  if (tok != NULL && strcmp(tok, "on") == 0)
    *out = 1;
  else if (tok != NULL && strcmp(tok, "off") == 0)
    *out = 0;
  else
    return -1;
  return 0;
}

static int parse_tie(const char* tok, enum fc_stream* out) {
  if (tok != NULL && strcmp(tok, "in") == 0)
    *out = FC_IN;
  else if (tok != NULL && strcmp(tok, "err") == 0)
    *out = FC_ERR;
  else if (tok != NULL && strcmp(tok, "log") == 0)
    *out = FC_LOG;
  else
    return -1;
  return 0;
}

static const char k_bad_count[] = "expects a count (0 to 1000000000)";
static const char k_bad_stream[] = "stream must be out, err, log or all";
static const char k_bad_open_mode[] = "mode must be plain, append or direct";
static const char k_bad_advice[] =
    "advice must be normal, sequential, random, willneed, dontneed or noreuse";
static const char k_bad_signal[] = "expects a signal name or number";

/* An optional argument is there when it is present and looks like one: a
 * sign starts a number too ("exit -1" is a bad count, not a stream). */
static int optional_present(char shape, const char* a) {
  if (a == NULL) return 0;
  if (shape == 'n' || shape == 'o')
    return isdigit((unsigned char)a[0]) || a[0] == '-' || a[0] == '+';
  return 1; /* 'S' */
}

/* A present optional argument, A, of shape 'n' (a count), 'o' (an offset)
 * or 'S' (a stream) into OP. NULL, or why A is wrong. */
static const char* parse_optional(char shape, const char* a, struct fc_op* op) {
  switch (shape) {
    case 'n': return parse_count(a, &op->n) == 0 ? NULL : k_bad_count;
    case 'o': return parse_count(a, &op->offset) == 0 ? NULL : k_bad_count;
    default: return parse_stream(a, &op->stream) == 0 ? NULL : k_bad_stream; /* 'S' */
  }
}

/* A marker's label, A (NULL when absent), into OP. NULL, or why A is wrong. */
static const char* parse_label(const char* a, struct fc_op* op) {
  if (a == NULL) return "expects a label";
  if (strlen(a) >= sizeof op->label) return "label too long";
  strcpy(op->label, a);
  return NULL;
}

/* The shapes of the required arguments, those parse_required knows. */
static const char k_required_shapes[] = "NOAMBTLG";

/* A required argument A (NULL: missing) of a shape in k_required_shapes into
 * OP: NULL, or why A is wrong. */
static const char* parse_required(char shape, const char* a, struct fc_op* op) {
  switch (shape) {
    case 'N': return a != NULL && parse_count(a, &op->n) == 0 ? NULL : k_bad_count;
    case 'O': return parse_word(a, k_open_modes, &op->mode) == 0 ? NULL : k_bad_open_mode;
    case 'A': return parse_word(a, k_advice, &op->mode) == 0 ? NULL : k_bad_advice;
    case 'M': return parse_mode(a, &op->mode) == 0 ? NULL : "mode must be full, line or none";
    case 'B': return parse_on_off(a, &op->n) == 0 ? NULL : "expects on or off";
    case 'T': return parse_tie(a, &op->stream) == 0 ? NULL : "tie takes in, err or log";
    case 'L': return parse_label(a, op);
    case 'G': return a != NULL && (op->n = fc_signal_number(a)) >= 0 ? NULL : k_bad_signal;
  }
  return NULL; /* a SHAPE it does not know: no argument (parse_arg takes none) */
}

/* Parses A (NULL when absent), the argument of shape SHAPE, into OP, and
 * sets *TOOK to whether it used A. NULL, or why A is wrong. */
static const char* parse_arg(char shape, const char* a, struct fc_op* op, int* took) {
  if (shape == 'n' || shape == 'o' || shape == 'S') {
    *took = optional_present(shape, a);
    return *took ? parse_optional(shape, a, op) : NULL;
  }
  *took = shape != '\0' && strchr(k_required_shapes, shape) != NULL;
  return parse_required(shape, a, op);
}

int fc_is_fd_op(enum fc_op_kind kind) {
  return kind == FC_FSYNC || kind == FC_REOPEN || kind == FC_SYSWRITE || kind == FC_FADVISE ||
         kind == FC_RESIDENT;
}

int fc_is_c_stream_op(enum fc_op_kind kind) {
  return kind == FC_LOCK || kind == FC_UNLOCK || kind == FC_PUTC_UNLOCKED;
}

/* The arguments TOK[1..NTOK-1] by the shapes of DEF into OP. NULL, or why
 * they are wrong. */
static const char* parse_args(const struct fc_opdef* def, char** tok, int ntok, struct fc_op* op) {
  const char* shape;
  int t = 1;
  for (shape = def->args; *shape; ++shape) {
    int took = 0;
    const char* why = parse_arg(*shape, t < ntok ? tok[t] : NULL, op, &took);
    if (why != NULL) return why;
    t += took;
  }
  return t < ntok ? "too many arguments" : NULL;
}

/* Why OP, its arguments parsed, is still not allowed (its stream, its
 * numbers); NULL when it is. */
static const char* check_op(const struct fc_op* op) {
  if (op->stream == FC_ALL && op->kind != FC_FLUSH) return "'all' is only for flush";
  if (op->kind == FC_SETVBUF && op->stream == FC_LOG) return "setvbuf takes out or err";
  if (fc_is_fd_op(op->kind) && op->stream == FC_LOG) return "an op on the fd takes out or err";
  if (fc_is_c_stream_op(op->kind) && op->stream == FC_LOG) return "C's stdio: out or err";
  if (op->kind == FC_SYSWRITE && op->offset > 65536) return "the offset is 0 to 65536";
  if (op->kind == FC_FORK && (op->n < 2 || op->n > 64)) return "fork takes 2 to 64 processes";
  if (op->kind == FC_THREADS && (op->n < 2 || op->n > 64)) return "threads takes 2 to 64 threads";
  return NULL;
}

/* Parses the tokens of one op against its definition. */
static int parse_op(const struct fc_opdef* def, char** tok, int ntok, struct fc_op* op, char* err,
                    unsigned errlen, int index) {
  const char* why;
  op->kind = def->kind;
  op->stream = FC_OUT;
  op->n = 0;
  op->offset = 0;
  op->mode = FC_BUF_FULL;
  op->label[0] = '\0';
  why = parse_args(def, tok, ntok, op);
  if (why == NULL) why = check_op(op);
  return why == NULL ? 0 : fail(err, errlen, index, op->text, why);
}

/* The definition of the op named NAME, or NULL. */
static const struct fc_opdef* find_op(const char* name) {
  size_t i;
  for (i = 0; i < sizeof k_ops / sizeof k_ops[0]; ++i)
    if (strcmp(name, k_ops[i].name) == 0) return &k_ops[i];
  return NULL;
}

/* S (modified in place) from its first non-blank into OP->text, as written,
 * then cut into its tokens in TOK (8 at most): their number, or -1 when
 * there are more. */
static int split_op(char* s, struct fc_op* op, char** tok) {
  int ntok = 0;
  char* p;
  char* save = NULL;
  while (*s == ' ' || *s == '\t') ++s;
  snprintf(op->text, sizeof op->text, "%s", s);
  for (p = strtok_r(s, " \t\r", &save); p != NULL; p = strtok_r(NULL, " \t\r", &save)) {
    if (ntok == 8) return -1;
    tok[ntok++] = p;
  }
  return ntok;
}

/* Parses S, one op's text, into the next op of OUT (which has room for it)
 * and appends it, unless S is empty. 0, or -1 (ERR says why). */
static int parse_one(char* s, struct fc_script* out, char* err, unsigned errlen) {
  struct fc_op* op = &out->ops[out->count];
  char* tok[8];
  const int ntok = split_op(s, op, tok);
  const struct fc_opdef* def;
  if (ntok < 0) return fail(err, errlen, out->count, op->text, "too many arguments");
  if (ntok == 0) return 0; /* empty op: "a;;b" or a trailing ';' */
  def = find_op(tok[0]);
  if (def == NULL) return fail(err, errlen, out->count, op->text, "unknown operation");
  if (parse_op(def, tok, ntok, op, err, errlen, out->count) != 0) return -1;
  ++out->count;
  return 0;
}

/* Room in OUT for one more op, its array doubled (*CAPACITY) when full. 0,
 * or -1 (ERR says why). */
static int make_room(struct fc_script* out, int* capacity, char* err, unsigned errlen) {
  struct fc_op* grown;
  if (out->count != *capacity) return 0;
  *capacity *= 2;
  grown = realloc(out->ops, sizeof(struct fc_op) * (size_t)*capacity);
  if (grown == NULL) return fail(err, errlen, out->count, "", "out of memory");
  out->ops = grown;
  return 0;
}

/* Splits BUF (modified in place) into ops appended to OUT. */
static int parse_ops(char* buf, struct fc_script* out, char* err, unsigned errlen) {
  int capacity = 16;
  char* cursor = buf;
  while (cursor != NULL) {
    char* end = strpbrk(cursor, ";\n");
    if (end != NULL) *end = '\0';
    if (make_room(out, &capacity, err, errlen) != 0) return -1;
    if (parse_one(cursor, out, err, errlen) != 0) return -1;
    cursor = end != NULL ? end + 1 : NULL;
  }
  return 0;
}

/* A barrier waits for the threads of one "threads N" before it: with none,
 * or with two (more threads than the barrier counts), it could never open. */
static int check_barriers(const struct fc_script* s, char* err, unsigned errlen) {
  int threads = 0;
  for (int i = 0; i < s->count; ++i) threads += s->ops[i].kind == FC_THREADS;
  for (int i = 0, seen = 0; i < s->count; ++i) {
    seen += s->ops[i].kind == FC_THREADS;
    if (s->ops[i].kind == FC_BARRIER && (seen != 1 || threads != 1))
      return fail(err, errlen, i, s->ops[i].text, "barrier needs one threads op, before it");
  }
  return 0;
}

/* Parses BUF (modified in place) into OUT, then checks its barriers. 0, or
 * -1 (ERR says why). */
static int parse_and_check(char* buf, struct fc_script* out, char* err, unsigned errlen) {
  int rc = parse_ops(buf, out, err, errlen);
  if (rc == 0) rc = check_barriers(out, err, errlen);
  return rc;
}

/* OUT emptied, its ops freed. */
static void discard_ops(struct fc_script* out) {
  free(out->ops);
  out->ops = NULL;
  out->count = 0;
}

/* On error nothing stays allocated (out->ops is NULL): the harness parses
 * scripts in-process, many times (found by ci/fuzz: the copy leaked). */
int fc_parse(const char* src, struct fc_script* out, char* err, unsigned errlen) {
  char* buf = malloc(strlen(src) + 1);
  int rc = -1;
  out->count = 0;
  out->ops = malloc(sizeof(struct fc_op) * 16);
  if (buf == NULL || out->ops == NULL)
    snprintf(err, errlen, "out of memory");
  else
    rc = parse_and_check(strcpy(buf, src), out, err, errlen);
  free(buf);
  if (rc != 0) discard_ops(out);
  return rc;
}

const char* fc_program_name = "script";
int fc_io_error = 0;

/* argv[1..], each followed by ';', in one string to free; NULL when out of
 * memory. */
static char* join_args(int argc, char** argv) {
  size_t len = 1;
  char* joined;
  for (int i = 1; i < argc; ++i) len += strlen(argv[i]) + 1;
  joined = calloc(len, 1);
  if (joined == NULL) return NULL;
  for (int i = 1; i < argc; ++i) {
    strcat(joined, argv[i]);
    strcat(joined, ";");
  }
  return joined;
}

/* Parses JOINED into SCRIPT, then frees it; on error prints one line to
 * stderr and returns FC_EXIT_USAGE, else 0. */
static int parse_joined(char* joined, struct fc_script* script) {
  char err[256];
  int rc = fc_parse(joined, script, err, sizeof err);
  free(joined);
  if (rc != 0) {
    fprintf(stderr, "%s: bad script: %s\n", fc_program_name, err);
    return FC_EXIT_USAGE;
  }
  return 0;
}

int fc_load(int argc, char** argv, struct fc_script* script) {
  char* joined;
  if (argc == 2 && strcmp(argv[1], "--version") == 0) return -1;
  if (argc < 2) {
    fprintf(stderr, "%s: usage: %s SCRIPT... (ops separated by ';', see docs/script.md)\n",
            fc_program_name, fc_program_name);
    return FC_EXIT_USAGE;
  }
  joined = join_args(argc, argv);
  if (joined == NULL) {
    fprintf(stderr, "%s: out of memory\n", fc_program_name);
    return FC_EXIT_INTERNAL;
  }
  return parse_joined(joined, script);
}

void fc_say(int index, const struct fc_op* op, const char* what) {
  char line[400];
  int n = snprintf(line, sizeof line, "%s: op %d '%s': %s\n", fc_program_name, index + 1, op->text,
                   what);
  if (n > 0) {
    ssize_t ignored = write(2, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
    (void)ignored;
  }
}

void fc_report(int index, const struct fc_op* op, const char* call, int err) {
  char what[200];
  snprintf(what, sizeof what, "%s: %s (errno %d)", call, strerror(err), err);
  fc_say(index, op, what);
  fc_io_error = 1;
}

char* fc_payload(int index, long n, int newline) {
  char* buf = malloc((size_t)n + 2);
  if (buf == NULL) {
    fprintf(stderr, "%s: out of memory\n", fc_program_name);
    exit(FC_EXIT_INTERNAL);
  }
  memset(buf, fc_payload_char(index), (size_t)n);
  if (newline) buf[n++] = '\n';
  buf[n] = '\0';
  return buf;
}

struct fc_thread_start {
  void (*rest)(int from);
  int from;
};

/* Every thread started, by any thread (a later "threads" op starts more). */
static pthread_t g_threads[64 * 64];
static int g_thread_count;
static pthread_mutex_t g_threads_lock = PTHREAD_MUTEX_INITIALIZER;

static void* fc_thread_main(void* arg) {
  struct fc_thread_start start = *(struct fc_thread_start*)arg;
  free(arg);
  start.rest(start.from);
  return NULL;
}

/* The barrier of the script's one "threads N" (check_barriers), for N. */
static pthread_barrier_t g_barrier;

void fc_barrier(void) { pthread_barrier_wait(&g_barrier); }

/* A new thread's start, REST(FROM), to free; NULL when out of memory. */
static struct fc_thread_start* new_thread_start(void (*rest)(int from), int from) {
  struct fc_thread_start* start = malloc(sizeof *start);
  if (start != NULL) {
    start->rest = rest;
    start->from = from;
  }
  return start;
}

/* Starts a thread that calls REST(FROM), counted in g_threads: 0, or the
 * error (nothing started). */
static int start_thread(void (*rest)(int from), int from) {
  struct fc_thread_start* start = new_thread_start(rest, from);
  int err = start == NULL ? ENOMEM : 0;
  pthread_mutex_lock(&g_threads_lock);
  if (err == 0 && g_thread_count == (int)(sizeof g_threads / sizeof g_threads[0])) err = EAGAIN;
  if (err == 0) err = pthread_create(&g_threads[g_thread_count], NULL, fc_thread_main, start);
  if (err == 0) ++g_thread_count;
  pthread_mutex_unlock(&g_threads_lock);
  if (err != 0) free(start);
  return err;
}

void fc_start_threads(int index, const struct fc_op* op, void (*rest)(int from)) {
  pthread_barrier_init(&g_barrier, NULL, (unsigned)op->n);
  for (long i = 1; i < op->n; ++i) {
    const int err = start_thread(rest, index + 1);
    if (err != 0) {
      fc_report(index, op, "pthread_create", err);
      return;
    }
  }
}

void fc_join_threads(void) {
  for (int i = 0;; ++i) {
    pthread_t t;
    pthread_mutex_lock(&g_threads_lock);
    const int more = i < g_thread_count;
    if (more) t = g_threads[i];
    pthread_mutex_unlock(&g_threads_lock);
    if (!more) return;
    pthread_join(t, NULL);
  }
}

void fc_fork(int index, const struct fc_op* op) {
  for (long i = 1; i < op->n; ++i) {
    pid_t pid = fork();
    if (pid == 0) { /* a child, with the forking thread only: on with the script */
      g_thread_count = 0;
      pthread_mutex_init(&g_threads_lock, NULL);
      return;
    }
    if (pid < 0) {
      fc_report(index, op, "fork", errno);
      return;
    }
  }
}

static void putc_unlocked_n(int index, const struct fc_op* op, FILE* f) {
  const char c = fc_payload_char(index);
  errno = 0;
  for (long i = 0; i < op->n; ++i)
    if (putc_unlocked(c, f) == EOF) {
      fc_report(index, op, "putc_unlocked", errno);
      return;
    }
}

int fc_run_c_stream_op(int index, const struct fc_op* op) {
  FILE* f = op->stream == FC_ERR ? stderr : stdout;
  switch (op->kind) {
    case FC_LOCK: flockfile(f); return 1;
    case FC_UNLOCK: funlockfile(f); return 1;
    case FC_PUTC_UNLOCKED: putc_unlocked_n(index, op, f); return 1;
    default: return 0;
  }
}

void fc_crash(void) {
  volatile int* volatile bad = (volatile int*)(uintptr_t)16; /* a real fault */
  *bad = 1;
}

void fc_sleep_ms(long ms) {
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
  while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
  }
}

void fc_print_libc(void) {
#if defined(FC_LIBC_NAME) /* -DFC_LIBC_NAME=musl */
#define FC_STR2(x) #x
#define FC_STR(x) FC_STR2(x)
#if defined(FC_LIBC_VERSION)
  printf("libc=%s %s\n", FC_STR(FC_LIBC_NAME), FC_STR(FC_LIBC_VERSION));
#else
  printf("libc=%s\n", FC_STR(FC_LIBC_NAME));
#endif
#elif defined(__GLIBC__)
  printf("libc=glibc %s\n", gnu_get_libc_version());
#else
  printf("libc=unknown\n");
#endif
}
