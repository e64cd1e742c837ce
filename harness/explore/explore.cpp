#include "explore.hpp"

#include <algorithm>
#include <string_view>

#include "reference_output.hpp"
#include "run_report.hpp"
#include "signals.hpp"

namespace flushcheck {

namespace {

/// The explored stream of OBS.
const stream_observation& stream_of(const observation& obs, bool on_stderr) {
  return on_stderr ? obs.err : obs.out;
}

/// The writes to the stream's sink (1-based) that a sync of it follows
/// (fsync, fdatasync, sync_file_range before the next write there), but the last.
std::vector<long> writes_before_a_sync(const trace_summary& t, long writes, bool on_stderr) {
  std::vector<long> out;
  long k = 0;
  for (const auto& e : t.events) {
    if (!t.on_stream(e, on_stderr)) continue;
    if (is_write_family(e.call)) ++k;
    const bool sync = info(e.call).family == call_family::sync;
    if (sync && k > 0 && k < writes && (out.empty() || out.back() != k)) out.push_back(k);
  }
  return out;
}

/// Cut points: every marker, the entry of every write (the state after
/// the previous one), right after each write a sync follows (between the
/// write and its fsync) and the moment after the last write.
std::vector<kill_plan> boundaries(const explored_sink& s, int sig, bool on_stderr) {
  std::vector<kill_plan> cuts;
  for (long m = 1; m <= s.markers; ++m) cuts.push_back(kill_plan::at_marker(m, sig));
  auto synced = s.synced_writes.begin();
  for (long w = 1; w <= s.writes; ++w) {
    cuts.push_back(kill_plan::at_write(w, sig).on_stderr_stream(on_stderr));
    if (synced != s.synced_writes.end() && *synced == w) {
      cuts.push_back(kill_plan::after_write(w, sig).on_stderr_stream(on_stderr));
      ++synced;
    }
  }
  if (s.writes > 0)
    cuts.push_back(kill_plan::after_write(s.writes, sig).on_stderr_stream(on_stderr));
  return cuts;
}

/// A run of the exploration: a cut, or a fault at one write (no cut).
struct planned {
  kill_plan cut;
  std::optional<fault_plan> fault;
};

std::vector<planned> plan_runs(const explore_options& o, const explored_sink& s) {
  std::vector<planned> runs;
  for (int sig : o.signals)
    for (auto& c : boundaries(s, sig, o.on_stderr)) runs.push_back({c, std::nullopt});
  const std::string dest = o.on_stderr ? "@stderr:write:" : "@write:";
  for (const auto& what : o.faults)
    for (long w = 1; w <= s.writes; ++w)
      runs.push_back({{}, fault_plan::parse(what + dest + std::to_string(w))});
  return runs;
}

/// More than MAX runs: MAX of them, evenly spaced, first and last kept
/// (deterministic, so a rerun agrees).
bool sample(std::vector<planned>& runs, std::size_t max) {
  if (runs.size() <= max || max < 2) return false;
  std::vector<planned> picked;
  for (std::size_t i = 0; i < max; ++i) picked.push_back(runs[i * (runs.size() - 1) / (max - 1)]);
  runs = std::move(picked);
  return true;
}

/// The run options with the explored stream on SINK.
run_options on_sink(const explore_options& o, sink_kind sink) {
  run_options r = o.base;
  if (o.on_stderr)
    r.stderr_sink = sink;
  else
    r.stdout_sink = sink;
  r.kill = kill_plan{}.on_stderr_stream(o.on_stderr);
  return r;
}

/// Calls F with the explored stream's bytes of a run with options R.
void feed_stream(run_options& r, bool on_stderr, std::function<void(std::string_view)> f) {
  const int fd = on_stderr && r.stderr_sink ? 2 : 1;
  r.on_output = [fd, f = std::move(f)](int from, std::string_view b) {
    if (from == fd) f(b);
  };
}

/// What every run of the exploration ends with: how it ended, and the
/// explored stream's bytes as they compared with the reference.
explored_cut ended_run(const observation& obs, const detail::prefix_match& m, bool on_stderr) {
  explored_cut c;
  c.status = obs.status;
  c.survived = stream_of(obs, on_stderr).data;  // the run kept it under KEEP
  c.bytes = m.bytes();
  c.prefix = m.prefix();
  return c;
}

/// A fault run: the reference lines that arrived, in order, and those
/// that did not (detail::line_match, fed as the output arrived).
explored_cut judge_fault(const fault_plan& f, const observation& obs, detail::line_match& lines,
                         const detail::prefix_match& m, const explore_options& o) {
  explored_cut c = ended_run(obs, m, o.on_stderr);
  c.fault = f;
  c.delivered = obs.trace && !obs.trace->faults.empty() && obs.trace->faults.front().applied();
  lines.finish();
  c.lines_survived = lines.survived();
  c.lines_lost = lines.lost_lines();
  c.lost = std::move(lines.lost());
  c.torn = lines.torn();
  return c;
}

explored_cut judge_cut(const detail::reference_output& ref, const kill_plan& cut,
                       const observation& obs, const detail::prefix_match& m,
                       const explore_options& o) {
  explored_cut c = ended_run(obs, m, o.on_stderr);
  c.cut = cut;
  c.delivered = obs.kill && obs.kill->delivered;
  c.lines_survived = static_cast<std::size_t>(m.lines());
  c.whole_bytes = m.whole_bytes();
  c.torn = m.torn();
  c.lines_lost = static_cast<std::size_t>(ref.lines() - m.lines());
  const std::size_t budget = o.keep.what == keep_policy::kind::all ? SIZE_MAX : o.keep.bytes;
  c.lost = ref.lines_from(m.whole_bytes(), budget);
  return c;
}

/// A run with options R and fault F at one write, its output matched with
/// the reference as it arrives.
explored_cut run_fault(const explore_options& o, run_options& r,
                       const detail::reference_output& ref, detail::prefix_match& m,
                       const fault_plan& f) {
  r.faults = {f};
  detail::line_match lines(ref, o.keep);  // a fault may drop lines anywhere: all are matched
  feed_stream(r, o.on_stderr, [&m, &lines](std::string_view b) {
    m.feed(b);
    lines.feed(b);
  });
  explored_cut c = judge_fault(f, run(r), lines, m, o);
  c.repro = repro_command(r);
  return c;
}

/// A run with options R cut by CUT, its output matched with the reference
/// as it arrives.
explored_cut run_cut(const explore_options& o, run_options& r, const detail::reference_output& ref,
                     detail::prefix_match& m, const kill_plan& cut) {
  r.kill = cut;
  feed_stream(r, o.on_stderr, [&m](std::string_view b) { m.feed(b); });
  const observation obs = run(r);
  explored_cut c = judge_cut(ref, cut, obs, m, o);
  c.repro = repro_command(r);
  return c;
}

explored_cut run_planned(const explore_options& o, sink_kind sink,
                         const detail::reference_output& ref, const planned& p) {
  run_options r = on_sink(o, sink);
  r.trace = false;
  r.keep = o.keep;
  detail::prefix_match m(ref, o.keep.what == keep_policy::kind::all ? SIZE_MAX : o.keep.bytes);
  if (p.fault) return run_fault(o, r, ref, m, *p.fault);
  return run_cut(o, r, ref, m, p.cut);
}

/// What the trace T of the reference run tells of the explored stream: its
/// writes, the markers, its syncs and the writes they follow.
void count_traced(explored_sink& s, const trace_summary& t, bool on_stderr) {
  s.writes = t.write_calls_to(on_stderr);
  s.markers = static_cast<long>(s.reference.markers.size());
  for (auto c : {traced_call::fsync, traced_call::fdatasync, traced_call::sync_file_range})
    s.syncs += t.calls_to(c, on_stderr);
  s.synced_writes = writes_before_a_sync(t, s.writes, on_stderr);
}

/// The uncut, traced run on SINK, its stream spooled into REF.
explored_sink run_reference(const explore_options& o, sink_kind sink,
                            detail::reference_output& ref) {
  explored_sink s;
  s.sink = sink;
  s.on_stderr = o.on_stderr;
  run_options r = on_sink(o, sink);
  r.trace = true;
  feed_stream(r, o.on_stderr, [&ref](std::string_view b) { ref.append(b); });
  s.reference = run(r);
  s.reference_bytes = ref.size();
  s.reference_lines = static_cast<std::size_t>(ref.lines());
  if (!s.reference.trace) return s;
  count_traced(s, *s.reference.trace, o.on_stderr);
  return s;
}

}  // namespace

std::vector<explored_sink> explore(const explore_options& o) {
  std::vector<explored_sink> result;
  for (sink_kind sink : o.sinks) {
    detail::reference_output ref;
    explored_sink s = run_reference(o, sink, ref);
    std::vector<planned> runs = plan_runs(o, s);
    s.cuts_total = runs.size();
    s.sampled = sample(runs, o.max_cuts);
    for (const auto& p : runs) s.cuts.push_back(run_planned(o, sink, ref, p));
    result.push_back(std::move(s));
  }
  return result;
}

}  // namespace flushcheck
