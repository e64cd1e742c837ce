// `flushcheck doctor`: what the program is, the diagnosis of each stream it
// writes, and the fixes.
#include "doctor.hpp"

#include <algorithm>

#include "doctor_reference.hpp"
#include "escape.hpp"
#include "program_switches.hpp"
#include "run.hpp"

namespace flushcheck {

namespace {

/// Whether the program wrote to stderr in the runs of D (there on a pipe).
bool wrote_stderr(const diagnosis& d) {
  return std::any_of(d.sinks.begin(), d.sinks.end(),
                     [](const doctor_sink& s) { return s.reference.err.bytes > 0; });
}

std::string nothing_written(const doctor_options& o, const diagnosis& d) {
  const doctor_sink& pty = d.sinks.front();
  return printable(o.argv.front(), 200) + " wrote nothing to stdout or stderr " +
         (pty.ended ? "before it ended (" + pty.reference.status.describe() + ")"
                    : "in " + std::to_string(o.deadline.count()) +
                          " ms (still running: try a longer --deadline)") +
         ": nothing to diagnose";
}

/// The program's own switch for a plain terminal (program_switches.hpp),
/// by its file name, put right after it.
std::optional<terminal_switch> plain_switch(const doctor_report& r) {
  const std::string& argv0 = r.argv.front();
  const std::string name0 = argv0.substr(argv0.rfind('/') + 1);
  const auto purpose = detail::switch_purpose::plain_terminal;
  const detail::program_switch* sw = detail::switch_of(name0, purpose);
  if (sw == nullptr) return std::nullopt;
  terminal_switch t{
      {sw->args.begin(), sw->args.end()}, r.argv, std::string(sw->effect), std::string(sw->source)};
  t.argv.insert(t.argv.begin() + 1, t.args.begin(), t.args.end());
  return t;
}

/// A report of what it knows before any run: the command line, what the
/// program is, the deadline, and the notes on the caller's environment.
doctor_report report_before_runs(const doctor_options& o) {
  doctor_report r;
  r.argv = o.argv;
  r.kind = identify(o.argv, o.env);
  r.deadline = o.deadline;
  r.notes = buffering_notes(current_environment(), &r.kind);
  return r;
}

/// The diagnoses of stderr, when the program wrote it, and of 2>&1, when it
/// wrote both, onto R's views; O's stream is the last diagnosed.
void diagnose_stderr_and_merged(doctor_options& o, doctor_report& r, bool to_stdout,
                                bool to_stderr) {
  for (auto [stream, wanted] : {std::pair{doctor_stream::err, to_stderr},
                                std::pair{doctor_stream::merged, to_stdout && to_stderr}})
    if (wanted) {
      o.stream = stream;
      r.views.push_back(diagnose(o));
    }
}

}  // namespace

std::string_view to_string(doctor_verdict v) {
  switch (v) {
    case doctor_verdict::lost: return "lost";
    case doctor_verdict::held: return "held";
    case doctor_verdict::no_verdict: return "no verdict";
    case doctor_verdict::late: return "late";
    case doctor_verdict::safe: return "safe";
  }
  return "safe";
}

const diagnosis* doctor_report::merged() const {
  for (const auto& d : views)
    if (d.stream == doctor_stream::merged) return &d;
  return nullptr;
}

bool doctor_report::reordered() const {
  return merged() != nullptr && merged()->no_reference &&
         std::none_of(views.begin(), views.end(), [](const diagnosis& d) {
           return d.no_reference && d.stream != doctor_stream::merged;
         });
}

doctor_verdict doctor_report::verdict() const {
  auto any = [this](auto pred) { return std::any_of(views.begin(), views.end(), pred); };
  if (any([](const diagnosis& d) { return d.lost(); })) return doctor_verdict::lost;
  if (any([](const diagnosis& d) { return d.held(); })) return doctor_verdict::held;
  if (any([](const diagnosis& d) { return d.no_reference; }) && !reordered())
    return doctor_verdict::no_verdict;
  if (any([](const diagnosis& d) { return d.late(); })) return doctor_verdict::late;
  return doctor_verdict::safe;
}

doctor_report doctor(doctor_options o) {
  doctor_report r = report_before_runs(o);
  o.stream = doctor_stream::out;
  diagnosis out = diagnose(o);
  const bool to_stdout = out.wrote(), to_stderr = wrote_stderr(out);
  if (!to_stdout && !to_stderr) throw no_output_error(nothing_written(o, out));
  const doctor_sink& pty = out.sinks.front();
  if (pty.ended) o.ended_in = duration_of(pty);
  if (to_stdout) r.views.push_back(std::move(out));
  diagnose_stderr_and_merged(o, r, to_stdout, to_stderr);
  r.fixes = try_fixes(o, r.kind, r.views);
  if (r.verdict() == doctor_verdict::no_verdict) r.plain_terminal = plain_switch(r);
  return r;
}

}  // namespace flushcheck
