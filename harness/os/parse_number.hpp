#pragma once
/// The one parser of the numbers in flags (--kill, --keep, --reader, --fault):
/// the whole text, decimal, within a range; each flag words its own error.
#include <cstdint>
#include <optional>
#include <string_view>

namespace flushcheck::detail {

/// TEXT as a whole decimal number from MIN to MAX, or nullopt (empty, a sign,
/// other characters, out of range). With UNITS, a K, M or G suffix multiplies
/// by 2^10, 2^20 or 2^30 before the range check.
std::optional<std::uint64_t> parse_number(std::string_view text, std::uint64_t min,
                                          std::uint64_t max, bool units = false);

}  // namespace flushcheck::detail
