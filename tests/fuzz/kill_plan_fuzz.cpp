// libFuzzer target: --kill=SIG@WHEN parsing. Any input: a plan or a
// usage_error; a plan prints as text that parses back to the same plan.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "error.hpp"
#include "kill_plan.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  flushcheck::kill_plan plan;
  try {
    plan = flushcheck::kill_plan::parse(text);
  } catch (const flushcheck::usage_error&) {
    return 0;
  }
  auto again = flushcheck::kill_plan::parse(plan.text());
  if (again.when != plan.when || again.n != plan.n || again.signal != plan.signal ||
      again.on_stderr != plan.on_stderr || again.file != plan.file)
    __builtin_trap();
  if (plan.on_stderr && !plan.file.empty()) __builtin_trap();
  if (plan.n < 0 || plan.n > flushcheck::kill_plan::max_count) __builtin_trap();
  return 0;
}
