// Hand-check: cout and printf after sync_with_stdio(false), then a normal
// return. The order on a pipe shows whether cout kept its own buffer.
#include <cstdio>
#include <iostream>

int main() {
  std::ios::sync_with_stdio(false);
  std::cout << "AA";
  std::printf("bb");
  std::cout << "CC";
  std::printf("dd");
  std::cout << '\n';
  return 0;
}
