// libFuzzer target: gate files (TOML, docs/gate.md). Any input: a gate file
// or a usage_error "PATH:LINE: reason" on one line (whatever bytes the file
// holds); a gate file's every case has a name, a command and an expectation.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "error.hpp"
#include "gate_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  flushcheck::gate_file f;
  try {
    f = flushcheck::parse_gate_text(text, "fuzz.toml", {"app=/bin/true"});
  } catch (const flushcheck::usage_error& e) {
    std::string_view why = e.what();
    if (why.rfind("fuzz.toml:", 0) != 0) __builtin_trap();
    if (why.find('\n') != std::string_view::npos) __builtin_trap();  // one line, always
    return 0;
  }
  if (f.cases.empty()) __builtin_trap();
  for (const auto& c : f.cases)
    if (c.name.empty() || c.argv.empty() || c.expect.empty()) __builtin_trap();
  return 0;
}
