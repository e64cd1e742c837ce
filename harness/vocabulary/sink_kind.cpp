// The sink kinds' names, for flags, reports and gate files.
#include "sink_kind.hpp"

#include <utility>

namespace flushcheck {

namespace {
constexpr std::pair<sink_kind, std::string_view> k_names[] = {
    {sink_kind::pty, "pty"},   {sink_kind::pty_cooked, "pty-cooked"},
    {sink_kind::pipe, "pipe"}, {sink_kind::file, "file"},
    {sink_kind::null, "null"}, {sink_kind::full, "full"},
};
}  // namespace

std::string_view to_string(sink_kind kind) noexcept {
  for (auto [k, name] : k_names)
    if (k == kind) return name;
  return "?";
}

std::optional<sink_kind> parse_sink_kind(std::string_view text) noexcept {
  for (auto [k, name] : k_names)
    if (name == text) return k;
  return std::nullopt;
}

std::vector<std::string_view> sink_kind_names() {
  std::vector<std::string_view> names;
  for (auto [k, name] : k_names) names.push_back(name);
  return names;
}

}  // namespace flushcheck
