#include "explore.hpp"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "derived_cuts.hpp"
#include "explore_wire.hpp"
#include "reference_output.hpp"
#include "run_report.hpp"
#include "signals.hpp"
#include "traced_call.hpp"
#include "workers.hpp"
#include "write_cuts.hpp"

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
    const bool sync = family_of(e.call) == call_family::sync;
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

/// Which of N runs the report shows: all, or MAX of them evenly spaced, the
/// first and last kept (deterministic, so a rerun agrees).
std::vector<std::size_t> shown_runs(std::size_t n, std::size_t max) {
  std::vector<std::size_t> shown;
  const bool all = n <= max || max < 2;
  for (std::size_t i = 0; i < (all ? n : max); ++i)
    shown.push_back(all ? i : i * (n - 1) / (max - 1));
  return shown;
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
  c.lost = ref.lines_from(m.whole_bytes(), detail::text_budget(o.keep));
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

/// The options of one run of the exploration on SINK: untraced, keeping KEEP.
run_options cut_options(const explore_options& o, sink_kind sink) {
  run_options r = on_sink(o, sink);
  r.trace = false;
  r.keep = o.keep;
  return r;
}

explored_cut run_planned(const explore_options& o, sink_kind sink,
                         const detail::reference_output& ref, const planned& p) {
  run_options r = cut_options(o, sink);
  detail::prefix_match m(ref, detail::text_budget(o.keep));
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

/// The derivable cuts of an exploration: where each is in the plan, where
/// it leaves the stream, whether that tears a line, the write it reaches.
struct derivable_cuts {
  std::vector<std::size_t> run;
  std::vector<std::uint64_t> bytes;
  std::vector<int> torn;  ///< 1: it tears a line (a number: cuts_to_verify's verdict)
  std::vector<long> reached;
};

/// Every derivable cut of RUNS, S's plan, in one pass over the reference's lines.
derivable_cuts find_derivable(const std::vector<planned>& runs, const explored_sink& s,
                              const detail::reference_output& ref) {
  derivable_cuts d;
  const detail::write_ends ends(*s.reference.trace, s.on_stderr);
  detail::line_cursor lines(ref);
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (runs[i].fault || !detail::derivable(runs[i].cut)) continue;
    d.run.push_back(i);
    d.bytes.push_back(ends.at(runs[i].cut));
    d.torn.push_back(lines.at(d.bytes.back()).whole_bytes < d.bytes.back());
    d.reached.push_back(runs[i].cut.n);
  }
  return d;
}

/// The indices of A and B, merged in order, each once.
std::vector<std::size_t> merged(const std::vector<std::size_t>& a,
                                const std::vector<std::size_t>& b) {
  std::vector<std::size_t> out;
  std::set_union(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

/// CUT, derived: as it would end on S's sink, with the repro of a real run.
explored_cut derive(const explore_options& o, const detail::reference_output& ref,
                    detail::line_cursor& lines, const kill_plan& cut, std::uint64_t bytes,
                    const explored_sink& s) {
  explored_cut c = detail::derived_cut(ref, lines, cut, bytes, o.keep);
  run_options r = cut_options(o, s.sink);
  r.kill = cut;
  c.repro = repro_command(r);
  return c;
}

/// The runs of RUNS at SHOWN, each run for real on o.jobs workers, onto
/// S's cuts in their order.
void run_shown(const explore_options& o, const std::vector<planned>& runs,
               const std::vector<std::size_t>& shown, const detail::reference_output& ref,
               explored_sink& s) {
  run_in_workers<explored_cut>(
      o.jobs, static_cast<long>(shown.size()),
      [&](long k) { return run_planned(o, s.sink, ref, runs[shown[static_cast<std::size_t>(k)]]); },
      [&](long, explored_cut c) {
        s.cuts.push_back(std::move(c));
        return true;
      },
      encode_cut, decode_cut);
}

/// S's cuts with the derivable ones derived: the shown runs and the derived
/// ones to check, in plan order; those checked are run, as are the shown
/// runs no derivation stands for, on o.jobs workers, and each is taken in
/// plan order. False at the first real run that differs from its
/// derivation (the runs after it are dropped).
bool derive_cuts(const explore_options& o, const std::vector<planned>& runs,
                 const std::vector<std::size_t>& shown, const detail::reference_output& ref,
                 explored_sink& s) {
  const derivable_cuts d = find_derivable(runs, s, ref);
  s.derivation.derived = d.run.size();
  s.derivation.torn = static_cast<std::size_t>(std::count(d.torn.begin(), d.torn.end(), 1));
  std::vector<std::size_t> check;
  // Five eighths of an uncut run's writes for the checks between the first
  // and the last (room for the midpoint's): with the reference and the last
  // cut, each a whole run, every cut is had in at most about 2.6 traced
  // runs' writes, however many there are (issue 57's goal: 3 runs' time).
  for (std::size_t k : cuts_to_verify(d.reached, d.torn, s.writes * 5 / 8, o.max_cuts))
    check.push_back(d.run[k]);
  const std::vector<std::size_t> order = merged(shown, check);
  // Where run I is among the derivable cuts, or nullopt when it is not one.
  const auto derivable_at = [&](std::size_t i) -> std::optional<std::size_t> {
    const auto at = std::lower_bound(d.run.begin(), d.run.end(), i);
    if (at == d.run.end() || *at != i) return std::nullopt;
    return static_cast<std::size_t>(at - d.run.begin());
  };
  std::vector<std::size_t> real;  // places in ORDER run for real: not derivable, or checked
  for (std::size_t p = 0; p < order.size(); ++p)
    if (!derivable_at(order[p]) || std::binary_search(check.begin(), check.end(), order[p]))
      real.push_back(p);
  detail::line_cursor lines(ref);  // derivations go in plan order: the cursor only moves on
  const auto derived = [&](std::size_t i, std::size_t k) {
    return derive(o, ref, lines, runs[i].cut, d.bytes[k], s);
  };
  std::size_t next = 0;  // the next place of ORDER onto S's cuts
  const auto derive_until = [&](std::size_t end) {
    for (; next < end; ++next) s.cuts.push_back(derived(order[next], *derivable_at(order[next])));
  };
  bool agreed = true;
  run_in_workers<explored_cut>(
      o.jobs, static_cast<long>(real.size()),
      [&](long k) {
        return run_planned(o, s.sink, ref, runs[order[real[static_cast<std::size_t>(k)]]]);
      },
      [&](long k, explored_cut c) {
        derive_until(real[static_cast<std::size_t>(k)]);
        const std::size_t i = order[next++];
        const auto at = derivable_at(i);
        if (at) {
          s.derivation.disagreed = detail::disagreement(derived(i, *at), c);
          if (!(agreed = s.derivation.disagreed.empty())) return false;
          ++s.derivation.verified;
        }
        s.cuts.push_back(std::move(c));
        return true;
      },
      encode_cut, decode_cut);
  if (agreed) derive_until(order.size());
  return agreed;
}

/// S's cuts, from its plan RUNS: the shown ones run, or derived where that is sound.
void explore_cuts(const explore_options& o, const std::vector<planned>& runs,
                  const detail::reference_output& ref, explored_sink& s) {
  const std::vector<std::size_t> shown = shown_runs(runs.size(), o.max_cuts);
  s.cuts_total = runs.size();
  s.sampled = shown.size() < runs.size();
  s.derivation.not_derived = o.derive ? detail::why_not_derivable(s) : "--derive=off";
  if (s.derivation.not_derived.empty() && derive_cuts(o, runs, shown, ref, s)) return;
  s.cuts.clear();  // nothing derived, or what was is not to be trusted
  s.derivation.derived = s.derivation.verified = s.derivation.torn = 0;
  run_shown(o, runs, shown, ref, s);
}

}  // namespace

std::vector<explored_sink> explore(const explore_options& o) {
  std::vector<explored_sink> result;
  for (sink_kind sink : o.sinks) {
    detail::reference_output ref;
    explored_sink s = run_reference(o, sink, ref);
    explore_cuts(o, plan_runs(o, s), ref, s);
    result.push_back(std::move(s));
  }
  return result;
}

}  // namespace flushcheck
