// Several writers at once: processes that share a sink (and, after fork,
// copies of the same stdio buffers).
#include "detail/checks.hpp"

namespace flushcheck::detail {
namespace {

/// How many times NEEDLE occurs in HAY (not overlapping).
std::size_t occurrences(const std::string& hay, const std::string& needle) {
  std::size_t n = 0;
  for (auto at = hay.find(needle); at != std::string::npos; at = hay.find(needle, at + 1)) ++n;
  return n;
}

/// A line buffered before fork() is in both processes' buffers; each
/// flushes its copy at exit. On a tty it went out at its newline. (The
/// first line goes first: musl writes stdout's first line at once.)
verdict fork_duplicates_unflushed_buffer(property_context& ctx) {
  auto obs = ctx.run("line 1; line 3; fork 2; exit 0");
  const std::size_t seen = occurrences(obs.out.data, payload(1, 3) + "\n");
  const std::size_t want = ctx.sink() == sink_kind::pty ? 1 : 2;
  verdict v = status_is(obs, wait_status::exited(0));
  v.pass = v.pass && seen == want;
  v.observed = "the line arrived " + std::to_string(seen) + (seen == 1 ? " time" : " times");
  v.explanation =
      "a line written before fork() and still buffered is written by both "
      "processes at exit (once on a tty, where it went out at its newline): " +
      v.observed + ", stdout " + show(obs.out.data);
  v.figures = {{"copies", static_cast<std::int64_t>(seen)}};
  return v;
}

}  // namespace

void add_concurrency_properties(std::vector<property>& out) {
  out.push_back({.name = "concurrency.fork_duplicates_unflushed_buffer",
                 .group = "concurrency",
                 .level = tier::required,
                 .source = "POSIX fork() (the child gets a copy of the parent's memory, its "
                           "stdio buffers included); POSIX XSH 2.5.1 (flush a stream before "
                           "another handle to the same file is used); ISO C 7.21.3p3 (when a "
                           "fully or line buffered stream is written)",
                 .claim = "a line still buffered at fork() arrives twice (pipe, file), once "
                          "where it was already written (pty, line buffered)",
                 .langs = both_langs,
                 .sinks = all_sinks,
                 .check = fork_duplicates_unflushed_buffer});
}

}  // namespace flushcheck::detail
