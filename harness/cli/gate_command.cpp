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
#include "report_file.hpp"

namespace flushcheck::cli {

gate_command::gate_command(CLI::App& parent) {
  app = parent.add_subcommand("gate",
                              "Run a gate file (TOML, docs/gate.md): each case runs a program, "
                              "cuts it, and checks what survived");
  app->add_option("file", file, "the gate file")->required();
  app->add_option("--case", only, "run only this case (repeatable)");
  app->add_option("--var", vars,
                  "NAME=VALUE, repeatable: \"{NAME}\" in the file's strings is VALUE (a "
                  "program's path, say; flushcheck_add_gate_file passes its PROGRAMS so)");
  app->add_flag("--list", list, "print the cases' names, one a line, and run nothing");
  add_report_flag(app, "--json", json, "one JSON object (names in docs/cli.md)");
  app->add_option("--junit", junit, "also write JUnit XML to this file (for CI systems)");
  app->footer(
      "Exit status: 0 every case passed, 1 a case failed, 2 a bad gate file or flag (with\n"
      "the file's line and the reason), 3 a program could not be started (the other cases\n"
      "still run and are reported), 4 harness failure.");
}

namespace {

/// The cases to run: all, or those --case names (each must exist).
std::vector<const gate_case*> chosen(const gate_file& f, const std::vector<std::string>& only) {
  std::vector<const gate_case*> out;
  for (const auto& name : only)
    if (std::none_of(f.cases.begin(), f.cases.end(), [&](auto& c) { return c.name == name; }))
      throw usage_error("--case=" + printable(name, 200) + ": " + f.path +
                        " has no case of that name");
  for (const auto& c : f.cases)
    if (only.empty() || std::find(only.begin(), only.end(), c.name) != only.end())
      out.push_back(&c);
  return out;
}

}  // namespace

int gate_command::execute() {
  const gate_file f = parse_gate_file(file, vars);
  if (list) {
    for (const auto& c : f.cases) std::cout << c.name << "\n";
    return exit_ok;
  }
  report_file json_out("--json", json), junit_out("--junit", junit);
  one_on_stdout(json_out, junit_out, "--json and --junit");
  gate_report report{f.path, {}};
  for (const gate_case* c : chosen(f, only)) {
    report.cases.push_back(run_gate_case(f, *c, remember_child));
    remember_child(0);
    if (report.cases.back().row) loggers::add_row(*report.cases.back().row);
  }
  if (!json_out.on_stdout() && !junit_out.on_stdout()) std::cout << gate_text(report);
  json_out.commit([&] { return dump_json(to_json(report)); });
  junit_out.commit([&] { return gate_junit(report); });
  if (report.errors() != 0) return exit_spawn;  // a program did not start, as for `run`
  return report.failed() == 0 ? exit_ok : exit_failed;
}

}  // namespace flushcheck::cli
