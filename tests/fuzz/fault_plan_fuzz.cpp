// libFuzzer target: --fault=WHAT@[DEST:]WHEN parsing. Any input: a plan or a
// usage_error; a plan prints as text that parses back to the same plan.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "error.hpp"
#include "fault_plan.hpp"

namespace {

bool same(const flushcheck::fault_plan& a, const flushcheck::fault_plan& b) {
  return a.where == b.where && a.path == b.path && a.error == b.error &&
         a.short_bytes == b.short_bytes && a.when == b.when && a.n == b.n && a.times == b.times &&
         a.probability == b.probability && a.seed == b.seed;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  flushcheck::fault_plan plan;
  try {
    plan = flushcheck::fault_plan::parse(text);
  } catch (const flushcheck::usage_error&) {
    return 0;
  }
  if (!same(flushcheck::fault_plan::parse(plan.text()), plan)) __builtin_trap();
  if (plan.n < 1 || plan.times < 1 || plan.short_bytes < 0) __builtin_trap();
  if (plan.when == flushcheck::fault_plan::pattern::random &&
      !(plan.probability > 0 && plan.probability <= 1))
    __builtin_trap();
  return 0;
}
