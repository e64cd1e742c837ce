#include "derived_cuts.hpp"

#include <algorithm>
#include <csignal>
#include <cstdint>

#include "sink_kind.hpp"

namespace flushcheck::detail {

namespace {

/// "its writes to stdout's sink" or stderr's.
std::string stream_writes_text(const explored_sink& s) {
  return std::string("its writes to ") + (s.on_stderr ? "stderr" : "stdout") + "'s sink";
}

/// Why the traced calls of S's uncut run leave the reader with other bytes
/// than its writes' ("" if they do not): a call with an offset or a count
/// the trace does not know, or bytes that do not add up.
std::string why_writes_do_not_add_up(const explored_sink& s, const trace_summary& t) {
  std::uint64_t sum = 0;
  for (const trace_event* e : t.stream_writes(s.on_stderr)) {
    if (e->call != traced_call::write && e->call != traced_call::writev)
      return stream_writes_text(s) + " include " + to_string(e->call) +
             " (only write and writev are derived)";
    sum += static_cast<std::uint64_t>(e->bytes_written());
  }
  if (sum == s.reference_bytes) return "";
  return stream_writes_text(s) + " add up to " + std::to_string(sum) +
         " bytes and the reader got " + std::to_string(s.reference_bytes) +
         " (a failed or short write, or a terminal's newline translation)";
}

/// The THIN evenly spaced ones of V (the first and the last in when THIN > 1).
std::vector<std::size_t> thinned(const std::vector<std::size_t>& v, std::size_t thin) {
  std::vector<std::size_t> out;
  if (thin == 1) out.push_back(v[v.size() / 2]);
  for (std::size_t j = 0; thin > 1 && j < thin; ++j)
    out.push_back(v[j * (v.size() - 1) / (thin - 1)]);
  return out;
}

/// The most of V that fit, thinned evenly, in BUDGET writes (REACHED: the
/// write each reaches) and ROOM runs: a binary search on the count, for a
/// thinned sample's cost grows with it.
std::size_t most_that_fit(const std::vector<std::size_t>& v, const std::vector<long>& reached,
                          long budget, std::size_t room) {
  const auto cost = [&](const std::vector<std::size_t>& picked) {
    long sum = 0;
    for (std::size_t i : picked) sum += reached[i];
    return sum;
  };
  std::size_t fit = 0, most = std::min(v.size(), room);
  while (fit < most) {
    const std::size_t k = (fit + most + 1) / 2;
    if (cost(thinned(v, k)) <= budget)
      fit = k;
    else
      most = k - 1;
  }
  return fit;
}

}  // namespace

std::string why_not_derivable(const explored_sink& s) {
  if (!s.reference.trace) return "the uncut run was not traced";
  const trace_summary& t = *s.reference.trace;
  if (t.processes > 1)
    return "the uncut run had " + std::to_string(t.processes) +
           " processes and threads: what a cut leaves depends on how they interleave";
  if (t.events_dropped > 0)
    return "the trace's event log dropped " + std::to_string(t.events_dropped) + " calls";
  if (!sink_shows_data(s.sink))
    return "no reader sees the bytes of " + std::string(to_string(s.sink));
  return why_writes_do_not_add_up(s, t);
}

bool derivable(const kill_plan& cut) {
  using when = kill_plan::when_kind;
  return cut.signal == SIGKILL && cut.file.empty() &&
         (cut.when == when::write || cut.when == when::after_write);
}

write_ends::write_ends(const trace_summary& t, bool on_stderr) {
  ends_.push_back(0);
  for (const trace_event* e : t.stream_writes(on_stderr))
    ends_.push_back(ends_.back() + static_cast<std::uint64_t>(e->bytes_written()));
}

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

std::vector<std::size_t> cuts_to_verify(const std::vector<long>& reached,
                                        const std::vector<bool>& torn, long budget,
                                        std::size_t max) {
  const std::size_t n = reached.size(), room = max > 2 ? max - 2 : 0;
  std::vector<std::size_t> changes, spaced, out;
  for (std::size_t i = 1; i + 1 < n; ++i)
    if (torn[i] != torn[i - 1])
      changes.push_back(i);
    else if (i % 64 == 0)
      spaced.push_back(i);
  for (std::size_t i : changes)  // each change that fits, the cheaper (earlier) first
    if (out.size() < room && reached[i] <= budget) {
      out.push_back(i);
      budget -= reached[i];
    }
  for (std::size_t i : thinned(spaced, most_that_fit(spaced, reached, budget, room - out.size())))
    out.push_back(i);
  if (n > 0) out.push_back(0);  // the first and the last, whatever MAX
  if (n > 1) out.push_back(n - 1);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace flushcheck::detail
