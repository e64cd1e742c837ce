// The doctor's diagnosis: reference runs on a pty, a pipe and a file, cuts
// at the writes (or the stop at the deadline), and what each lost.
#include "flushcheck/doctor.hpp"

#include <algorithm>

#include "flushcheck/error.hpp"
#include "flushcheck/repro.hpp"
#include "flushcheck/run.hpp"

namespace flushcheck {

namespace {

/// Lines in S, a partial last line counting as one.
std::size_t lines_in(std::string_view s) {
  auto n = static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n'));
  return n + (!s.empty() && s.back() != '\n' ? 1 : 0);
}

struct write_end {
  std::int64_t t_us;
  std::size_t end;  ///< stdout offset after this write
};

/// Where each write to stdout's sink ended in its data, and when it was made.
std::vector<write_end> write_ends(const observation& obs) {
  std::vector<write_end> out;
  if (!obs.trace) return out;
  std::size_t at = 0;
  for (const auto& e : obs.trace->events)
    if (obs.trace->on_stdout(e) && is_write_family(e.call) && e.bytes > 0) {
      at = std::min(at + static_cast<std::size_t>(e.bytes), obs.out.data.size());
      out.push_back({e.t_us, at});
    }
  return out;
}

/// When each line's last byte was handed to the kernel (us since the start).
std::vector<std::int64_t> line_times(const observation& obs) {
  std::vector<std::int64_t> out;
  const auto ends = write_ends(obs);
  std::size_t w = 0;
  for (std::size_t i = 0; i < obs.out.data.size(); ++i) {
    if (obs.out.data[i] != '\n') continue;
    while (w < ends.size() && ends[w].end <= i) ++w;
    if (w < ends.size()) out.push_back(ends[w].t_us);
  }
  return out;
}

std::size_t most_lines_per_write(const observation& obs) {
  std::size_t most = 0, from = 0;
  for (const auto& w : write_ends(obs)) {
    most = std::max(most, lines_in(std::string_view(obs.out.data).substr(from, w.end - from)));
    from = w.end;
  }
  return most;
}

run_options base_run(const doctor_options& o, sink_kind sink) {
  run_options r;
  r.argv = o.argv;
  r.env = o.env;
  r.stdout_sink = sink;
  r.trace = true;
  r.timeout = o.deadline + std::chrono::milliseconds(5000);
  r.on_spawn = o.on_spawn;
  return r;
}

doctor_cut cut_run(const doctor_options& o, sink_kind sink, const kill_plan& cut,
                   std::size_t had_lines, std::size_t in_flight) {
  run_options r = base_run(o, sink);
  r.trace = cut.needs_tracer();
  r.kill = cut;
  observation obs = run(r);
  return {sink,      cut,
          had_lines, std::min(had_lines, lines_in(obs.out.data)),
          in_flight, repro_command(r)};
}

/// Indices 0..N-1, or MAX of them evenly spread, the first and the last in.
std::vector<std::size_t> sample(std::size_t n, std::size_t max) {
  std::vector<std::size_t> out;
  for (std::size_t j = 0; j < std::min(n, max); ++j)
    out.push_back(n <= max ? j : j * (n - 1) / (max - 1));
  return out;
}

/// Cuts at the entry of writes 1..N (sampled): by then the program had
/// produced everything up to the end of that write.
void cut_at_writes(const doctor_options& o, doctor_sink& s, std::size_t in_flight) {
  const auto ends = write_ends(s.reference);
  const std::string_view data = s.reference.out.data;
  for (int sig : {SIGKILL, SIGTERM})
    for (std::size_t k : sample(ends.size(), std::max<std::size_t>(2, o.max_cuts))) {
      const std::size_t had = lines_in(data.substr(0, ends[k].end));
      s.cuts.push_back(
          cut_run(o, s.sink, kill_plan::at_write(static_cast<long>(k) + 1, sig), had, in_flight));
    }
}

/// The program stopped by SIG at the deadline (or ended by itself before it).
observation stopped_at_deadline(const doctor_options& o, sink_kind sink, int sig) {
  run_options r = base_run(o, sink);
  r.trace = false;
  r.kill = kill_plan::at_time(o.deadline.count(), sig);
  return run(r);
}

/// A program still running at the deadline: stopped there by SIGTERM and by
/// SIGKILL; it had produced what the pty run had delivered by then.
void cut_at_deadline(const doctor_options& o, doctor_sink& s, const observation& pty_term,
                     const observation& pty_kill) {
  for (int sig : {SIGTERM, SIGKILL}) {
    const observation& pty = sig == SIGTERM ? pty_term : pty_kill;
    s.cuts.push_back(
        cut_run(o, s.sink, kill_plan::at_time(o.deadline.count(), sig), lines_in(pty.out.data), 0));
  }
}

doctor_sink reference_on(const doctor_options& o, sink_kind sink) {
  doctor_sink s;
  s.sink = sink;
  run_options r = base_run(o, sink);
  r.kill = kill_plan::at_time(o.deadline.count(), SIGKILL);
  s.reference = run(r);
  s.ended = !(s.reference.kill && s.reference.kill->delivered);
  s.writes = s.reference.trace ? static_cast<long>(s.reference.trace->stdout_write_calls()) : 0;
  s.most_lines_per_write = most_lines_per_write(s.reference);
  return s;
}

std::int64_t lateness_ms(const observation& pty, const observation& other) {
  const auto a = line_times(pty), b = line_times(other);
  std::int64_t late = 0;
  for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i)
    late = std::max(late, (b[i] - a[i]) / 1000);
  return late;
}

}  // namespace

const doctor_cut* diagnosis::worst() const {
  const doctor_cut* w = nullptr;
  for (const auto& s : sinks)
    for (const auto& c : s.cuts)
      if (c.excess() > 0 && (!w || c.excess() > w->excess())) w = &c;
  return w;
}

std::int64_t diagnosis::late_ms() const {
  std::int64_t late = 0;
  for (const auto& s : sinks) late = std::max(late, s.late_ms);
  return late;
}

diagnosis diagnose(const doctor_options& o) {
  diagnosis d;
  const doctor_sink pty = reference_on(o, sink_kind::pty);
  d.baseline = std::max<std::size_t>(1, pty.most_lines_per_write);
  const observation pty_term =
      pty.ended ? observation{} : stopped_at_deadline(o, pty.sink, SIGTERM);
  d.sinks.push_back(pty);
  for (sink_kind sink : {sink_kind::pipe, sink_kind::file}) {
    doctor_sink s = reference_on(o, sink);
    s.late_ms = lateness_ms(pty.reference, s.reference);
    if (s.ended)
      cut_at_writes(o, s, d.baseline);
    else
      cut_at_deadline(o, s, pty_term, pty.reference);
    d.sinks.push_back(std::move(s));
  }
  return d;
}

doctor_report doctor(const doctor_options& o) {
  doctor_report r;
  r.argv = o.argv;
  r.kind = identify(o.argv, o.env);
  r.deadline = o.deadline;
  r.found = diagnose(o);
  const bool wrote =
      std::any_of(r.found.sinks.begin(), r.found.sinks.end(),
                  [](const doctor_sink& s) { return !s.reference.out.data.empty(); });
  if (!wrote)
    throw no_output_error(o.argv.front() + " wrote nothing to stdout before it ended (" +
                          r.found.sinks.front().reference.status.describe() +
                          "): nothing to diagnose");
  r.fixes = try_fixes(o, r.kind, r.found);
  return r;
}

}  // namespace flushcheck
