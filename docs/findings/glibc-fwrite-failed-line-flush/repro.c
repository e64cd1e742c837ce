/* fwrite of a line to a line-buffered stream whose flush fails: what it returns.
   Two lines; strace makes the second write(2) fail with ENOSPC. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char** argv) {
  static char buf[BUFSIZ];
  FILE* f = fopen(argc > 1 ? argv[1] : "log", "w");
  if (f == NULL) return 2;
  setvbuf(f, buf, _IOLBF, sizeof buf);
  size_t first = fwrite("line 1\n", 1, 7, f); /* write #1 */
  errno = 0;
  size_t second = fwrite("line 2\n", 1, 7, f); /* write #2: ENOSPC */
  int err = errno;
  fclose(f);
  printf("line 1: fwrite returned %zu of 7\n", first);
  printf("line 2: fwrite returned %zu of 7 (errno: %s)\n", second, err ? strerror(err) : "none");
  return 0;
}
