// The doctor's diagnosis: the program explored on a pty, a pipe and a file,
// each cut compared with what a pty reader would have had at that point.
#include "doctor_diagnosis.hpp"

#include <algorithm>
#include <cstdint>

#include "doctor_reference.hpp"
#include "error.hpp"
#include "explore.hpp"
#include "masked_compare.hpp"
#include "repro.hpp"
#include "run.hpp"

namespace flushcheck {

namespace {

/// Lines in S, a partial last line counting as one.
std::size_t lines_in(std::string_view s) {
  auto n = static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n'));
  return n + (!s.empty() && s.back() != '\n' ? 1 : 0);
}

/// Whether an output is made of lines (has a newline), or is compared in bytes.
bool in_lines(std::string_view data) { return data.find('\n') != std::string_view::npos; }

/// The end of the last whole line in DATA's first N bytes; N itself when
/// DATA has no newline at all (an output not made of lines is compared in
/// bytes). A cut is judged in whole lines: where one run's write split a
/// line is no point of comparison for another run.
std::size_t whole_lines_end(std::string_view data, std::size_t n) {
  if (!in_lines(data)) return n;
  const auto at = data.substr(0, std::min(n, data.size())).rfind('\n');
  return at == std::string_view::npos ? 0 : at + 1;
}

struct write_end {
  std::int64_t t_us;  ///< when the program made the call
  std::size_t end;    ///< the stream's offset after this write
  /// It wrote less than asked (a pty's short write): the program writes the
  /// rest next, so its end is no point where the program's own write ended.
  bool partial;
};

/// Every write-family call to the stream's sink that ran, numbered as write:N
/// cuts count them: where its bytes ended in the output (by what it
/// returned) and when it was made.
std::vector<write_end> write_ends(const doctor_sink& s) {
  std::vector<write_end> out;
  const observation& obs = s.reference;
  if (!obs.trace) return out;
  const std::size_t size = s.output().data.size();
  std::size_t at = 0;
  for (const trace_event* e : obs.trace->stream_writes(s.on_stderr)) {
    at = std::min(at + static_cast<std::size_t>(e->bytes_written()), size);
    out.push_back({e->t_us, at, e->returned_us >= 0 && e->result >= 0 && e->result < e->bytes});
  }
  return out;
}

/// Of the first H bytes, those a reader had from the writes that ended
/// before H (at the entry of the write that carries byte H, that write is
/// in flight on the pty too), or by H (after that write returned).
/// Short writes' ends count with the write that completes them.
std::size_t delivered_by(const std::vector<write_end>& ends, std::size_t h, bool returned) {
  std::size_t got = 0;
  for (const auto& w : ends)
    if (!w.partial && (w.end < h || (returned && w.end == h))) got = w.end;
  return got;
}

/// Of the output, those a reader had from writes made before T_US.
std::size_t delivered_before(const std::vector<write_end>& ends, std::int64_t t_us) {
  std::size_t got = 0;
  for (const auto& w : ends)
    if (!w.partial && w.t_us < t_us) got = w.end;
  return got;
}

std::size_t most_lines_per_write(const doctor_sink& s, const std::vector<write_end>& ends) {
  std::size_t most = 0, from = 0;
  const std::string_view data = s.output().data;
  for (const auto& w : ends) {
    most = std::max(most, lines_in(data.substr(from, w.end - from)));
    from = w.end;
  }
  return most;
}

/// Per line of DATA (ended by its newline, or the last byte of an
/// unterminated last line), the index in ENDS of the write that carried it.
std::vector<std::size_t> line_writes(const std::vector<write_end>& ends, std::string_view data) {
  std::vector<std::size_t> out;
  std::size_t w = 0;
  for (std::size_t i = 0; i < data.size(); ++i) {
    if (data[i] != '\n' && i + 1 != data.size()) continue;
    while (w < ends.size() && ends[w].end <= i) ++w;
    if (w == ends.size()) break;  // written by no call the tracer saw
    out.push_back(w);
  }
  return out;
}

/// How late the lines of sink S came, in us: a line is late by the time
/// between the program producing it and a write carrying it. The pty run
/// says when the program produced each line (there it writes each when it
/// means to). On S, line j went out in write W with the lines up to k; the
/// program made W no sooner than it produced line k and no later than line
/// k+1 (or its end), so j waited at most P(k+1) - P(j), pty times, against
/// the pty run's own clock, whatever S's run's speed. Two more bounds hold
/// the runs' clocks side by side: from their starts (W's time on S less
/// P(j)), and from their ends (how much sooner before its end the pty run
/// had line j than S's run had W): each holds if the runs differ only at the
/// other end (start-up under load, a slower whole run), so the least of
/// the three is the lateness. A line written by itself, with more writes to
/// come (or in a run stopped at the deadline, which has no flush at its
/// end), waited for nothing: the program wrote it before it went on.
std::int64_t lateness_us(const doctor_sink& pty, const std::vector<write_end>& pty_ends,
                         const doctor_sink& s, const std::vector<write_end>& s_ends) {
  const auto p = line_writes(pty_ends, pty.output().data);
  const auto q = line_writes(s_ends, s.output().data);
  const std::int64_t pty_end = pty.reference.duration_us, s_end = s.reference.duration_us;
  std::int64_t most = 0;
  for (std::size_t j = 0; j < std::min(p.size(), q.size()); ++j) {
    const std::size_t k =
        static_cast<std::size_t>(std::upper_bound(q.begin(), q.end(), q[j]) - q.begin()) - 1;
    // Written alone, and no flush at the program's own end: it waited for nothing.
    if (k == j && (q[j] + 1 < s_ends.size() || !s.ended)) continue;
    const std::int64_t produced = pty_ends[p[j]].t_us, written = s_ends[q[j]].t_us;
    const std::int64_t next = k + 1 < p.size() ? pty_ends[p[k + 1]].t_us : pty_end;
    const std::int64_t from_start = written - produced;
    const std::int64_t from_end = (pty_end - produced) - (s_end - written);
    most = std::max(most, std::min({next - produced, from_start, from_end}));
  }
  return most;
}

run_options base_run(const doctor_options& o) {
  run_options r;
  r.argv = o.argv;
  r.env = o.env;
  r.timeline = true;  // what each write returned: where its bytes end
  r.timeout = o.deadline;
  r.on_spawn = o.on_spawn;
  if (o.stream == doctor_stream::merged) r.stderr_sink.reset();
  r.kill = kill_plan{}.on_stderr_stream(o.stream == doctor_stream::err);
  return r;
}

/// Every write in ENDS but the last ended a line of DATA.
bool every_write_ends_a_line(std::string_view data, const std::vector<write_end>& ends) {
  for (std::size_t i = 0; i + 1 < ends.size(); ++i)
    if (ends[i].end > 0 && ends[i].end <= data.size() && data[ends[i].end - 1] != '\n')
      return false;
  return true;
}

doctor_sink sink_of(explored_sink&& e, std::chrono::milliseconds limit) {
  doctor_sink s;
  s.sink = e.sink;
  s.limit = limit;
  s.on_stderr = e.on_stderr;
  s.reference = std::move(e.reference);
  s.ended = s.reference.status.type() != wait_status::kind::timeout;
  s.writes = e.writes;
  s.lines = e.reference_lines;
  const auto ends = write_ends(s);
  s.most_lines_per_write = most_lines_per_write(s, ends);
  s.writes_end_lines = every_write_ends_a_line(s.output().data, ends);
  return s;
}

/// The cut, with what a pty reader had once the output up to HAD was made;
/// PTY_BYTES and GOT_BYTES in whole lines already.
doctor_cut compare(sink_kind sink, std::string cut, std::string_view pty_data, std::size_t had,
                   std::size_t pty_bytes, std::size_t got_bytes, const run_options& r) {
  doctor_cut c{sink, std::move(cut), had, pty_bytes, got_bytes, 0, repro_command(r), r};
  if (c.excess() > 0 && in_lines(pty_data))
    c.lost_lines = lines_in(pty_data.substr(c.got_bytes, c.excess()));
  return c;
}

run_options on_sink(const run_options& base, const doctor_sink& s) {
  run_options r = base;
  if (s.on_stderr)
    r.stderr_sink = s.sink;
  else
    r.stdout_sink = s.sink;
  return r;
}

/// A cut at write:K or after-write:K, K one of the WRITES the reference run made.
bool is_write_cut(const explored_cut& c, std::size_t writes) {
  return !c.fault && c.cut.needs_tracer() && c.cut.n >= 1 &&
         static_cast<std::size_t>(c.cut.n) <= writes;
}

/// What every write cut on a sink is judged with, the same for all of them.
struct write_cut_context {
  std::vector<write_end> ends;      ///< where the sink's writes end
  std::vector<write_end> pty_ends;  ///< where the pty's writes end
  std::string_view pty_data;        ///< what the pty got
  std::string_view data;            ///< what the sink's reference run got
  const field_mask& mask;           ///< what the outputs are compared around
  const run_options& base;          ///< the runs' options, before their sink
};

/// Whether W's outputs are compared line by line around what varies
/// between runs (field_mask.hpp), not as explore matched them, byte for byte.
bool around_fields(const write_cut_context& w) { return !w.mask.empty() && in_lines(w.pty_data); }

/// Offset AT of the sink's output at the same place of the pty's.
std::size_t at_pty(const write_cut_context& w, std::size_t at) {
  return around_fields(w) ? same_place(w.data, at, w.pty_data) : at;
}

/// What of the output reached cut C's reader, as an offset of the pty's:
/// whole lines (explore matched them byte for byte, or they match around
/// what varies), or bytes.
std::size_t reader_got(const explored_cut& c, const write_cut_context& w) {
  if (!in_lines(w.pty_data)) return static_cast<std::size_t>(c.bytes);
  const auto whole = static_cast<std::size_t>(c.whole_bytes);
  if (!around_fields(w)) return whole;
  if (c.prefix) return same_place(w.data, whole, w.pty_data);  // all of it as the reference's
  return end_of_lines(w.pty_data, matching_lines(w.mask, w.data, c.survived));
}

/// Write cut C on sink S, whose writes end at W.ends: the program had produced
/// the output up to the end of write K, and a pty reader had what the pty's
/// writes (W.pty_ends) had delivered of it by then.
doctor_cut judge_write_cut(const explored_cut& c, const write_cut_context& w,
                           const doctor_sink& s) {
  const std::size_t had = at_pty(w, w.ends[static_cast<std::size_t>(c.cut.n) - 1].end);
  run_options r = on_sink(w.base, s);
  r.kill = c.cut;
  const bool returned = c.cut.when == kill_plan::when_kind::after_write;
  const std::size_t pty_had = whole_lines_end(w.pty_data, delivered_by(w.pty_ends, had, returned));
  return compare(s.sink, c.cut.text(), w.pty_data, had, pty_had, reader_got(c, w), r);
}

/// Write cuts: at write:K (or after-write:K) the program had produced the
/// output up to the end of write K.
void judge_cuts(const std::vector<explored_cut>& cuts, const doctor_sink& pty,
                const field_mask& mask, const run_options& base, doctor_sink& s) {
  const write_cut_context w{
      write_ends(s), write_ends(pty), pty.output().data, s.output().data, mask, base};
  for (const auto& c : cuts) {
    if (!is_write_cut(c, w.ends.size())) continue;
    if (!c.delivered) {
      ++s.unreached;
      continue;
    }
    s.cuts.push_back(judge_write_cut(c, w, s));
  }
}

/// Where OUT's first whole lines that are REF's end, as an offset of the
/// pty's output PTY_DATA, compared around M (OUT is no longer than REF
/// byte for byte where M is empty: the reference runs agreed).
std::size_t got_in_pty(const field_mask& m, std::string_view pty_data, std::string_view ref,
                       std::string_view out) {
  if (m.empty() || !in_lines(pty_data)) return whole_lines_end(pty_data, out.size());
  return end_of_lines(pty_data, matching_lines(m, ref, out));
}

/// A program that ended by itself: what the pty got that this sink did not.
void judge_own_end(const doctor_sink& pty, const field_mask& mask, const run_options& base,
                   doctor_sink& s) {
  const std::string_view pty_data = pty.output().data;
  const std::size_t all = whole_lines_end(pty_data, pty_data.size());
  const std::size_t got = got_in_pty(mask, pty_data, pty_data, s.output().data);
  s.cuts.push_back(compare(s.sink, "its own end", pty_data, all, all, got, on_sink(base, s)));
}

/// What the pty had delivered a margin before the deadline, in whole lines.
std::size_t had_before_deadline(const doctor_options& o, const doctor_sink& pty) {
  const std::string_view pty_data = pty.output().data;
  const std::int64_t margin_us = std::max<std::int64_t>(200, o.deadline.count() / 4) * 1000;
  return whole_lines_end(pty_data,
                         delivered_before(write_ends(pty), o.deadline.count() * 1000 - margin_us));
}

/// S's run for a cut at the deadline: without the timeline (no stop at each
/// write's exit), its own time limit 5 s after the deadline.
run_options deadline_run(const doctor_options& o, const doctor_sink& s) {
  run_options r = on_sink(base_run(o), s);
  r.timeline = false;
  r.timeout += std::chrono::milliseconds(5000);
  return r;
}

/// A program still running at the deadline, stopped there by SIGKILL (its
/// reference run) and SIGTERM: it had made what the pty had delivered a
/// margin before the deadline (start-up times differ between runs).
void judge_deadline(const doctor_options& o, const doctor_sink& pty, const field_mask& mask,
                    doctor_sink& s) {
  const std::string_view pty_data = pty.output().data;
  const std::size_t had = had_before_deadline(o, pty);
  run_options r = deadline_run(o, s);
  r.kill = kill_plan::at_time(o.deadline.count(), SIGTERM);
  const observation term = run(r);
  const std::string_view term_out = (s.on_stderr ? term.err : term.out).data;
  // What the TERM run wrote that the pty did not (a handler's goodbye) is no output that arrived.
  const std::size_t term_got = mask.empty()
                                   ? whole_lines_end(pty_data, common_prefix(pty_data, term_out))
                                   : got_in_pty(mask, pty_data, pty_data, term_out);
  s.cuts.push_back(compare(s.sink, r.kill.text(), pty_data, had, had, term_got, r));
  r.kill = kill_plan::at_time(o.deadline.count(), SIGKILL);
  s.cuts.push_back(compare(s.sink, r.kill.text(), pty_data, had, had,
                           got_in_pty(mask, pty_data, pty_data, s.output().data), r));
}

/// Held everywhere: the pty's first write carried 2 lines or more, late.
/// Timed from the program's first traced call (the loader's first close),
/// not from the spawn: a start-up slowed by load holds nothing; whole lines
/// only.
void find_held(diagnosis& d) {
  const doctor_sink& pty = d.sinks.front();
  const auto ends = write_ends(pty);
  if (ends.empty() || !pty.reference.trace || pty.reference.trace->events.empty()) return;
  const std::string_view first = std::string_view(pty.output().data).substr(0, ends.front().end);
  d.held_lines = static_cast<std::size_t>(std::count(first.begin(), first.end(), '\n'));
  d.held_ms = (ends.front().t_us - pty.reference.trace->events.front().t_us) / 1000;
}

/// Why the cuts of S cannot be compared around what varies between runs: a
/// delivered one's output, not the reference's byte for byte, was past what
/// it kept of it; "" if none was.
std::string cut_past_its_head(const std::vector<explored_cut>& cuts, const diagnosis& d,
                              const doctor_sink& s) {
  if (d.mask.empty() || !in_lines(d.sinks.front().output().data)) return "";
  const std::size_t writes = write_ends(s).size();
  for (const auto& c : cuts)
    if (is_write_cut(c, writes) && c.delivered && !c.prefix && c.bytes > c.survived.size())
      return "on the " + std::string(to_string(s.sink)) + ", the output of " + c.cut.text() +
             " is past the " + std::to_string(c.survived.size() / 1024) +
             " KiB a cut keeps to compare it around what varies between runs (a smaller "
             "--max-cuts keeps more)";
  return "";
}

/// The pipe's or the file's run, judged against the pty's.
void judge_sink(const doctor_options& o, const std::vector<explored_cut>& cuts, diagnosis& d,
                doctor_sink& s) {
  const doctor_sink& pty = d.sinks.front();
  if (d.no_reference) return;
  d.no_reference_why = reference_gap(pty, s, d.mask);
  if (d.no_reference_why.empty()) d.no_reference_why = cut_past_its_head(cuts, d, s);
  if ((d.no_reference = !d.no_reference_why.empty())) return;
  s.late_ms = lateness_us(pty, write_ends(pty), s, write_ends(s)) / 1000;
  judge_cuts(cuts, pty, d.mask, base_run(o), s);
  if (s.ended)
    judge_own_end(pty, d.mask, base_run(o), s);
  else
    judge_deadline(o, pty, d.mask, s);
}

/// SINK's reference run alone, no cuts.
doctor_sink explore_uncut(explore_options e, sink_kind sink) {
  e.sinks = {sink};
  e.signals = {};
  return sink_of(std::move(explore(e).front()), e.base.timeout);
}

/// The pty's reference run (no cuts: it is what the others are held to).
doctor_sink explore_pty(explore_options e) { return explore_uncut(std::move(e), sink_kind::pty); }

/// A pty run stopped at the deadline where the pipe's and the file's ended
/// by themselves: load slowed it (or the program waits at a terminal), so
/// it runs again, with as long as they took allows; unless it ran a pager
/// there that they did not (a pager waits for a key).
void retry_a_stopped_pty_run(explore_options e, diagnosis& d) {
  const doctor_sink& pty = d.sinks.front();
  if (pty.ended) return;
  std::chrono::milliseconds longest{0};
  for (std::size_t i = 1; i < d.sinks.size(); ++i) {
    const doctor_sink& s = d.sinks[i];
    if (!s.ended || is_pager(ran_only_on_pty(pty, s))) return;
    longest = std::max(longest, duration_of(s));
  }
  e.base.timeout = run_limit(e.base.timeout, longest);
  d.sinks.front() = explore_pty(e);
}

/// The exploration of O's stream, its runs' limit from how long the program
/// took before (O.ended_in) when it ended by itself then.
explore_options exploration_of(const doctor_options& o) {
  explore_options e;
  e.base = base_run(o);
  e.on_stderr = o.stream == doctor_stream::err;
  e.keep = {keep_policy::kind::none, 0};  // a cut's counts are all the diagnosis reads
  // Its programs print times and pids (learn_what_varies): a derivation's
  // check would fail on them, and its few cuts are cheap to run.
  e.derive = false;
  e.jobs = o.jobs;
  if (o.ended_in) e.base.timeout = run_limit(o.deadline, *o.ended_in);
  return e;
}

/// What each of CUTS cut runs keeps of its output, its head: compared
/// around what varies between runs, a cut's output is read line by line.
/// Their output, the lines they lost and their torn tail (each up to this)
/// hold 16 MiB at most, what one reference run keeps.
keep_policy cut_keep(std::size_t cuts) {
  constexpr std::size_t all = std::size_t{16} << 20;
  return {keep_policy::kind::head,
          std::max<std::size_t>(4096, all / (3 * std::max<std::size_t>(cuts, 1)))};
}

/// The pipe's and the file's runs, cut by SIGKILL and SIGTERM, onto D's
/// sinks after the pty's; the cuts of each. E: the pty's exploration, set here for them.
std::vector<std::vector<explored_cut>> explore_pipe_and_file(const doctor_options& o,
                                                             explore_options e, diagnosis& d) {
  e.sinks = {sink_kind::pipe, sink_kind::file};
  e.signals = {SIGKILL, SIGTERM};
  e.max_cuts = 2 * o.max_cuts;
  e.keep = cut_keep(e.sinks.size() * e.max_cuts);
  std::vector<std::vector<explored_cut>> cuts;
  for (auto& explored : explore(e)) {
    for (auto& c : explored.cuts) {  // not read here
      c.lost = {};
      c.torn = {};
    }
    cuts.push_back(std::move(explored.cuts));  // sink_of takes the rest
    d.sinks.push_back(sink_of(std::move(explored), e.base.timeout));
  }
  return cuts;
}

/// Where the pipe's or the file's output differs from the pty's byte for
/// byte, or --ignore was given: the fields that vary between two uncut runs
/// on one sink, learnt into D's mask (a second run of the pty, where they
/// differ, and of the pipe and the file, each against its sink's reference
/// run). Never from a cut run: one that lost a record pairs the lines after
/// it with other records, whose numbers would look like fields that vary
/// and mask the loss. E: the pty's exploration.
void learn_what_varies(const explore_options& e, diagnosis& d) {
  const doctor_sink& pty = d.sinks.front();
  const bool differs = std::any_of(d.sinks.begin() + 1, d.sinks.end(),
                                   [&pty](const auto& s) { return differs_in_bytes(pty, s); });
  if (!differs && d.mask.empty()) return;
  for (std::size_t i = differs ? 0 : 1; i < d.sinks.size(); ++i) {
    const doctor_sink again = explore_uncut(e, d.sinks[i].sink);
    d.mask.learn(d.sinks[i].output().data, again.output().data);
  }
}

}  // namespace

std::string_view to_string(doctor_stream s) {
  switch (s) {
    case doctor_stream::out: return "stdout";
    case doctor_stream::err: return "stderr";
    case doctor_stream::merged: return "2>&1";
  }
  return "stdout";
}

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

bool diagnosis::wrote() const {
  return std::any_of(sinks.begin(), sinks.end(),
                     [](const doctor_sink& s) { return s.output().bytes > 0; });
}

diagnosis diagnose(const doctor_options& o) {
  explore_options e = exploration_of(o);
  diagnosis d;
  d.stream = o.stream;
  d.mask = field_mask(o.ignore);
  d.sinks.reserve(3);  // judge_sink refers to the pty's
  d.sinks.push_back(explore_pty(e));
  if (d.sinks.front().ended) e.base.timeout = run_limit(o.deadline, duration_of(d.sinks.front()));
  const auto cuts = explore_pipe_and_file(o, e, d);
  retry_a_stopped_pty_run(e, d);
  find_held(d);
  learn_what_varies(e, d);
  for (std::size_t i = 1; i < d.sinks.size(); ++i) judge_sink(o, cuts[i - 1], d, d.sinks[i]);
  return d;
}

}  // namespace flushcheck
