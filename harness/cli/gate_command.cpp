// `flushcheck gate FILE`: a gate file's cases (gate_file.hpp), run one after
// another and handed to the reporter of each format asked for.
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <limits>

#include "commands.hpp"
#include "error.hpp"
#include "escape.hpp"
#include "gate_report.hpp"
#include "gate_wire.hpp"
#include "install_layout.hpp"
#include "interrupts.hpp"
#include "json_document.hpp"
#include "option_values.hpp"
#include "parse_number.hpp"
#include "property_search.hpp"
#include "report_file.hpp"
#include "repro.hpp"
#include "usage.hpp"
#include "workers.hpp"

namespace flushcheck::cli {

namespace {

/// The gate file, its variables, and which of its cases run (or are listed).
void add_file_options(gate_command& c) {
  c.app->add_option("file", c.file, "the gate file")->required();
  c.app->add_option("--case", c.only, "run only this case or property (repeatable)");
  c.app->add_option("--var", c.vars,
                    "NAME=VALUE, repeatable: \"{NAME}\" in the file's strings is VALUE (a "
                    "program's path, say; flushcheck_add_gate_file passes its PROGRAMS so)");
  c.app->add_flag("--list", c.list,
                  "print the cases' and properties' names, one a line, and run nothing");
}

/// --cases, --seed, --max-seconds and --derive: how each property searches; --jobs: how
/// many runs (cases, a search's cases) go side by side.
void add_property_options(gate_command& c) {
  c.app
      ->add_option("--cases", c.cases,
                   "cases each [[property]] generates (default: its own cases = N, else 100)")
      ->check(CLI::Range(1L, 1000000L));
  c.app->add_option("--seed", c.seed,
                    "the properties' seed, 0 to 2^64-1 (default: a fresh one; printed, and the "
                    "same seed generates the same cases)");
  c.app
      ->add_option("--max-seconds", c.max_seconds,
                   "bounds each property's search, and its shrinking and re-runs again; no run "
                   "lasts past it (default: its own max_seconds = T, else 30)")
      ->check([](const std::string& text) -> std::string {
        const double v = std::strtod(text.c_str(), nullptr);
        return std::isfinite(v) && v >= 0 && v <= 86400 ? "" : "expected 0 to 86400 seconds";
      });
  add_derive_option(c.app, c.derive,
                    "on: a case that ends with a KILL at a write is checked at every write of "
                    "its workload, derived from one traced run where that is sound, with a "
                    "sample run to check; off: at the one write it drew");
  add_jobs_option(c.app, c.jobs);
}

/// The help's footer: what each exit status of gate means.
std::string gate_footer() {
  return exit_footer({{exit_ok, "every case passed and every property kept its promise"},
                      {exit_failed,
                       "a case failed, or a property found a counterexample, checked nothing of "
                       "an end it promises, or ran past a timeout_ms"},
                      {exit_usage,
                       "a bad gate file or flag (with the file's line and the reason), or a "
                       "property's driver that failed its check run (with its stderr)"},
                      {exit_spawn,
                       "a program could not be started (the other cases still run and are "
                       "reported)"},
                      {exit_harness,
                       "a failure of the harness's own (a file sink or log directory whose file "
                       "system is full), never a verdict"}});
}

}  // namespace

gate_command::gate_command(CLI::App& parent) {
  app = parent.add_subcommand("gate",
                              "Run a gate file (TOML, docs/gate.md): each case runs a program, "
                              "cuts it, and checks what survived");
  add_file_options(*this);
  add_property_options(*this);
  add_report_flag(app, "--json", json, "one JSON object (names in docs/cli.md)");
  app->add_option("--junit", junit, "also write JUnit XML to this file (for CI systems)");
  app->add_option("--html", html,
                  "write one self-contained HTML page: each case, and each property with its "
                  "counterexample's run drawn as `run --html` draws one, its repeat line and "
                  "its [[case]]");
  app->footer(gate_footer());
}

namespace {

bool named(const std::vector<std::string>& only, const std::string& name) {
  return only.empty() || std::find(only.begin(), only.end(), name) != only.end();
}

/// --case's names must each be a case or a property of F.
void check_names(const gate_file& f, const std::vector<std::string>& only) {
  for (const auto& name : only)
    if (std::none_of(f.cases.begin(), f.cases.end(), [&](auto& c) { return c.name == name; }) &&
        std::none_of(f.properties.begin(), f.properties.end(),
                     [&](auto& p) { return p.name == name; }))
      throw usage_error("--case=" + printable(name, 200) + ": " + f.path +
                        " has no case or property of that name");
}

/// "flushcheck" as the caller's shell finds this binary, or its path.
std::string this_flushcheck() {
  const char* path = std::getenv("PATH");
  return flushcheck_word(path != nullptr ? path : "/bin:/usr/bin");
}

/// The command that searches property P again as this search did: CASES
/// cases from SEED within MAX_SECONDS (the shortest text that reads back
/// as the same double), its cuts derived or not.
std::string repeat_line(const gate_command& cmd, const std::string& p, long cases,
                        double max_seconds, std::uint64_t seed) {
  char seconds[64];
  const auto end = std::to_chars(seconds, seconds + sizeof seconds, max_seconds).ptr;
  std::string out = this_flushcheck() + " gate " + shell_quote(cmd.file);
  bool newline = cmd.file.find('\n') != std::string::npos;
  for (const auto& v : cmd.vars) {
    out += " --var " + shell_quote(v);
    newline = newline || v.find('\n') != std::string::npos;
  }
  out += " --case " + shell_quote(p) + " --cases " + std::to_string(cases) + " --max-seconds " +
         std::string(seconds, end) + " --seed " + std::to_string(seed);
  if (!derive_on(cmd.derive)) out += " --derive off";
  return posix_line(out, newline);  // all of it inside a `bash -c` when it is one
}

/// The text report goes to stdout as each case and property ends (CI logs
/// show each result when it is known); nothing when a report takes stdout.
struct live_text {
  bool on = true;
  void print(const std::string& text) const {
    if (!on) return;
    std::cout << text;
    std::cout.flush();
  }
};

/// F's cases that CMD's --case names (all when it names none), run on
/// --jobs workers into REPORT, each taken (printed, its logger row added)
/// in the file's order.
void run_cases(const gate_command& cmd, const gate_file& f, gate_report& report,
               const live_text& out) {
  std::vector<const gate_case*> todo;
  for (const auto& c : f.cases)
    if (named(cmd.only, c.name)) todo.push_back(&c);
  run_in_workers<gate_case_result>(
      jobs_or_cpus(cmd.jobs), static_cast<long>(todo.size()),
      [&](long i) {
        gate_case_result r = run_gate_case(f, *todo[i], remember_child);
        remember_child(0);
        return r;
      },
      [&](long, gate_case_result r) {
        report.cases.push_back(std::move(r));
        if (report.cases.back().row) loggers::add_row(*report.cases.back().row);
        out.print(to_text(report.cases.back()));
        return true;
      },
      encode_case_result, decode_case_result);
}

/// A live progress line on stderr for property NAME, when stderr is a
/// terminal: cases run and their rate, then the shrinking and rating steps.
class progress_line {
 public:
  explicit progress_line(std::string name) : name_(std::move(name)), on_(::isatty(2) == 1) {}
  ~progress_line() {
    if (shown_) std::cerr << "\r\x1b[K" << std::flush;
  }
  void operator()(const search_progress& p) {
    const auto now = std::chrono::steady_clock::now();
    if (!on_ || now - last_ < std::chrono::milliseconds(100)) return;
    last_ = now;
    shown_ = true;
    std::cerr << "\r\x1b[K" << terminal_text(error_line(name_)) << ": " << text(p) << std::flush;
  }

 private:
  static std::string text(const search_progress& p) {
    using phase = search_progress::phase;
    char rate[64];
    std::snprintf(rate, sizeof rate, "%.1f", p.seconds > 0 ? p.cases / p.seconds : 0.0);
    if (p.now == phase::searching)
      return std::to_string(p.cases) + " of " + std::to_string(p.cases_asked) + " cases, " + rate +
             " cases/s";
    if (p.now == phase::shrinking)
      return "shrinking: " + std::to_string(p.shrink_steps) + " steps, " +
             std::to_string(p.shrink_tries) + " candidates";
    return "re-running the case found: " + std::to_string(p.runs) + " runs";
  }
  std::string name_;
  bool on_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point last_{};
};

/// The seed --seed gives (checked: a decimal from 0 to 2^64-1), or a fresh one.
std::uint64_t seed_of(const std::string& text) {
  if (text.empty()) return fresh_seed();
  const auto seed = detail::parse_number(text, 0, std::numeric_limits<std::uint64_t>::max());
  if (!seed)
    throw usage_error("--seed=" + printable(text, 40) + ": expected a decimal from 0 to " +
                      std::to_string(std::numeric_limits<std::uint64_t>::max()));
  return *seed;
}

/// How CMD's properties search: its seed and reports.
search_options search_options_of(const gate_command& cmd) {
  search_options o;
  o.seed = seed_of(cmd.seed);
  o.jobs = jobs_or_cpus(cmd.jobs);
  o.derive = derive_on(cmd.derive);
  o.on_spawn = remember_child;
  o.timeline = !cmd.html.empty();
  return o;
}

/// P searched as O says (its cases, budget and repeat line set here), with a
/// progress line on a terminal.
property_result search_one(const gate_command& cmd, const property_spec& p, search_options o) {
  o.cases = cmd.cases.value_or(p.cases > 0 ? p.cases : 100);
  o.max_seconds =
      cmd.max_seconds.value_or(p.max_seconds > 0 ? static_cast<double>(p.max_seconds) : 30);
  o.repeat = repeat_line(cmd, p.name, o.cases, o.max_seconds, o.seed);
  std::cerr << "property " << terminal_text(error_line(p.name)) << ": seed " << o.seed << ", "
            << o.cases << " cases\n";
  progress_line progress(p.name);
  o.on_progress = std::ref(progress);
  property_result r = search_property(p, o);
  remember_child(0);
  return r;
}

/// F's properties that CMD's --case names, each searched into REPORT.
void search_properties(const gate_command& cmd, const gate_file& f, gate_report& report,
                       const live_text& out) {
  const search_options o = search_options_of(cmd);
  for (const auto& p : f.properties) {
    if (!named(cmd.only, p.name)) continue;
    report.properties.push_back(search_one(cmd, p, o));
    out.print(to_text(report.properties.back()));
  }
}

/// The cases and properties CMD names, run into one report, each printed
/// as it ends when OUT is on.
gate_report run_gate(const gate_command& cmd, const gate_file& f, const live_text& out) {
  gate_report report{f.path, {}, {}};
  run_cases(cmd, f, report, out);
  search_properties(cmd, f, report, out);
  return report;
}

/// REPORT's last line as text (when OUT is on: the rest was printed as it
/// came), and the JSON, JUnit XML and HTML reports asked for.
void write_reports(const gate_report& report, const live_text& out, report_file& json_out,
                   report_file& junit_out, report_file& html_out) {
  out.print(summary_text(report));
  json_out.commit([&] { return dump_json(to_json(report)); });
  junit_out.commit([&] { return to_junit(report); });
  html_out.commit([&] { return to_html(report); });
}

/// 2 when a property's driver failed (as for a bad gate file), 3 when a
/// program did not start (as for `run`), 4 when the harness failed, 1 when
/// a case or property failed, else 0.
int exit_status(const gate_report& report) {
  const auto any = [&](property_error e) {
    return std::any_of(report.properties.begin(), report.properties.end(),
                       [e](auto& p) { return p.error_kind == e; });
  };
  const bool harness = std::any_of(report.cases.begin(), report.cases.end(),
                                   [](auto& c) { return !c.harness_failure.empty(); });
  if (harness || any(property_error::harness)) return exit_harness;
  const bool spawn = std::any_of(report.cases.begin(), report.cases.end(),
                                 [](auto& c) { return !c.error.empty(); });
  if (spawn || any(property_error::spawn)) return exit_spawn;
  if (any(property_error::driver)) return exit_usage;
  return report.failed() + report.properties_failed() == 0 ? exit_ok : exit_failed;
}

/// The variables of CMD's file: "{runtimes}", the workload helpers'
/// directory of this flushcheck, then --var's (which may name another).
std::vector<std::string> file_vars(const gate_command& cmd) {
  std::vector<std::string> vars = {"runtimes=" + runtimes_dir()};
  vars.insert(vars.end(), cmd.vars.begin(), cmd.vars.end());
  return vars;
}

}  // namespace

int gate_command::execute() {
  const gate_file f = parse_gate_file(file, file_vars(*this));
  if (list) {
    for (const auto& c : f.cases) std::cout << c.name << "\n";
    for (const auto& p : f.properties) std::cout << p.name << "\n";
    return exit_ok;
  }
  check_names(f, only);
  report_file json_out("--json", json), junit_out("--junit", junit);
  report_file html_out = report_file::page("--html", html);
  one_on_stdout(json_out, junit_out, "--json and --junit");
  refuse_same_as({&json_out, &junit_out, &html_out}, file, "the gate file");
  const live_text out{!json_out.on_stdout() && !junit_out.on_stdout()};
  const gate_report report = run_gate(*this, f, out);
  write_reports(report, out, json_out, junit_out, html_out);
  return exit_status(report);
}

}  // namespace flushcheck::cli
