#include "derived_cuts.hpp"

#include <algorithm>
#include <csignal>
#include <cstdint>

#include "sink_kind.hpp"
#include "write_cuts.hpp"

namespace flushcheck::detail {

namespace {

/// "its writes to stdout's sink" or stderr's.
std::string stream_writes_text(const explored_sink& s) {
  return std::string("its writes to ") + (s.on_stderr ? "stderr" : "stdout") + "'s sink";
}

}  // namespace

std::string why_not_derivable(const explored_sink& s) {
  if (!s.reference.trace) return "the uncut run was not traced";
  const trace_summary& t = *s.reference.trace;
  if (auto why = why_trace_not_derivable(t); !why.empty()) return why;
  if (!sink_shows_data(s.sink))
    return "no reader sees the bytes of " + std::string(to_string(s.sink));
  return why_writes_do_not_add_up(t.stream_writes(s.on_stderr), s.reference_bytes,
                                  stream_writes_text(s));
}

bool derivable(const kill_plan& cut) {
  using when = kill_plan::when_kind;
  return cut.signal == SIGKILL && cut.file.empty() &&
         (cut.when == when::write || cut.when == when::after_write);
}

write_ends::write_ends(const trace_summary& t, bool on_stderr)
    : ends_(flushcheck::write_ends(t.stream_writes(on_stderr))) {}

std::uint64_t write_ends::at(const kill_plan& cut) const {
  const long before = cut.when == kill_plan::when_kind::write ? cut.n - 1 : cut.n;
  return ends_[static_cast<std::size_t>(
      std::clamp<long>(before, 0, static_cast<long>(ends_.size()) - 1))];
}

line_cursor::position line_cursor::at(std::uint64_t bytes) {
  if (bytes < pos_.whole_bytes) pos_ = {};
  while (pos_.lines < lines_.size() && pos_.whole_bytes + lines_[pos_.lines].size + 1 <= bytes) {
    pos_.whole_bytes += lines_[pos_.lines].size + 1;
    ++pos_.lines;
  }
  return pos_;
}

explored_cut derived_cut(const reference_output& ref, line_cursor& lines, const kill_plan& cut,
                         std::uint64_t bytes, const keep_policy& keep) {
  explored_cut c;
  c.cut = cut;
  c.derived = true;
  c.delivered = true;
  c.status = wait_status::signaled(cut.signal);
  c.survived = ref.kept(bytes, keep);
  c.bytes = bytes;
  const line_cursor::position whole = lines.at(bytes);
  c.lines_survived = static_cast<std::size_t>(whole.lines);
  c.whole_bytes = whole.whole_bytes;
  const std::size_t budget = text_budget(keep);
  c.torn = ref.read(whole.whole_bytes, static_cast<std::size_t>(std::min<std::uint64_t>(
                                           bytes - whole.whole_bytes, budget)));
  c.lines_lost = static_cast<std::size_t>(ref.lines() - whole.lines);
  c.lost = ref.lines_from(whole.whole_bytes, budget);
  return c;
}

std::string disagreement(const explored_cut& derived, const explored_cut& real) {
  const std::string when = real.cut.when_text() + ", run for real,";
  if (!real.delivered) return when + " was never reached (" + real.status.describe() + ")";
  if (real.status != derived.status)
    return when + " " + real.status.describe() + " where the derivation says " +
           derived.status.describe();
  if (real.prefix && real.bytes == derived.bytes) return "";
  return when + " left " + std::to_string(real.bytes) + " bytes" +
         (real.prefix ? "" : ", not a prefix of the uncut run's,") + " where the derivation says " +
         std::to_string(derived.bytes);
}

}  // namespace flushcheck::detail
