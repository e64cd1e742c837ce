// The run report as JSON (docs/cli.md, "--json"): every byte string encoded
// as "data" is, the trace, the faults.
#include "run_report.hpp"

#include <cstdint>
#include <sstream>

#include "json_document.hpp"
#include "number_format.hpp"
#include "signals.hpp"
#include "timeline.hpp"
#include "traced_call.hpp"

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
nlohmann::json chunks_json(const stream_observation& s, const trace_summary* t, stream_role role) {
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

nlohmann::json stream_json(const stream_observation& s, const trace_summary* t, stream_role role) {
  nlohmann::json chunks = chunks_json(s, t, role);
  return {{"sink", std::string(s.sink.name())},
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
    if (calls[c] != 0) by_call[to_string(static_cast<traced_call>(c))] = calls[c];
  return by_call;
}

/// Lower bound of each power-of-2 bucket -> count.
nlohmann::json sizes_json(const destination_counters& d) {
  nlohmann::json sizes = nlohmann::json::object();
  for (std::size_t b = 0; b < d.size_histogram.size(); ++b)
    if (d.size_histogram[b] != 0) sizes[std::to_string(b == 0 ? 0 : 1L << b)] = d.size_histogram[b];
  return sizes;
}

}  // namespace

std::string stopped_destination(const trace_summary& t) {
  const int d = t.stopped ? t.stopped->dest : -1;
  if (d < 0 || static_cast<std::size_t>(d) >= t.destinations.size())
    return "fd " + std::to_string(t.stopped ? t.stopped->fd : -1);
  const auto& dest = t.destinations[static_cast<std::size_t>(d)];
  return dest.what +
         (dest.role == stream_role::none ? "" : " (" + std::string(to_string(dest.role)) + ")");
}

nlohmann::json writes_json(const trace_summary& t) {
  nlohmann::json writes = nlohmann::json::array();
  for (const auto& d : t.destinations)
    writes.push_back({{"fd", d.fds.empty() ? -1 : d.fds.front()},
                      {"fds", d.fds},
                      {"what", bytes_as_code_points(d.what)},
                      {"role", to_string(d.role)},
                      {"calls", d.write_calls},
                      {"bytes", d.bytes},
                      {"by_call", calls_json(d.calls)},
                      {"sizes", sizes_json(d)}});
  return writes;
}

namespace {

/// The event log, one array of event_fields per event.
nlohmann::json events_json(const trace_summary& t) {
  nlohmann::json events = nlohmann::json::array();
  for (const auto& e : t.events)
    events.push_back({e.t_us, e.pid, to_string(e.call), e.fd, e.bytes, e.returned_us, e.result});
  return events;
}

/// The call a write:N cut stopped at its entry.
nlohmann::json stopped_json(const trace_summary& t) {
  nlohmann::json stopped;  // null: no call was stopped at its entry
  if (t.stopped)
    stopped = {{"t_us", t.stopped->t_us},
               {"pid", t.stopped->pid},
               {"call", to_string(t.stopped->call)},
               {"fd", t.stopped->fd},
               {"bytes", t.stopped->bytes},
               {"what", stopped_destination(t)}};
  return stopped;
}

}  // namespace

nlohmann::json trace_json(const trace_summary& t) {
  nlohmann::json events = events_json(t);
  nlohmann::json stopped = stopped_json(t);
  return {{"backend", t.backend},
          {"events", events},
          {"event_fields", {"t_us", "pid", "call", "fd", "bytes", "returned_us", "result"}},
          {"stopped", stopped},
          {"writes_timed", t.writes_timed},
          {"events_dropped", t.events_dropped},
          {"totals", calls_json(t.totals)},
          {"stops", t.stops},
          {"processes", t.processes},
          {"programs", strings_json(t.programs)}};
}

namespace {

/// The calls fault plan F selected.
nlohmann::json fault_events_json(const fault_result& f) {
  nlohmann::json events = nlohmann::json::array();
  for (const auto& e : f.events)
    events.push_back({{"call", e.call},
                      {"t_us", e.t_us},
                      {"pid", e.pid},
                      {"syscall", e.syscall},
                      {"requested", e.requested},
                      {"applied", e.applied},
                      {"result", e.result}});
  return events;
}

}  // namespace

nlohmann::json faults_json(const trace_summary& t) {
  nlohmann::json faults = nlohmann::json::array();
  for (const auto& f : t.faults) {
    nlohmann::json events = fault_events_json(f);
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

namespace {

/// "kill": the cut and whether it was delivered; null without one.
void add_kill(nlohmann::json& j, const std::optional<kill_event>& k) {
  if (k)
    j["kill"] = {{"signal", signal_name(k->signal)},
                 {"when", k->when},
                 {"delivered", k->delivered},
                 {"t_us", k->t_us}};
  else
    j["kill"] = nullptr;
}

/// "stdout" and "stderr" (only {"sink": "stdout"} when merged into stdout).
void add_streams(nlohmann::json& j, const observation& obs) {
  const trace_summary* t = obs.trace ? &*obs.trace : nullptr;
  j["stdout"] = stream_json(obs.out, t, stream_role::out);
  if (obs.err.sink.merged())
    j["stderr"] = {{"sink", "stdout"}};
  else
    j["stderr"] = stream_json(obs.err, t, stream_role::err);
}

/// Each marker the program reached, with what the readers had by then.
nlohmann::json markers_json(const std::vector<marker_event>& markers) {
  nlohmann::json a = nlohmann::json::array();
  for (const auto& m : markers)
    a.push_back({{"label", bytes_as_code_points(m.label)},
                 {"t_us", m.t_us},
                 {"visible", {{"stdout", m.stdout_visible}, {"stderr", m.stderr_visible}}}});
  return a;
}

/// "faults" (empty without a trace); "writes" and "trace" with one.
void add_trace(nlohmann::json& j, const std::optional<trace_summary>& t) {
  j["faults"] = t ? faults_json(*t) : nlohmann::json::array();
  if (t) {
    j["writes"] = writes_json(*t);
    j["trace"] = trace_json(*t);
  }
}

}  // namespace

nlohmann::json to_json(const observation& obs) {
  nlohmann::json j = json_document(json_kind::run);
  j["argv"] = strings_json(obs.argv);
  j["exit"] = to_json(obs.status);
  add_kill(j, obs.kill);
  add_streams(j, obs);
  j["markers"] = markers_json(obs.markers);
  j["notes"] = strings_json(obs.notes);
  add_trace(j, obs.trace);
  j["duration_us"] = obs.duration_us;
  j["peak_rss_kib"] =
      obs.peak_rss_kib < 0 ? nlohmann::json(nullptr) : nlohmann::json(obs.peak_rss_kib);
  return j;
}

}  // namespace flushcheck
