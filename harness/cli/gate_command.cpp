// `flushcheck gate FILE`: a gate file's cases (gate_file.hpp), run one after
// another and handed to the reporter of each format asked for.
#include <algorithm>
#include <fstream>
#include <iostream>

#include "commands.hpp"
#include "error.hpp"
#include "escape.hpp"
#include "gate_report.hpp"
#include "json_document.hpp"
#include "property_search.hpp"
#include "report_file.hpp"
#include "usage.hpp"

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

/// --cases, --seed and --max-seconds: how each property searches.
void add_property_options(gate_command& c) {
  c.app
      ->add_option("--cases", c.cases,
                   "cases each [[property]] generates (default: its own cases = N, else 100)")
      ->check(CLI::Range(1L, 1000000L));
  c.app->add_option("--seed", c.seed,
                    "the properties' seed (default: a fresh one; printed, and the same seed "
                    "generates the same cases)");
  c.app
      ->add_option("--max-seconds", c.max_seconds,
                   "bounds each property's search, and its shrinking again (default 30)")
      ->check(CLI::Range(0.0, 86400.0));
}

/// The help's footer: what each exit status of gate means.
std::string gate_footer() {
  return exit_footer({{exit_ok, "every case passed and every property kept its promise"},
                      {exit_failed, "a case failed or a property found a counterexample"},
                      {exit_usage, "a bad gate file or flag (with the file's line and the reason)"},
                      {exit_spawn,
                       "a program could not be started (the other cases still run and are "
                       "reported)"},
                      {exit_harness, ""}});
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

/// The command that searches property P again (its seed is added).
std::string repeat_line(const std::string& file, const std::vector<std::string>& vars,
                        const std::string& p) {
  std::string out = "flushcheck gate " + shell_quote(file);
  for (const auto& v : vars) out += " --var " + shell_quote(v);
  return out + " --case " + shell_quote(p);
}

/// F's cases that ONLY names (all when it names none), run one after another into REPORT.
void run_cases(const gate_file& f, const std::vector<std::string>& only, gate_report& report) {
  for (const auto& c : f.cases) {
    if (!named(only, c.name)) continue;
    report.cases.push_back(run_gate_case(f, c, remember_child));
    remember_child(0);
    if (report.cases.back().row) loggers::add_row(*report.cases.back().row);
  }
}

/// F's properties that CMD's --case names, each searched into REPORT.
void search_properties(const gate_command& cmd, const gate_file& f, gate_report& report) {
  search_options o;
  o.seed = cmd.seed.value_or(fresh_seed());
  o.max_seconds = cmd.max_seconds;
  o.on_spawn = remember_child;
  for (const auto& p : f.properties) {
    if (!named(cmd.only, p.name)) continue;
    o.repeat = repeat_line(cmd.file, cmd.vars, p.name);
    o.cases = cmd.cases.value_or(p.cases > 0 ? p.cases : 100);
    std::cerr << "property " << p.name << ": seed " << o.seed << ", " << o.cases << " cases\n";
    report.properties.push_back(search_property(p, o));
    remember_child(0);
  }
}

/// The cases and properties CMD names, run into one report.
gate_report run_gate(const gate_command& cmd, const gate_file& f) {
  gate_report report{f.path, {}, {}};
  run_cases(f, cmd.only, report);
  search_properties(cmd, f, report);
  return report;
}

/// REPORT as text (unless a report goes to stdout), as JSON and as JUnit XML, as asked.
void write_reports(const gate_report& report, report_file& json_out, report_file& junit_out) {
  if (!json_out.on_stdout() && !junit_out.on_stdout()) std::cout << to_text(report);
  json_out.commit([&] { return dump_json(to_json(report)); });
  junit_out.commit([&] { return to_junit(report); });
}

/// 3 when a program did not start (as for `run`), 1 when a case or property failed, else 0.
int exit_status(const gate_report& report) {
  const bool spawn = report.errors() != 0 ||
                     std::any_of(report.properties.begin(), report.properties.end(), [](auto& p) {
                       return p.error.find("cannot start") != std::string::npos;
                     });
  if (spawn) return exit_spawn;  // a program did not start, as for `run`
  return report.failed() + report.properties_failed() == 0 ? exit_ok : exit_failed;
}

}  // namespace

int gate_command::execute() {
  const gate_file f = parse_gate_file(file, vars);
  if (list) {
    for (const auto& c : f.cases) std::cout << c.name << "\n";
    for (const auto& p : f.properties) std::cout << p.name << "\n";
    return exit_ok;
  }
  check_names(f, only);
  report_file json_out("--json", json), junit_out("--junit", junit);
  one_on_stdout(json_out, junit_out, "--json and --junit");
  const gate_report report = run_gate(*this, f);
  write_reports(report, json_out, junit_out);
  return exit_status(report);
}

}  // namespace flushcheck::cli
