/* flushcheck marker protocol, child side. Public and language-neutral.
 *
 * The harness puts FLUSHCHECK_MARKER_FD and FLUSHCHECK_RELEASE_FD in the
 * environment. A marker is one line, a label and '\n', written to the marker
 * fd; the program then reads one byte from the release fd and goes on.
 * (FLUSHCHECK_GATE_FD is the release fd's old name, still set and read.) While it
 * waits, the harness drains every stream, records what was visible, and may
 * kill it, so a cut at a marker is exact. Without the variables every call
 * here is a no-op.
 *
 * Everything here is async-signal-safe (getenv is called once, from
 * flushcheck_marker_init or the first marker outside a signal handler).
 */
#ifndef FLUSHCHECK_MARKER_H
#define FLUSHCHECK_MARKER_H

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <unistd.h>

#ifdef __cplusplus
extern "C" {
#endif

struct flushcheck_marker_fds {
  int initialised;
  int marker_fd;
  int release_fd;
};

static inline struct flushcheck_marker_fds* flushcheck_marker_state_(void) {
  static struct flushcheck_marker_fds state = {0, -1, -1};
  return &state;
}

static inline int flushcheck_parse_fd_(const char* s) {
  int v = 0;
  if (s == NULL || *s == '\0') return -1;
  for (; *s; ++s) {
    if (*s < '0' || *s > '9' || v > 100000) return -1;
    v = v * 10 + (*s - '0');
  }
  return v;
}

/* Reads the environment once. Call it early (before installing signal
 * handlers that emit markers); flushcheck_marker calls it lazily otherwise. */
static inline void flushcheck_marker_init(void) {
  struct flushcheck_marker_fds* st = flushcheck_marker_state_();
  if (st->initialised) return;
  st->marker_fd = flushcheck_parse_fd_(getenv("FLUSHCHECK_MARKER_FD"));
  st->release_fd = flushcheck_parse_fd_(getenv("FLUSHCHECK_RELEASE_FD"));
  if (st->release_fd < 0) st->release_fd = flushcheck_parse_fd_(getenv("FLUSHCHECK_GATE_FD"));
  st->initialised = 1;
}

/* 1 when a harness listens, 0 otherwise. */
static inline int flushcheck_marker_enabled(void) {
  flushcheck_marker_init();
  return flushcheck_marker_state_()->marker_fd >= 0;
}

/* LABEL as a marker line in LINE (SIZE bytes): a '\n' inside becomes ' ',
 * a long label is cut, and the line ends in '\n'. Its length. */
static inline size_t flushcheck_marker_line_(const char* label, char* line, size_t size) {
  size_t n = 0;
  while (label[n] != '\0' && n < size - 1) {
    line[n] = label[n] == '\n' ? ' ' : label[n];
    ++n;
  }
  line[n++] = '\n';
  return n;
}

/* Writes marker LABEL's line to FD, through EINTR and short writes. 0, or
 * -1 when the channel is gone. */
static inline int flushcheck_marker_emit_(int fd, const char* label) {
  char line[256];
  size_t n = flushcheck_marker_line_(label, line, sizeof line);
  for (size_t off = 0; off < n;) {
    ssize_t r = write(fd, line + off, n - off);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return -1;
    off += (size_t)r;
  }
  return 0;
}

/* Reads the release byte from FD, through EINTR. 0, or -1 when the channel
 * is gone. */
static inline int flushcheck_marker_wait_(int fd) {
  char released;
  ssize_t r;
  do {
    r = read(fd, &released, 1);
  } while (r < 0 && errno == EINTR);
  return r == 1 ? 0 : -1;
}

/* Emits marker LABEL (no '\n' inside) and waits for the harness to release
 * it. Returns 0, or -1 when the channel is gone (harness ended). */
static inline int flushcheck_marker(const char* label) {
  struct flushcheck_marker_fds* st = flushcheck_marker_state_();
  int saved_errno = errno; /* a signal handler may call this */
  int rc;
  flushcheck_marker_init();
  if (st->marker_fd < 0) return 0;
  rc = flushcheck_marker_emit_(st->marker_fd, label);
  if (rc == 0 && st->release_fd >= 0) rc = flushcheck_marker_wait_(st->release_fd);
  errno = saved_errno;
  return rc;
}

#ifdef __cplusplus
}
#endif

#endif /* FLUSHCHECK_MARKER_H */
