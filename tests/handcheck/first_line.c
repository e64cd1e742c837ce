/* Hand-check, written without the project's targets or marker header: two
 * lines to stdout, then SIGKILL to itself. What reaches a pipe shows whether
 * the C library sent the first line before deciding how to buffer. */
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

int main(void) {
  fputs("first\n", stdout);
  fputs("second\n", stdout);
  kill(getpid(), SIGKILL);
  return 0;
}
