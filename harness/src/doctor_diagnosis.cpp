// The doctor's diagnosis: the program explored on a pty, a pipe and a file,
// each cut compared with what a pty reader would have had at that point.
#include "flushcheck/doctor_diagnosis.hpp"

#include <algorithm>

#include "flushcheck/error.hpp"
#include "flushcheck/explore.hpp"
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

/// Every write-family call to stdout's sink, numbered as write:N cuts count
/// them: where its bytes ended in the output (by what it returned) and when.
std::vector<write_end> write_ends(const observation& obs) {
  std::vector<write_end> out;
  if (!obs.trace) return out;
  std::size_t at = 0;
  for (const auto& e : obs.trace->events) {
    if (!obs.trace->on_stdout(e) || !is_write_family(e.call)) continue;
    const std::int64_t n = e.returned_us >= 0 ? e.result : e.bytes;
    at = std::min(at + static_cast<std::size_t>(std::max<std::int64_t>(n, 0)), obs.out.data.size());
    out.push_back({e.t_us, at});
  }
  return out;
}

/// Of the first H bytes, those a reader had from the writes that ended
/// before H (at the entry of the write that carries byte H, that write is
/// in flight on the pty too), or by H (after that write returned).
std::size_t delivered_by(const std::vector<write_end>& ends, std::size_t h, bool returned) {
  std::size_t got = 0;
  for (const auto& w : ends)
    if (w.end < h || (returned && w.end == h)) got = w.end;
  return got;
}

/// Of the output, those a reader had from writes made before T_US.
std::size_t delivered_before(const std::vector<write_end>& ends, std::int64_t t_us) {
  std::size_t got = 0;
  for (const auto& w : ends)
    if (w.t_us < t_us) got = w.end;
  return got;
}

std::size_t most_lines_per_write(const observation& obs) {
  std::size_t most = 0, from = 0;
  for (const auto& w : write_ends(obs)) {
    most = std::max(most, lines_in(std::string_view(obs.out.data).substr(from, w.end - from)));
    from = w.end;
  }
  return most;
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

/// How much later than on the pty the lines came, start-up time left out:
/// the spread of the per-line differences.
std::int64_t lateness_ms(const observation& pty, const observation& other) {
  const auto a = line_times(pty), b = line_times(other);
  const std::size_t n = std::min(a.size(), b.size());
  if (n == 0) return 0;
  std::int64_t most = b[0] - a[0], least = most;
  for (std::size_t i = 1; i < n; ++i) {
    most = std::max(most, b[i] - a[i]);
    least = std::min(least, b[i] - a[i]);
  }
  return (most - least) / 1000;
}

run_options base_run(const doctor_options& o) {
  run_options r;
  r.argv = o.argv;
  r.env = o.env;
  r.timeline = true;  // what each write returned: where its bytes end
  r.timeout = o.deadline;
  r.on_spawn = o.on_spawn;
  return r;
}

doctor_sink sink_of(explored_sink&& e) {
  doctor_sink s;
  s.sink = e.sink;
  s.reference = std::move(e.reference);
  s.ended = s.reference.status.type() != wait_status::kind::timeout;
  s.writes = e.writes;
  s.most_lines_per_write = most_lines_per_write(s.reference);
  return s;
}

/// The cut, with what a pty reader had once PTY_BYTES of the output were made.
doctor_cut compare(sink_kind sink, std::string cut, const std::string& pty_data, std::size_t had,
                   std::size_t pty_bytes, const std::string& got, std::string repro) {
  doctor_cut c{sink, std::move(cut), had, pty_bytes, got.size(), 0, std::move(repro)};
  if (c.excess() > 0)
    c.lost_lines = lines_in(std::string_view(pty_data).substr(c.got_bytes, c.excess()));
  return c;
}

/// Write cuts: at write:K (or after-write:K) the program had produced the
/// output up to the end of write K.
void judge_cuts(const explored_sink& e, const observation& pty, const run_options& base,
                doctor_sink& s) {
  const auto ends = write_ends(s.reference), pty_ends = write_ends(pty);
  for (const auto& c : e.cuts) {
    if (c.fault || !c.cut.needs_tracer() || c.cut.n < 1 ||
        static_cast<std::size_t>(c.cut.n) > ends.size())
      continue;
    if (!c.delivered) {
      ++s.unreached;
      continue;
    }
    const std::size_t had = ends[static_cast<std::size_t>(c.cut.n) - 1].end;
    run_options r = base;
    r.stdout_sink = s.sink;
    r.kill = c.cut;
    const bool returned = c.cut.when == kill_plan::when_kind::after_write;
    s.cuts.push_back(compare(s.sink, c.cut.text(), pty.out.data, had,
                             delivered_by(pty_ends, had, returned), c.survived, repro_command(r)));
  }
}

/// A program that ended by itself: what the pty got that this sink did not.
void judge_own_end(const observation& pty, const run_options& base, doctor_sink& s) {
  run_options r = base;
  r.stdout_sink = s.sink;
  const std::size_t all = pty.out.data.size();
  s.cuts.push_back(compare(s.sink, "its own end", pty.out.data, all, all, s.reference.out.data,
                           repro_command(r)));
}

/// A program still running at the deadline, stopped there by SIGKILL (its
/// reference run) and SIGTERM: it had made what the pty had delivered a
/// margin before the deadline (start-up times differ between runs).
void judge_deadline(const doctor_options& o, const observation& pty, doctor_sink& s) {
  const std::int64_t margin_us = std::max<std::int64_t>(200, o.deadline.count() / 4) * 1000;
  const std::size_t had = delivered_before(write_ends(pty), o.deadline.count() * 1000 - margin_us);
  run_options r = base_run(o);
  r.stdout_sink = s.sink;
  r.timeline = false;
  r.timeout += std::chrono::milliseconds(5000);
  r.kill = kill_plan::at_time(o.deadline.count(), SIGTERM);
  const observation term = run(r);
  s.cuts.push_back(
      compare(s.sink, r.kill.text(), pty.out.data, had, had, term.out.data, repro_command(r)));
  r.kill = kill_plan::at_time(o.deadline.count(), SIGKILL);
  s.cuts.push_back(compare(s.sink, r.kill.text(), pty.out.data, had, had, s.reference.out.data,
                           repro_command(r)));
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

std::size_t diagnosis::unreached() const {
  std::size_t n = 0;
  for (const auto& s : sinks) n += s.unreached;
  return n;
}

diagnosis diagnose(const doctor_options& o) {
  explore_options e;
  e.base = base_run(o);
  e.stdout_sinks = {sink_kind::pty};
  e.signals = {};
  diagnosis d;
  d.sinks.reserve(3);  // PTY below refers into it
  d.sinks.push_back(sink_of(std::move(explore(e).front())));
  const observation& pty = d.sinks.front().reference;
  e.stdout_sinks = {sink_kind::pipe, sink_kind::file};
  e.signals = {SIGKILL, SIGTERM};
  e.max_cuts = 2 * o.max_cuts;
  for (auto& explored : explore(e)) {
    doctor_sink s = sink_of(std::move(explored));
    const bool prefix = pty.out.data.starts_with(s.reference.out.data);
    d.no_reference = d.no_reference || !prefix || d.sinks.front().ended != s.ended;
    s.late_ms = lateness_ms(pty, s.reference);
    if (!d.no_reference) judge_cuts(explored, pty, e.base, s);
    if (!d.no_reference && s.ended) judge_own_end(pty, e.base, s);
    if (!d.no_reference && !s.ended) judge_deadline(o, pty, s);
    d.sinks.push_back(std::move(s));
  }
  return d;
}

}  // namespace flushcheck
