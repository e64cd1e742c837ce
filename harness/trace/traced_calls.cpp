#include "traced_calls.hpp"

namespace flushcheck {

const char* to_string(traced_call c) noexcept { return info(c).name; }
call_family family_of(traced_call c) noexcept { return info(c).family; }

std::optional<traced_call> traced_call_of(long nr) noexcept {
  for (const auto& c : traced_calls)
    if (c.nr == nr) return c.call;
  return std::nullopt;
}

}  // namespace flushcheck
