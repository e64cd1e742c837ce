/* Hand-check: 3000 single characters to stdout, then SIGKILL. What reaches a
 * pipe is the number of bytes the library flushed: whole buffers. */
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

int main(void) {
  for (int i = 0; i < 3000; ++i) putchar('x');
  kill(getpid(), SIGKILL);
  return 0;
}
