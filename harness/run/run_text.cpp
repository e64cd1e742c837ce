// The run report for people: the summary `flushcheck run` prints.
#include <cstdint>
#include <sstream>

#include "escape.hpp"
#include "number_format.hpp"
#include "run_report.hpp"
#include "signals.hpp"
#include "timeline.hpp"

namespace flushcheck {

namespace {

/// "fault:   EAGAIN@write:2x2: write #2 (4 bytes): EAGAIN at 1.2 ms; ...".
std::string fault_line(const fault_result& f) {
  std::string line = "fault:   " + f.spec + ": ";
  if (f.events.empty()) return line + "never reached\n";
  constexpr std::size_t shown = 5;
  for (std::size_t i = 0; i < f.events.size() && i < shown; ++i) {
    const auto& e = f.events[i];
    std::ostringstream one;
    one << (i ? "; " : "") << e.syscall << " #" << e.call << " (" << e.requested
        << " bytes): " << e.result << " at " << millis(e.t_us) << " ms";
    line += one.str();
  }
  auto more = static_cast<std::int64_t>(f.events.size()) + f.events_dropped -
              static_cast<std::int64_t>(std::min(f.events.size(), shown));
  if (more > 0) line += "; and " + std::to_string(more) + " more (--json lists them)";
  return line + "\n";
}

/// --timeline: "timeline: 3 writes to stdout returned, ...; the longest, write #2 ...".
std::string timeline_line(const trace_summary& t, const stream_observation& out) {
  if (!t.writes_timed) return "";
  auto w = detail::stdout_write_timing(t);
  std::ostringstream s;
  s << "timeline: " << w.timed << " writes to stdout returned, " << millis(w.blocked_us)
    << " ms in them";
  if (w.longest)
    s << "; the longest, write #" << w.longest->number << " (" << w.longest->bytes << " bytes) at "
      << millis(w.longest->t_us) << " ms, blocked " << millis(w.longest->blocked_us) << " ms";
  if (w.never_returned > 0) s << "; " << w.never_returned << " never returned";
  if (!out.chunks.empty()) {
    auto first = detail::writes_before_chunks(t, stream_role::out, {out.chunks.front()}).front();
    s << "; the first chunk arrived at " << millis(out.chunks.front().t_us) << " ms, after "
      << first.entered << " writes had entered";
  }
  return s.str() + "\n";
}

}  // namespace

std::string fault_lines(const trace_summary& t) {
  std::string out;
  for (const auto& f : t.faults) out += fault_line(f);
  return out;
}

std::string to_text(const observation& obs) {
  std::ostringstream s;
  s << "exit:    " << obs.status.describe() << "\n";
  if (obs.kill) {
    s << "kill:    SIG" << signal_name(obs.kill->signal) << " at " << obs.kill->when;
    if (obs.kill->delivered)
      s << ", delivered at " << millis(obs.kill->t_us) << " ms\n";
    else
      s << ", not delivered (the program ended before that point)\n";
  }
  auto stream = [&](const char* name, const stream_observation& st) {
    if (st.sink == "stdout") {
      s << name << ":  merged into stdout\n";
      return;
    }
    s << name << ":  " << st.bytes << " bytes on " << st.sink;
    if (!st.fs.empty()) s << " (" << st.fs << ")";
    if (st.reads != 0 && st.sink != "file") s << " in " << st.reads << " reads";
    if (!st.reader.empty() && st.reader != "prompt") s << " (reader " << st.reader << ")";
    s << "\n";
    if (st.dropped != 0)
      s << "  kept:    " << st.data.size() << " of them (--keep=" << st.kept << "): bytes "
        << st.dropped_at << " to " << st.dropped_at + st.dropped - 1 << " were dropped; xxh3 "
        << st.hash << " is of all\n";
    if (!st.data.empty()) s << "  survived: \"" << printable(st.data, 200) << "\"\n";
  };
  stream("stdout", obs.out);
  stream("stderr", obs.err);
  for (std::size_t i = 0; i < obs.markers.size(); ++i) {
    const auto& m = obs.markers[i];
    s << "marker " << i + 1 << " '" << m.label << "' at " << millis(m.t_us)
      << " ms: visible stdout " << m.stdout_visible << ", stderr " << m.stderr_visible << "\n";
  }
  if (obs.trace)
    for (const auto& d : obs.trace->destinations)
      if (d.write_calls > 0)
        s << "writes:  " << d.write_calls << " calls made, " << d.bytes << " bytes to " << d.what
          << (d.role == stream_role::none ? "" : " (" + std::string(to_string(d.role)) + ")")
          << "\n";
  if (obs.trace && obs.trace->stopped)
    s << "stopped: " << to_string(obs.trace->stopped->call) << " of " << obs.trace->stopped->bytes
      << " bytes to " << stopped_destination(*obs.trace) << ", at its entry ("
      << (obs.kill ? obs.kill->when : std::string("the cut")) << "): it never ran\n";
  if (obs.trace) s << fault_lines(*obs.trace) << timeline_line(*obs.trace, obs.out);
  for (const auto& n : obs.notes) s << "note:    " << n << "\n";
  return terminal_text(s.str());
}

}  // namespace flushcheck
