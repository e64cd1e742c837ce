/* A workload driver for the property gate's tests (docs/workload.md): a
 * logger whose unflushed records race the program's end, as an
 * asynchronous logger's queue races exit. Each run it decides, at random
 * from the kernel's entropy (getrandom(2)), whether records go out at once
 * (write(2) per record) or wait in a queue that only `flush` empties; so a
 * workload that ends with records in the queue loses them in about half
 * its runs, whatever the machine's load: the failure rate a property gate
 * must report, not hide. One thread: its queue has no lock. */
#include <flushcheck/workload.h>
#include <sys/random.h>

static char queue[1 << 20];
static size_t queued;
static int holds; /* this run queues */

static void put(const char* bytes, size_t n) {
  while (n > 0) {
    ssize_t w = write(1, bytes, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return;
    bytes += w;
    n -= (size_t)w;
  }
}

static void log_line(void* context, int level, long n, const char* message, size_t length) {
  (void)context;
  (void)level;
  (void)n;
  if (!holds || queued + length + 1 > sizeof queue) {
    put(message, length);
    put("\n", 1);
    return;
  }
  memcpy(queue + queued, message, length);
  queue[queued + length] = '\n';
  queued += length + 1;
}

static void flush_queue(void* context) {
  (void)context;
  put(queue, queued);
  queued = 0;
}

int main(int argc, char** argv) {
  unsigned char coin = 0;
  if (getrandom(&coin, 1, 0) != 1) return 70;
  holds = coin & 1;
  struct flushcheck_driver d = {log_line, flush_queue, NULL};
  return flushcheck_workload_run("racy_driver", argc - 1, argv + 1, &d);
}
