// A property case, run and checked (property_run.hpp).
#include "property_run.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <sstream>

#include "error.hpp"
#include "escape.hpp"
#include "file_target.hpp"
#include "kill_plan.hpp"
#include "reader_policy.hpp"

namespace flushcheck {

std::optional<std::size_t> workload_outcome::first_broken() const {
  if (!tested()) return std::nullopt;
  for (std::size_t i = 0; i < checks.size(); ++i)
    if (!checks[i].pass()) return i;
  return std::nullopt;
}

std::string breach::text() const { return term.text() + ": " + std::string(check_name(check)); }

std::ostream& operator<<(std::ostream& os, const breach& b) { return os << b.text(); }

std::ostream& operator<<(std::ostream& os, const std::optional<breach>& b) {
  return b ? os << *b : os << "(none)";
}

std::optional<breach> workload_outcome::broken() const {
  const auto i = first_broken();
  if (!i) return std::nullopt;
  return breach{terms[*i], checks[*i].expect.check};
}

namespace {

using clock = std::chrono::steady_clock;

/// SPEC's driver with WORKLOAD appended, on SINK, each of CHECKS expected
/// (traced: the caller says when it need not be).
gate_run make_run(const property_spec& spec, const std::vector<std::string>& workload,
                  sink_kind sink, const std::vector<promised_check>& checks,
                  const case_run_options& o) {
  std::vector<std::string> argv = spec.argv;
  argv.insert(argv.end(), workload.begin(), workload.end());
  gate_run g(argv);
  g.sinks(sink, spec.stderr_sink);
  for (const auto& e : spec.env) g.env(e);
  for (const auto& w : spec.watch) g.watch(w);
  for (const auto& c : checks) g.expect(c.expect);
  g.timeout(std::chrono::milliseconds(spec.timeout_ms)).on_spawn(o.on_spawn);
  if (o.deadline) g.deadline(*o.deadline);
  g.keep({keep_policy::kind::tail, 4096});  // stderr's last words, for a driver that fails
  if (o.timeline) g.timeline();
  return g;
}

/// The driver's last words on stderr (what it shares with stdout when
/// merged): its last 10 lines within its last 2,000 bytes, each escaped.
std::string stderr_tail(const gate_result& r) {
  std::string text = r.obs.err.sink.merged() ? r.obs.out.data : r.obs.err.data;
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  if (text.size() > 2000) text.erase(0, text.size() - 2000);
  std::vector<std::string> lines;
  for (std::size_t at = 0; at < text.size();) {
    const auto nl = std::min(text.find('\n', at), text.size());
    lines.push_back(printable(text.substr(at, nl - at), 400));
    at = nl + 1;
  }
  std::string out;
  for (std::size_t i = lines.size() > 10 ? lines.size() - 10 : 0; i < lines.size(); ++i)
    out += (out.empty() ? "" : "\n") + lines[i];
  return out;
}

/// The stderr line a driver that refused a workload wrote last.
std::string last_line(const std::string& tail) {
  const auto nl = tail.rfind('\n');
  return nl == std::string::npos ? tail : tail.substr(nl + 1);
}

/// Why R, run with SPEC_TIMEOUT, says nothing about the library, into OUT:
/// the budget, a timeout, a refusal, a full file sink.
void judge_run(const gate_result& r, long spec_timeout, workload_outcome& out) {
  const wait_status& s = r.obs.status;
  if (r.out_of_time) {
    out.out_of_budget = true;
  } else if (s.type() == wait_status::kind::timeout) {
    out.error_kind = case_error::timeout;
    out.error = "the driver ran past its timeout_ms (" + std::to_string(spec_timeout) + " ms)";
  } else if (s.type() == wait_status::kind::exited && s.code() == 64) {
    out.error_kind = case_error::driver;
    out.error = "the driver refused the workload (exit 64): " + last_line(out.driver_stderr);
  } else if (!r.obs.harness_failure.empty()) {
    out.error_kind = case_error::harness;
    out.error = r.obs.harness_failure;
  }
}

/// "" when C's planned end happened in R; else why not.
std::string missed_end(const property_spec& spec, const workload_case& c, const gate_result& r) {
  if (is_cut(c.end)) {
    if (r.obs.kill && r.obs.kill->delivered) return "";
    if (c.cut == kill_plan::when_kind::marker)
      return r.obs.markers.empty()
                 ? "the driver never reached marker 1: does it speak the marker protocol?"
                 : "the cut at marker 1 was not delivered";
    return c.cut == kill_plan::when_kind::write
               ? "the run ended before its cut's write to " + spec.in.text()
               : "the run ended before its cut's time";
  }
  if (c.end != property_end::fault) return "";
  if (r.obs.trace && !r.obs.trace->faults.empty() && r.obs.trace->faults.front().applied())
    return "";
  return "the run ended before the fault's write to " + spec.in.text();
}

/// Into OUT, the run R of CHECKS: how it ended, and each check's term and outcome.
void add_run(const gate_result& r, const std::vector<promised_check>& checks,
             workload_outcome& out) {
  out.status = r.obs.status.describe();
  out.repro = r.repro;
  out.driver_stderr = stderr_tail(r);
  out.processes = r.obs.trace ? r.obs.trace->processes : 0;
  for (std::size_t i = 0; i < checks.size(); ++i) {
    out.terms.push_back(checks[i].term);
    out.checks.push_back({checks[i].expect, r.checks[i]});
  }
}

/// R, run as G, into OUT; nullopt when it could not start (OUT says why).
std::optional<gate_result> start(const gate_run& g, workload_outcome& out) {
  try {
    return g.run();
  } catch (const spawn_error& e) {
    out.error_kind = case_error::spawn;
    out.error = std::string("cannot start ") + e.what();
    return std::nullopt;
  }
}

/// Whether SPEC generates cuts at a marker (TERM or KILL with marker cuts).
bool cuts_at_markers(const property_spec& spec) {
  const bool cut =
      spec.promises.contains(property_end::term) || spec.promises.contains(property_end::kill);
  return cut && std::find(spec.cuts.begin(), spec.cuts.end(), kill_plan::when_kind::marker) !=
                    spec.cuts.end();
}

/// Whether SPEC generates cuts or faults at the N-th write to its records' stream.
bool acts_at_writes(const property_spec& spec) {
  const bool cut =
      (spec.promises.contains(property_end::term) || spec.promises.contains(property_end::kill)) &&
      std::find(spec.cuts.begin(), spec.cuts.end(), kill_plan::when_kind::write) != spec.cuts.end();
  return cut || spec.promises.contains(property_end::fault);
}

/// The lowest level SPEC logs at.
std::string lowest_level(const property_spec& spec) {
  for (const auto& l : workload_levels())
    if (std::find(spec.levels.begin(), spec.levels.end(), l) != spec.levels.end()) return l;
  return workload_levels().front();
}

/// Whether the cut at the first write to SPEC's log file, as a case plans
/// it, selects the watched file at PATH (the glob's escaping of its name).
bool write_cut_reaches(const property_spec& spec, const std::string& path) {
  const std::string dir = path.substr(0, path.rfind('/'));
  std::string plan = "KILL@" + nth_write_to(spec, 1);
  plan.replace(plan.find("{logdir}"), 8, dir);
  return file_target_matches(kill_plan::parse(plan).file, path);
}

/// The files other than the standard streams that R's tracer saw written,
/// at most three: where a log's writes went when they did not reach it.
std::string files_written(const gate_result& r) {
  std::string out;
  int n = 0;
  if (r.obs.trace)
    for (const auto& d : r.obs.trace->destinations)
      if (d.role == stream_role::none && d.write_calls > 0 && n++ < 3)
        out += (out.empty() ? "" : ", ") + printable(d.what, 200);
  return out.empty() ? "none" : out;
}

/// Why cuts and faults at SPEC's writes cannot reach its records, which R
/// shows arrived: the tracer saw no write to them, or the glob a cut names
/// a log file with does not select it; or "".
std::string writes_unreachable(const property_spec& spec, const gate_result& r) {
  if (r.writes(spec.in) == 0)
    return "record 0 arrived in " + spec.in.text() +
           ", but the tracer saw no write to it: cuts and faults at a write cannot reach it "
           "(files it saw written: " +
           files_written(r) + ")";
  const auto f = spec.in.is_file() ? r.files.find(spec.in.file_name()) : r.files.end();
  if (f != r.files.end() && !write_cut_reaches(spec, f->second.path))
    return "a cut at a write to " + spec.in.text() + " would not select " + f->second.path;
  return "";
}

/// Why the driver check R of SPEC (MARKER: with a marker) shows a driver
/// that failed, or "".
std::string driver_failure(const property_spec& spec, const gate_result& r, bool marker) {
  const wait_status& s = r.obs.status;
  const bool exited = s.type() == wait_status::kind::exited;
  if (exited && (s.code() == 126 || s.code() == 127))
    return "the driver " + s.describe() + ": its program could not be run (" +
           (s.code() == 127 ? "not found" : "not executable") + ")";
  const long arrived = r.records.contains(spec.in) ? r.records.at(spec.in) : 0;
  if (arrived == 0 && !(exited && s.code() == 0))
    return "the driver " + s.describe() + " before its first record arrived in " + spec.in.text();
  if (marker && r.obs.markers.empty())
    return "the driver never reached its marker: does it speak the marker protocol "
           "(FLUSHCHECK_MARKER_FD, docs/markers.md)?";
  return acts_at_writes(spec) && arrived > 0 ? writes_unreachable(spec, r) : "";
}

/// The driver check's plan: `log LEVEL 0`, a marker when MARKER, `return 0`.
case_plan driver_check_plan(const property_spec& spec, bool marker) {
  case_plan p;
  p.workload = {"log " + lowest_level(spec) + " 0"};
  if (marker) p.workload.push_back("marker driver_check");
  p.workload.push_back("return 0");
  p.sink = spec.sinks.front();
  p.end = "return 0";
  return p;
}

}  // namespace

workload_outcome run_driver_check(const property_spec& spec, const case_run_options& o) {
  workload_outcome out;
  const bool marker = cuts_at_markers(spec);
  out.plan = driver_check_plan(spec, marker);
  gate_run g = make_run(spec, out.plan.workload, out.plan.sink, {}, o);
  if (!spec.traced && !acts_at_writes(spec)) g.untraced();  // traced: its writes are checked
  const auto r = start(g, out);
  if (!r) return out;
  add_run(*r, {}, out);
  judge_run(*r, spec.timeout_ms, out);
  if (out.error_kind == case_error::timeout) out.error_kind = case_error::driver;
  if (out.error_kind != case_error::none || out.out_of_budget) return out;
  if (auto why = driver_failure(spec, *r, marker); !why.empty()) {
    out.error_kind = case_error::driver;
    out.error = why;
  }
  return out;
}

namespace {

/// C run with its cut, or uncut (UNCUT); WHOLE: each stream and watched
/// file kept up to kept_whole bytes, else stderr's last words only.
case_run run_case(const property_spec& spec, const workload_case& c, const case_run_options& o,
                  bool uncut, bool whole) {
  case_run run;
  workload_outcome& out = run.out;
  out.plan = plan_of(spec, c);
  const auto checks = uncut ? std::vector<promised_check>{} : promised_checks(spec, c, out.plan);
  case_plan plan = out.plan;
  if (uncut) plan.cut = "never";
  gate_run g = make_run(spec, plan.workload, plan.sink, checks, o);
  if (!spec.traced && !uncut) g.untraced();
  if (plan.fault) g.fault(*plan.fault);
  g.cut(plan.cut);
  if (whole) g.keep({keep_policy::kind::head, kept_whole});
  run.result = start(g, out);
  if (!run.result) return run;
  const gate_result& r = *run.result;
  add_run(r, checks, out);
  judge_run(r, spec.timeout_ms, out);
  if (out.error_kind == case_error::none && !out.out_of_budget && !uncut)
    out.missed = missed_end(spec, c, r);
  if (o.timeline) out.obs = r.obs;
  return run;
}

}  // namespace

workload_outcome run_workload_case(const property_spec& spec, const workload_case& c,
                                   const case_run_options& o) {
  return run_case(spec, c, o, false, false).out;
}

case_run run_case_whole(const property_spec& spec, const workload_case& c,
                        const case_run_options& o, bool uncut) {
  return run_case(spec, c, o, uncut, true);
}

namespace {

/// C as it stands in a TOML basic string: '"' and '\\' escaped, a control
/// character as \n, \t, \r or \uXXXX, any other byte (UTF-8: the gate
/// file's own strings are) as it is.
std::string toml_char(char ch) {
  const auto c = static_cast<unsigned char>(ch);
  if (c == '"' || c == '\\') return std::string("\\") + ch;
  if (c == '\n') return "\\n";
  if (c == '\t') return "\\t";
  if (c == '\r') return "\\r";
  if (c >= 0x20 && c != 0x7f) return std::string(1, ch);
  char u[8];
  std::snprintf(u, sizeof u, "\\u%04x", c);
  return u;
}

/// S as a TOML basic string on one line (\n, not a multi-line string that
/// pasting would indent).
std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char ch : s) out += toml_char(ch);
  return out + "\"";
}

std::string quoted_list(const std::vector<std::string>& v) {
  std::string out = "[";
  for (std::size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + quoted(v[i]);
  return out + "]";
}

/// The [[case.expect]] table of one check of SPEC: on its records' stream
/// as the file spells it, and, for a property that must break, holds = false.
std::string expect_toml(const property_spec& spec, const gate_expect& e) {
  std::string out = "[[case.expect]]\nin = " + quoted(spec.raw_in) + "\n";
  if (!spec.holds) out += "holds = false\n";
  out += std::string(check_name(e.check)) + " = ";
  if (e.check == check_id::no_torn_record)
    return out + (e.text.empty() ? "true" : quoted(e.text)) + "\n";
  if (e.check == check_id::max_writes_per_record) {
    std::ostringstream os;
    os << e.ratio;
    return out + os.str() + "\n";
  }
  return out + std::to_string(e.number) + "\n";
}

/// The case's first lines: "[[case]]", its NAME, the driver's command with
/// PLAN's workload, and its sinks.
std::string case_head(const property_spec& spec, const case_plan& plan, const std::string& name) {
  std::vector<std::string> command = spec.command;
  command.insert(command.end(), plan.workload.begin(), plan.workload.end());
  return "[[case]]\nname = " + quoted(name) + "\ncommand = " + quoted_list(command) +
         "\nstdout = " + quoted(std::string(to_string(plan.sink))) +
         "\nstderr = " + quoted(std::string(spec.stderr_sink.name())) + "\n";
}

/// What the case sets so that the file's [defaults] change nothing of how
/// PLAN ran: no args after its command (which has them), and its own cut,
/// faults and reader where [defaults] has one and PLAN none.
std::string undone_defaults(const property_spec& spec, const case_plan& plan) {
  std::string out;
  for (const auto& k : spec.undone_defaults) {
    if (k == "args") out += "args = []\n";
    if (k == "cut" && plan.cut == "never") out += "cut = \"never\"\n";
    if (k == "faults" && !plan.fault) out += "faults = []\n";
    if (k == "reader") out += "reader = " + quoted(reader_policy{}.text()) + "\n";
  }
  return out;
}

/// "env = { "NAME" = "value", ... }" of ENV's "NAME=value"s.
std::string env_toml(const std::vector<std::string>& env) {
  std::string out = "env = {";
  for (std::size_t i = 0; i < env.size(); ++i) {
    const auto eq = env[i].find('=');
    out += (i ? ", " : " ") + quoted(env[i].substr(0, eq)) + " = " + quoted(env[i].substr(eq + 1));
  }
  return out + " }\n";
}

}  // namespace

std::string case_toml(const property_spec& spec, const workload_case& c, const gate_expect& check,
                      const std::string& name) {
  const case_plan plan = plan_of(spec, c);
  std::string out = case_head(spec, plan, name);
  if (!spec.raw_watch.empty()) out += "watch = " + quoted_list(spec.raw_watch) + "\n";
  if (!spec.raw_env.empty()) out += env_toml(spec.raw_env);
  if (plan.cut != "never") out += "cut = " + quoted(plan.cut) + "\n";
  if (plan.fault) out += "faults = [" + quoted(*plan.fault) + "]\n";
  out += undone_defaults(spec, plan);
  out += "timeout_ms = " + std::to_string(spec.timeout_ms) + "\n";
  if (!spec.traced) out += "traced = false\n";
  return out + expect_toml(spec, check);
}

}  // namespace flushcheck
