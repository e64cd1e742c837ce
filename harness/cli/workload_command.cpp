// `flushcheck workload check -- DRIVER [ARG...]`: the helper conformance kit
// (workload_check.hpp) on a driver, against the C reference driver among
// the targets, each workload's line printed as it is known.
#include <unistd.h>

#include <iostream>
#include <stdexcept>

#include "commands.hpp"
#include "error.hpp"
#include "escape.hpp"
#include "install_layout.hpp"
#include "interrupts.hpp"
#include "json_document.hpp"
#include "option_values.hpp"
#include "report_file.hpp"
#include "usage.hpp"
#include "workload_check.hpp"

namespace flushcheck::cli {

namespace {

/// The help's footer: what the kit compares, and the exit statuses.
std::string workload_footer() {
  return "check runs a fixed set of workloads, valid and malformed (docs/workload.md), with\n"
         "DRIVER and with the C reference driver, and compares what each shows of the\n"
         "protocol: records and their order, their messages, what a reader had at each marker\n"
         "(a flush), markers, threads, ends, and a malformed workload's one line and exit 64.\n"
         "DRIVER logs through a library whose output is its stdout (targets/workload/ has one\n"
         "per language).\n" +
         exit_footer({{exit_ok, "every workload ran as the reference's"},
                      {exit_failed, "one did not (each says how)"},
                      {exit_usage, ""},
                      {exit_spawn, "DRIVER could not be started"},
                      {exit_harness, ""}});
}

/// --env, --timeout and --json.
void add_check_options(workload_command& c) {
  c.app
      ->add_option("--env", c.env,
                   "NAME=VALUE, repeatable: the drivers' environment is PATH, LANG, the marker "
                   "protocol's and these (PYTHONPATH, NODE_PATH, CLASSPATH ...)")
      ->allow_extra_args(false);  // one value each: DRIVER's own flags follow "--"
  c.app->add_option("--timeout", c.timeout_ms, "each run's deadline in ms")
      ->capture_default_str()
      ->check(in_range(1, 600000));
  add_report_flag(c.app, "--json", c.json, "one JSON object (names in docs/cli.md)");
}

}  // namespace

workload_command::workload_command(CLI::App& parent) {
  app = parent.add_subcommand("workload",
                              "Check a workload helper (docs/workload.md) against the C "
                              "reference: check -- DRIVER [ARG...]");
  add_option_with_values(app, "action", action,
                         "check: run the kit's workloads with DRIVER and the reference",
                         word_values({"check"}))
      ->required();
  add_check_options(*this);
  app->add_option("command", command, "-- DRIVER [ARG...]")->required();
  app->footer(workload_footer());
}

namespace {

/// The C reference driver among the targets this flushcheck runs.
std::string reference_driver() {
  const std::string path = targets_dir_to_run() + "/stdio_driver";
  if (::access(path.c_str(), X_OK) != 0)
    throw std::runtime_error(path +
                             ": the C reference driver is not there (it is built with the "
                             "default set's targets)");
  return path;
}

/// CMD's flags as the kit's options, results printed as they come when TEXT.
workload_check_options options_of(const workload_command& cmd, bool text) {
  workload_check_options o;
  o.driver = cmd.command;
  o.reference = {reference_driver()};
  for (const auto& e : cmd.env) {
    if (e.find('=') == std::string::npos || e.front() == '=')
      throw usage_error("--env=" + printable(e, 200) + ": expected NAME=VALUE");
    o.env.push_back(e);
  }
  o.timeout = std::chrono::milliseconds(cmd.timeout_ms);
  o.on_spawn = remember_child;
  if (text) o.on_result = [](const kit_result& r) { std::cout << to_text(r) << std::flush; };
  return o;
}

}  // namespace

int workload_command::execute() {
  if (action != "check") throw usage_error(action + ": not an action of workload (check)");
  report_file json_out("--json", json);
  const bool text = !json_out.on_stdout();
  const workload_check_report report = check_workload_helper(options_of(*this, text));
  remember_child(0);
  if (text) std::cout << summary_text(report);  // each workload's line came as it was known
  json_out.commit([&] { return dump_json(to_json(report)); });
  return report.failed() == 0 ? exit_ok : exit_failed;
}

}  // namespace flushcheck::cli
