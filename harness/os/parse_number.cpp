#include "parse_number.hpp"

#include <charconv>

namespace flushcheck::detail {

std::optional<std::uint64_t> parse_number(std::string_view text, std::uint64_t min,
                                          std::uint64_t max, bool units) {
  std::uint64_t v = 0, unit = 1;
  if (units && !text.empty() && (text.back() == 'K' || text.back() == 'M' || text.back() == 'G')) {
    unit = std::uint64_t{1} << (text.back() == 'K' ? 10 : text.back() == 'M' ? 20 : 30);
    text.remove_suffix(1);
  }
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || p != text.data() + text.size() || v > max / unit)
    return std::nullopt;
  if (v * unit < min) return std::nullopt;
  return v * unit;
}

}  // namespace flushcheck::detail
