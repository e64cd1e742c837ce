// libFuzzer target: the control channel's line splitter. The first byte
// chooses where the rest is cut into reads; the labels must not depend on
// how the bytes arrived, and must be what a plain split says: every
// complete line of at most 64 KiB, in order.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "marker_lines.hpp"

namespace {

std::vector<std::string> reference(std::string_view s) {
  std::vector<std::string> lines;
  for (auto nl = s.find('\n'); nl != std::string_view::npos; nl = s.find('\n')) {
    if (nl <= flushcheck::detail::marker_lines::max_label) lines.emplace_back(s.substr(0, nl));
    s.remove_prefix(nl + 1);
  }
  return lines;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  std::size_t step = data[0] + 1u;
  std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  flushcheck::detail::marker_lines lines;
  std::vector<std::string> got;
  for (std::size_t at = 0; at < bytes.size(); at += step)
    for (auto& l : lines.feed(bytes.substr(at, step))) got.push_back(std::move(l));
  if (got != reference(bytes)) __builtin_trap();
  return 0;
}
