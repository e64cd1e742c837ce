// libFuzzer target: the script parser the targets and the harness share
// (targets/script/script.c). Any input: a parse or a one-line error, never a
// crash, an overflow or an unterminated message.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

extern "C" {
#include "script.h"
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string src(reinterpret_cast<const char*>(data), size);  // NUL-terminated copy
  static fc_script script;
  char err[256];
  err[sizeof err - 1] = 'x';
  if (fc_parse(src.c_str(), &script, err, sizeof err) != 0) {
    if (std::memchr(err, '\0', sizeof err) == nullptr) __builtin_trap();  // unterminated
    if (std::strchr(err, '\n') != nullptr) __builtin_trap();              // not one line
    if (script.ops != nullptr) __builtin_trap();  // an error leaves nothing to free
  }
  std::free(script.ops);  // the caller's on success
  return 0;
}
