/* One fprintf to the unbuffered stderr: a 1,009-byte record, under PIPE_BUF
   (4096), that a program expects to reach the pipe in one write(2). */
#include <stdio.h>
#include <string.h>

int main(void) {
  static char text[1000];
  memset(text, 'x', 998);
  text[998] = '\n';
  fprintf(stderr, "record %d: %s", 7, text);
  return 0;
}
