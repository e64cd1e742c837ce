#include "doctor_pictures.hpp"

#include <algorithm>
#include <cstdint>

#include "repro.hpp"
#include "run.hpp"

namespace flushcheck {
namespace {

/// The diagnosis and cut that lost most, of every stream's.
std::pair<const diagnosis*, const doctor_cut*> worst_of(const doctor_report& r) {
  std::pair<const diagnosis*, const doctor_cut*> worst{nullptr, nullptr};
  for (const auto& d : r.views)
    if (const doctor_cut* c = d.worst();
        c && (!worst.second || c->excess() > worst.second->excess()))
      worst = {&d, c};
  return worst;
}

bool on_stderr(const diagnosis& d) { return d.stream == doctor_stream::err; }

/// What a pty reader had at the cut: "lost" is against it.
produced_output pty_had(const diagnosis& d, const doctor_cut& c) {
  const std::string& data = d.sinks.front().output().data;
  const std::string_view had = std::string_view(data).substr(0, std::min(c.pty_bytes, data.size()));
  return {c.pty_bytes, static_cast<std::uint64_t>(std::count(had.begin(), had.end(), '\n')),
          "what a pty reader had at the same point"};
}

/// R traced and timed: the page draws each call and how long it blocked.
observation drawn_run(run_options r) {
  r.trace = true;
  r.timeline = true;
  r.keep = {keep_policy::kind::all, 0};
  return run(r);
}

/// The write of a run of R after which the stream had HAD bytes (1-based; 0: none).
long write_that_ends(const run_options& r, bool err, std::size_t had) {
  run_options uncut = r;
  uncut.kill = kill_plan{}.on_stderr_stream(err);
  const observation obs = drawn_run(uncut);
  if (!obs.trace) return 0;
  long n = 0;
  std::int64_t bytes = 0;
  for (const trace_event* e : obs.trace->stream_writes(err)) {
    ++n;
    bytes += e->bytes_written();  // as the diagnosis counts them (doctor_diagnosis.cpp)
    if (bytes >= static_cast<std::int64_t>(had)) return n;
  }
  return n;
}

/// The worst cut's run with FIX: its command, environment and sink; a write
/// cut where the fixed program had made the same output.
run_options with_fix(const doctor_cut& c, const doctor_fix& fix, bool err) {
  run_options r = c.run;
  if (!fix.argv.empty()) r.argv = fix.argv, r.env = fix.env;
  if (fix.sink && err)
    r.stderr_sink = *fix.sink;
  else if (fix.sink)
    r.stdout_sink = *fix.sink;
  if (!r.kill.needs_tracer()) return r;
  const long n = write_that_ends(r, err, c.had_bytes);
  if (n > 0) r.kill.n = n;
  return r;
}

/// The worst cut's run as it is.
doctor_picture as_it_is(const doctor_cut& worst, const produced_output& had, bool err) {
  const std::string where = worst.cut + " on a " + std::string(to_string(worst.sink));
  return {"the cut that lost most: " + where,
          drawn_run(worst.run),
          {"as it is: " + where, had, err},
          worst.repro};
}

/// The worst cut's run with FIX, which helped.
doctor_picture fixed_by(const doctor_cut& worst, const doctor_fix& fix, const produced_output& had,
                        bool err) {
  const run_options fixed = with_fix(worst, fix, err);
  return {"with " + fix.name + ": " + fixed.kill.text(),
          drawn_run(fixed),
          {"with " + fix.name, had, err},
          repro_command(fixed)};
}

}  // namespace

std::vector<doctor_picture> doctor_pictures(const doctor_report& r) {
  const auto [d, worst] = worst_of(r);
  if (!worst) return {};
  const bool err = on_stderr(*d);
  const produced_output had = pty_had(*d, *worst);
  std::vector<doctor_picture> out;
  out.push_back(as_it_is(*worst, had, err));
  for (const auto& fix : r.fixes) {
    if (!fix.helps) continue;
    out.push_back(fixed_by(*worst, fix, had, err));
  }
  return out;
}

}  // namespace flushcheck
