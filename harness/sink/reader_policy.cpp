#include "reader_policy.hpp"

#include <cstdint>

#include "error.hpp"
#include "parse_number.hpp"

namespace flushcheck {
namespace {

constexpr std::uint64_t k_max_n = std::uint64_t{1} << 40;

std::uint64_t parse_n(std::string_view n, std::string_view whole, std::uint64_t min) {
  auto v = detail::parse_number(n, min, k_max_n);
  if (!v)
    throw usage_error(std::string(whole) + ": '" + std::string(n) + "' is not a number from " +
                      std::to_string(min) + " to 2^40");
  return *v;
}

/// rate=BYTES's bytes a second, with a K, M or G suffix.
std::uint64_t parse_rate(std::string_view bytes, std::string_view whole) {
  auto v = detail::parse_number(bytes, 1, k_max_n, true);
  if (!v)
    throw usage_error(std::string(whole) + ": '" + std::string(bytes) +
                      "' is not a byte rate from 1 to 2^40 a second (K, M, G: powers of 1024)");
  return *v;
}

}  // namespace

const std::vector<std::string_view>& reader_policy::forms() {
  static const std::vector<std::string_view> all{
      "prompt",       "paused", "paused-until=marker:", "chunk=",
      "close-after=", "rate=",  "paused-then-close="};
  return all;
}

reader_policy reader_policy::parse(std::string_view text) {
  if (text == "prompt") return {};
  if (text == "paused") return {kind::paused, 0};
  if (text.starts_with("paused-until=marker:"))
    return {kind::paused_until, parse_n(text.substr(20), text, 1)};
  if (text.starts_with("chunk=")) return {kind::chunk, parse_n(text.substr(6), text, 1)};
  if (text.starts_with("close-after="))
    return {kind::close_after, parse_n(text.substr(12), text, 0)};
  if (text.starts_with("paused-then-close="))
    return {kind::paused_then_close, parse_n(text.substr(18), text, 1)};
  if (text.starts_with("rate=")) return {kind::rate, parse_rate(text.substr(5), text)};
  throw usage_error(std::string(text) +
                    ": expected prompt, paused, paused-until=marker:N, chunk=N, close-after=N, "
                    "rate=BYTES or paused-then-close=MS");
}

std::string reader_policy::text() const {
  switch (what) {
    case kind::prompt: return "prompt";
    case kind::paused: return "paused";
    case kind::paused_until: return "paused-until=marker:" + std::to_string(n);
    case kind::chunk: return "chunk=" + std::to_string(n);
    case kind::close_after: return "close-after=" + std::to_string(n);
    case kind::rate: return "rate=" + std::to_string(n);
    case kind::paused_then_close: return "paused-then-close=" + std::to_string(n);
  }
  return "?";
}

}  // namespace flushcheck
