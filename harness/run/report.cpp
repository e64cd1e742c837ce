#include "report.hpp"

#include <sstream>

#include "json_document.hpp"
#include "number_format.hpp"
#include "signals.hpp"
#include "timeline.hpp"

namespace flushcheck {

std::string bytes_as_code_points(const std::string& bytes) {
  std::string out;
  out.reserve(bytes.size());
  for (unsigned char c : bytes) {
    if (c < 0x80) {
      out += static_cast<char>(c);
    } else {  // U+0080..U+00FF in UTF-8
      out += static_cast<char>(0xC0 | (c >> 6));
      out += static_cast<char>(0x80 | (c & 0x3F));
    }
  }
  return out;
}

nlohmann::json strings_json(const std::vector<std::string>& v) {
  nlohmann::json a = nlohmann::json::array();
  for (const auto& s : v) a.push_back(bytes_as_code_points(s));
  return a;
}

namespace {

/// With a trace: each chunk also says how many writes to the stream's sink
/// had entered (and, timed, returned) when it arrived.
nlohmann::json chunks_json(const stream_observation& s, const trace_summary* t,
                           const std::string& role) {
  nlohmann::json chunks = nlohmann::json::array();
  std::vector<detail::chunk_writes> w;
  if (t) w = detail::writes_before_chunks(*t, role, s.chunks);
  for (std::size_t i = 0; i < s.chunks.size(); ++i) {
    nlohmann::json c = {{"t_us", s.chunks[i].t_us}, {"bytes", s.chunks[i].bytes}};
    auto known = [](std::int64_t n) { return n < 0 ? nlohmann::json() : nlohmann::json(n); };
    if (t) c["writes_entered"] = known(w[i].entered);
    if (t && t->writes_timed) c["writes_returned"] = known(w[i].returned);
    chunks.push_back(std::move(c));
  }
  return chunks;
}

nlohmann::json stream_json(const stream_observation& s, const trace_summary* t,
                           const std::string& role) {
  nlohmann::json chunks = chunks_json(s, t, role);
  return {{"sink", s.sink},
          {"data", bytes_as_code_points(s.data)},
          {"bytes", s.bytes},
          {"hash", s.hash},
          {"kept", s.kept},
          {"reader", s.reader},
          {"pipe_size", s.pipe_size},
          {"fs", s.fs},
          {"dropped_at", s.dropped_at},
          {"dropped", s.dropped},
          {"reads", s.reads},
          {"chunks", chunks}};
}

nlohmann::json calls_json(const std::array<std::int64_t, traced_call_count>& calls) {
  nlohmann::json by_call = nlohmann::json::object();
  for (std::size_t c = 0; c < traced_call_count; ++c)
    if (calls[c] != 0) by_call[traced_calls[c].name] = calls[c];
  return by_call;
}

/// Lower bound of each power-of-2 bucket -> count.
nlohmann::json sizes_json(const destination_counters& d) {
  nlohmann::json sizes = nlohmann::json::object();
  for (std::size_t b = 0; b < d.size_histogram.size(); ++b)
    if (d.size_histogram[b] != 0) sizes[std::to_string(b == 0 ? 0 : 1L << b)] = d.size_histogram[b];
  return sizes;
}

/// Where the call a write:N cut stopped was going: "pipe:[123] (stdout)".
std::string stopped_destination(const trace_summary& t) {
  const int d = t.stopped ? t.stopped->dest : -1;
  if (d < 0 || static_cast<std::size_t>(d) >= t.destinations.size())
    return "fd " + std::to_string(t.stopped ? t.stopped->fd : -1);
  const auto& dest = t.destinations[static_cast<std::size_t>(d)];
  return dest.what + (dest.role.empty() ? "" : " (" + dest.role + ")");
}

}  // namespace

nlohmann::json writes_json(const trace_summary& t) {
  nlohmann::json writes = nlohmann::json::array();
  for (const auto& d : t.destinations)
    writes.push_back({{"fd", d.fds.empty() ? -1 : d.fds.front()},
                      {"fds", d.fds},
                      {"what", bytes_as_code_points(d.what)},
                      {"role", d.role},
                      {"calls", d.write_calls},
                      {"bytes", d.bytes},
                      {"by_call", calls_json(d.calls)},
                      {"sizes", sizes_json(d)}});
  return writes;
}

nlohmann::json trace_json(const trace_summary& t) {
  nlohmann::json events = nlohmann::json::array();
  for (const auto& e : t.events)
    events.push_back({e.t_us, e.pid, to_string(e.call), e.fd, e.bytes, e.returned_us, e.result});
  nlohmann::json stopped;  // null: no call was stopped at its entry
  if (t.stopped)
    stopped = {{"t_us", t.stopped->t_us},
               {"pid", t.stopped->pid},
               {"call", to_string(t.stopped->call)},
               {"fd", t.stopped->fd},
               {"bytes", t.stopped->bytes},
               {"what", stopped_destination(t)}};
  return {{"events", events},
          {"event_fields", {"t_us", "pid", "call", "fd", "bytes", "returned_us", "result"}},
          {"stopped", stopped},
          {"writes_timed", t.writes_timed},
          {"events_dropped", t.events_dropped},
          {"totals", calls_json(t.totals)},
          {"stops", t.stops},
          {"processes", t.processes}};
}

nlohmann::json faults_json(const trace_summary& t) {
  nlohmann::json faults = nlohmann::json::array();
  for (const auto& f : t.faults) {
    nlohmann::json events = nlohmann::json::array();
    for (const auto& e : f.events)
      events.push_back({{"call", e.call},
                        {"t_us", e.t_us},
                        {"pid", e.pid},
                        {"syscall", e.syscall},
                        {"requested", e.requested},
                        {"applied", e.applied},
                        {"result", e.result}});
    faults.push_back({{"spec", bytes_as_code_points(f.spec)},
                      {"reached", !f.events.empty()},
                      {"events", events},
                      {"events_dropped", f.events_dropped}});
  }
  return faults;
}

nlohmann::json to_json(const wait_status& status) {
  nlohmann::json exit{{"status", status.type_name()}};
  if (status.type() == wait_status::kind::exited)
    exit["code"] = status.code();
  else
    exit["signal"] = signal_name(status.signal());
  return exit;
}

nlohmann::json to_json(const observation& obs) {
  nlohmann::json j = json_document(json_kind::run);
  j["argv"] = strings_json(obs.argv);
  j["exit"] = to_json(obs.status);
  if (obs.kill)
    j["kill"] = {{"signal", signal_name(obs.kill->signal)},
                 {"when", obs.kill->when},
                 {"delivered", obs.kill->delivered},
                 {"t_us", obs.kill->t_us}};
  else
    j["kill"] = nullptr;
  const trace_summary* t = obs.trace ? &*obs.trace : nullptr;
  j["stdout"] = stream_json(obs.out, t, "stdout");
  if (obs.err.sink == "stdout")
    j["stderr"] = {{"sink", "stdout"}};
  else
    j["stderr"] = stream_json(obs.err, t, "stderr");
  nlohmann::json markers = nlohmann::json::array();
  for (const auto& m : obs.markers)
    markers.push_back({{"label", bytes_as_code_points(m.label)},
                       {"t_us", m.t_us},
                       {"visible", {{"stdout", m.stdout_visible}, {"stderr", m.stderr_visible}}}});
  j["markers"] = markers;
  j["notes"] = strings_json(obs.notes);
  j["faults"] = obs.trace ? faults_json(*obs.trace) : nlohmann::json::array();
  if (obs.trace) {
    j["writes"] = writes_json(*obs.trace);
    j["trace"] = trace_json(*obs.trace);
  }
  j["duration_us"] = obs.duration_us;
  return j;
}

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
    auto first = detail::writes_before_chunks(t, "stdout", {out.chunks.front()}).front();
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

std::string summary(const observation& obs) {
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
          << (d.role.empty() ? "" : " (" + d.role + ")") << "\n";
  if (obs.trace && obs.trace->stopped)
    s << "stopped: " << to_string(obs.trace->stopped->call) << " of " << obs.trace->stopped->bytes
      << " bytes to " << stopped_destination(*obs.trace) << ", at its entry ("
      << (obs.kill ? obs.kill->when : std::string("the cut")) << "): it never ran\n";
  if (obs.trace) s << fault_lines(*obs.trace) << timeline_line(*obs.trace, obs.out);
  for (const auto& n : obs.notes) s << "note:    " << n << "\n";
  return s.str();
}

}  // namespace flushcheck
