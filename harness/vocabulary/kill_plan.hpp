#pragma once
/// WHEN and HOW the harness kills the child: SIG@WHEN, e.g. "KILL@marker:2".
#include <csignal>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace flushcheck {

struct kill_plan {
  /// Limits parse() holds to: a day of milliseconds (as --timeout), and a
  /// count no run reaches (past it, arithmetic on times would overflow).
  static constexpr long max_time_ms = 86400000;
  static constexpr long max_count = 1000000000000;

  enum class when_kind { never, marker, time, write, after_write };
  when_kind when = when_kind::never;
  long n = 0;  ///< marker or write number (1-based), or milliseconds after the start
  int signal = SIGKILL;
  /// write:N and after-write:N count the writes to stderr's sink instead of
  /// stdout's ("KILL@stderr:write:3"); a traced run times stderr's writes.
  bool on_stderr = false;
  /// Not empty: write:N and after-write:N count the writes to the files
  /// this glob matches instead, a log file the program opens itself
  /// ("KILL@file:/tmp/logs/*.log:write:3"); absolute, as fault_plan's path.
  std::string file{};

  /// "never", "TERM@marker:3", "KILL@time:200", "KILL@write:4" (stopped at
  /// entry of the 4th write-family call to stdout's sink, which never
  /// happens), "KILL@after-write:4" (right after it returns),
  /// "KILL@stderr:write:4" (stderr's sink), "KILL@file:/tmp/app.log:write:4"
  /// (the writes to that file). Throws usage_error.
  static kill_plan parse(std::string_view text);
  /// The WHENs parse takes after SIG@, a number to follow each.
  static const std::vector<std::string_view>& when_forms();
  static kill_plan at_marker(long n, int sig = SIGKILL) { return {when_kind::marker, n, sig}; }
  static kill_plan at_time(long ms, int sig = SIGKILL) { return {when_kind::time, ms, sig}; }
  static kill_plan at_write(long n, int sig = SIGKILL) { return {when_kind::write, n, sig}; }
  static kill_plan after_write(long n, int sig = SIGKILL) {
    return {when_kind::after_write, n, sig};
  }
  /// write:N and after-write:N need the tracer.
  bool needs_tracer() const noexcept {
    return when == when_kind::write || when == when_kind::after_write;
  }
  /// The same plan on stderr's writes (write:N, after-write:N).
  kill_plan on_stderr_stream(bool yes = true) const {
    kill_plan k = *this;
    k.on_stderr = yes;
    return k;
  }
  /// "marker:2", "time:200", "stderr:write:3", "file:/tmp/app.log:write:3", "never".
  std::string when_text() const;
  /// "KILL@marker:2" (parse's inverse).
  std::string text() const;
};

/// "never", "marker", "time", "write", "after-write": how a plan's WHEN names W.
std::string_view to_string(kill_plan::when_kind w) noexcept;

/// What a kill plan did in one run.
struct kill_event {
  int signal = 0;
  std::string when;        ///< "marker:2"
  bool delivered = false;  ///< false: the child ended before the cut point
  std::int64_t t_us = 0;
};

}  // namespace flushcheck
