#pragma once
/// The kinds of sink a child's fd 1 or 2 can go to, and their names.
#include <optional>
#include <string_view>
#include <vector>

namespace flushcheck {

enum class sink_kind { pty, pty_cooked, pipe, file, null, full };

/// Is a sink of KIND a terminal (isatty is true for the child's fd)? The one
/// place that says which kinds are: the model, the checks and the sink ask it.
constexpr bool is_tty(sink_kind kind) noexcept {
  return kind == sink_kind::pty || kind == sink_kind::pty_cooked;
}

/// Does a reader see the bytes (not /dev/null, not /dev/full)? The model and
/// the run's picture ask it.
constexpr bool sink_shows_data(sink_kind kind) noexcept {
  return kind != sink_kind::null && kind != sink_kind::full;
}

/// The sinks the catalogue's rows run on: a terminal, a pipe, a file.
inline const std::vector<sink_kind> all_sinks = {sink_kind::pty, sink_kind::pipe, sink_kind::file};
/// Those of them where stdio buffers fully: a pipe and a file.
inline const std::vector<sink_kind> buffered_sinks = {sink_kind::pipe, sink_kind::file};

/// "pty", "pty-cooked", "pipe", "file", "null", "full".
std::string_view to_string(sink_kind kind) noexcept;
std::optional<sink_kind> parse_sink_kind(std::string_view text) noexcept;
/// Every kind's name, in the table's order (completions, the man page).
std::vector<std::string_view> sink_kind_names();

}  // namespace flushcheck
