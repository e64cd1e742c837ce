#pragma once
/// Where one of the program's streams went: a sink of its own, or stdout's
/// when stderr was merged into it (2>&1). Reports spell it by name(); below
/// them it is compared as a type, never by its text.
#include <optional>
#include <string_view>

#include "sink_kind.hpp"

namespace flushcheck {

class destination {
 public:
  /// None: the stream was not observed.
  constexpr destination() noexcept = default;
  constexpr explicit destination(sink_kind kind) noexcept : kind_(kind) {}
  /// stderr's, merged into stdout's sink (2>&1).
  static constexpr destination merged_into_stdout() noexcept {
    destination d;
    d.merged_ = true;
    return d;
  }

  constexpr bool merged() const noexcept { return merged_; }
  /// Its own sink's kind; nullopt when merged or none.
  constexpr std::optional<sink_kind> sink() const noexcept { return kind_; }
  /// As reports and JSON spell it: the sink's name ("pipe", "pty", ...),
  /// "stdout" when merged, "" when none.
  std::string_view name() const noexcept;

  constexpr bool operator==(const destination&) const noexcept = default;

 private:
  std::optional<sink_kind> kind_;
  bool merged_ = false;
};

}  // namespace flushcheck
