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

/// "write #2 (4 bytes): EAGAIN at 1.2 ms".
std::string fault_event_text(const fault_event& e) {
  std::ostringstream one;
  one << e.syscall << " #" << e.call << " (" << e.requested << " bytes): " << e.result << " at "
      << millis(e.t_us) << " ms";
  return one.str();
}

/// "fault:   EAGAIN@write:2x2: write #2 (4 bytes): EAGAIN at 1.2 ms; ...".
std::string fault_line(const fault_result& f) {
  std::string line = "fault:   " + f.spec + ": ";
  if (f.events.empty()) return line + "never reached\n";
  constexpr std::size_t shown = 5;
  for (std::size_t i = 0; i < f.events.size() && i < shown; ++i)
    line += (i ? "; " : "") + fault_event_text(f.events[i]);
  auto more = static_cast<std::int64_t>(f.events.size()) + f.events_dropped -
              static_cast<std::int64_t>(std::min(f.events.size(), shown));
  if (more > 0) line += "; and " + std::to_string(more) + " more (--json lists them)";
  return line + "\n";
}

/// "; the first chunk arrived at 1.2 ms, after 2 writes had entered".
void first_chunk_clause(std::ostream& s, const trace_summary& t, const stream_observation& out) {
  auto first = detail::writes_before_chunks(t, stream_role::out, {out.chunks.front()}).front();
  s << "; the first chunk arrived at " << millis(out.chunks.front().t_us) << " ms, after "
    << first.entered << " writes had entered";
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
  if (!out.chunks.empty()) first_chunk_clause(s, t, out);
  return s.str() + "\n";
}

/// "kill:    SIGKILL at marker:1, delivered at 29.812 ms".
void kill_line(std::ostream& s, const kill_event& k) {
  s << "kill:    SIG" << signal_name(k.signal) << " at " << k.when;
  if (k.delivered)
    s << ", delivered at " << millis(k.t_us) << " ms\n";
  else
    s << ", not delivered (the program ended before that point)\n";
}

/// What was kept of ST's bytes when not all were, and what survived.
void kept_lines(std::ostream& s, const stream_observation& st) {
  if (st.dropped != 0)
    s << "  kept:    " << st.data.size() << " of them (--keep=" << st.kept << "): bytes "
      << st.dropped_at << " to " << st.dropped_at + st.dropped - 1 << " were dropped; xxh3 "
      << st.hash << " is of all\n";
  if (!st.data.empty()) s << "  survived: \"" << printable(st.data, 200) << "\"\n";
}

/// "stdout:  12 bytes on pipe in 2 reads", then kept_lines.
void stream_lines(std::ostream& s, const char* name, const stream_observation& st) {
  if (st.sink.merged()) {
    s << name << ":  merged into stdout\n";
    return;
  }
  s << name << ":  " << st.bytes << " bytes on " << st.sink.name();
  if (!st.fs.empty()) s << " (" << st.fs << ")";
  if (st.reads != 0 && st.sink != destination(sink_kind::file)) s << " in " << st.reads << " reads";
  if (!st.reader.empty() && st.reader != "prompt") s << " (reader " << st.reader << ")";
  s << "\n";
  kept_lines(s, st);
}

/// "marker 1 'cut' at 29.713 ms: visible stdout 0, stderr 0".
void marker_event_lines(std::ostream& s, const std::vector<marker_event>& markers) {
  for (std::size_t i = 0; i < markers.size(); ++i) {
    const auto& m = markers[i];
    s << "marker " << i + 1 << " '" << m.label << "' at " << millis(m.t_us)
      << " ms: visible stdout " << m.stdout_visible << ", stderr " << m.stderr_visible << "\n";
  }
}

/// What the tracer saw: the writes per destination, the call a cut stopped,
/// the faults and the timeline.
void trace_lines(std::ostream& s, const observation& obs) {
  const trace_summary& t = *obs.trace;
  for (const auto& d : t.destinations)
    if (d.write_calls > 0)
      s << "writes:  " << d.write_calls << " calls made, " << d.bytes << " bytes to " << d.what
        << (d.role == stream_role::none ? "" : " (" + std::string(to_string(d.role)) + ")") << "\n";
  if (t.stopped)
    s << "stopped: " << to_string(t.stopped->call) << " of " << t.stopped->bytes << " bytes to "
      << stopped_destination(t) << ", at its entry ("
      << (obs.kill ? obs.kill->when : std::string("the cut")) << "): it never ran\n";
  s << fault_lines(t) << timeline_line(t, obs.out);
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
  if (obs.kill) kill_line(s, *obs.kill);
  stream_lines(s, "stdout", obs.out);
  stream_lines(s, "stderr", obs.err);
  marker_event_lines(s, obs.markers);
  if (obs.trace) trace_lines(s, obs);
  for (const auto& n : obs.notes) s << "note:    " << n << "\n";
  return terminal_text(s.str());
}

}  // namespace flushcheck
