#pragma once
/// A write that fails, injected by the tracer at a call's entry:
/// "EAGAIN@write:3", "short:1@stderr:write:2x3", "ENOSPC@file:/tmp/x.log:every",
/// "EINTR@random=0.25,seed=7". docs/faults.md says what the injection does.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace flushcheck {

struct fault_plan {
  /// The destination whose write-family calls are counted and faulted.
  enum class target { stdout_sink, stderr_sink, file };
  /// Which of its calls: the N-th (K times from there), every one, or each
  /// with probability P from a seeded generator (the same calls every run).
  enum class pattern { nth, every, random };

  target where = target::stdout_sink;
  /// target::file: absolute, symlinks of existing parts resolved; a glob
  /// (fnmatch(3): "/logs/*.INFO.*") for a file named when the program runs.
  std::string path;
  int error = 0;                 ///< the errno the call fails with; 0: a short write
  std::int64_t short_bytes = 0;  ///< short:K: the kernel is asked for the first K bytes only
  pattern when = pattern::nth;
  std::int64_t n = 1;      ///< nth: the first faulted call (1-based, on the destination)
  std::int64_t times = 1;  ///< nth: how many calls from the N-th (xK)
  double probability = 0;  ///< random
  std::uint64_t seed = 0;  ///< random

  static constexpr std::int64_t max_count = 1000000000000;

  /// WHAT@[DEST:]WHEN. WHAT: an errno name (EAGAIN, EWOULDBLOCK, EINTR,
  /// ENOSPC, EIO, EPIPE, EFBIG, EDQUOT, EBADF) or short:K. DEST: stdout
  /// (the default), stderr or file:PATH (a glob). WHEN: write:N, write:NxK, every or
  /// random=P,seed=S. Throws usage_error ("TEXT: why").
  static fault_plan parse(std::string_view text);
  /// The [DEST:]WHENs parse takes after WHAT@ (a number or value to follow
  /// those ending in ':' or '='); the WHATs are fault_errnos() and "short:".
  static const std::vector<std::string_view>& when_forms();
  /// parse's inverse.
  std::string text() const;
  /// Whether the CALL-th write-family call to the destination (1-based) is faulted.
  bool selects(std::int64_t call) const noexcept;
};

/// The errno names --fault knows, in the order the help lists them.
const std::vector<std::pair<std::string_view, int>>& fault_errnos();
/// "EAGAIN" for EAGAIN, "errno 123" for a number the table does not name.
std::string errno_name(int error);

/// One call a plan selected.
struct fault_event {
  std::int64_t call = 0;  ///< its number on the destination (1-based)
  std::int64_t t_us = 0;
  int pid = 0;
  std::string syscall;         ///< "write", "writev", ...
  std::int64_t requested = 0;  ///< bytes the program asked for
  bool applied = false;
  /// Applied: "EAGAIN" or "short: 1 of 12 bytes". Not applied: why (a short
  /// write no smaller than the call, a call the tracer cannot shorten).
  std::string result;
};

/// A plan and the calls it selected; none: "never reached".
struct fault_result {
  std::string spec;                 ///< fault_plan::text()
  std::vector<fault_event> events;  ///< the first 100,000
  std::int64_t events_dropped = 0;  ///< calls it selected past those
  /// The first call it selected was faulted as planned.
  bool applied() const noexcept { return !events.empty() && events.front().applied; }
};

}  // namespace flushcheck
