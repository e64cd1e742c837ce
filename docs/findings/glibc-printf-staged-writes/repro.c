/* One printf of 20,000 bytes to a fully buffered stdout (a pipe), then exit. */
#include <stdio.h>
#include <string.h>

int main(void) {
  static char text[20001];
  memset(text, 'x', 20000);
  printf("%s", text);
  return 0;
}
