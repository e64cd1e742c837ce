// `flushcheck doctor -- PROG`: where PROG's output is lost or late, why, and
// which verified fix to apply (harness/doctor/doctor.hpp).
#include <iostream>

#include "commands.hpp"
#include "doctor.hpp"
#include "doctor_report.hpp"
#include "error.hpp"
#include "install_layout.hpp"
#include "json_document.hpp"
#include "option_values.hpp"
#include "report_file.hpp"
#include "spawn.hpp"
#include "target_set.hpp"
#include "usage.hpp"

namespace flushcheck::cli {

namespace {

/// --timeout, --max-cuts and --jobs: how long the runs may last, how many
/// cuts they make, and on how many workers.
void add_run_options(doctor_command& c) {
  c.app
      ->add_option("--timeout,--deadline", c.timeout_ms,
                   "ms the first run (the pty's) may last; a program still running then is "
                   "stopped with SIGTERM and with SIGKILL, as a container stop does; one that "
                   "ended in D ms gives later runs 8 D + 5 s, as load slows them")
      ->capture_default_str()
      ->check(in_range(100, 600000));
  c.app->add_option("--max-cuts", c.max_cuts, "write cuts per sink and signal, sampled evenly")
      ->capture_default_str()
      ->check(in_range(2, 1000));
  add_jobs_option(c.app, c.jobs);
}

/// --ignore REGEX, as often as needed: what to mask before comparing outputs.
/// Its values are read from the option (ignore_patterns), checked before any run.
void add_ignore_option(doctor_command& c) {
  c.app
      ->add_option("--ignore", CLI::callback_t{},
                   "mask each match of REGEX (ECMAScript) in every run's output before comparing "
                   "them (a request id, a duration); fields that vary between runs (a pid, the "
                   "time) are found and masked without it")
      ->type_name("REGEX")
      ->take_all();
}

/// The help's footer: the runs' environment, the streams diagnosed, the exit statuses.
std::string doctor_footer() {
  return "PROG runs in a clean environment (PATH and LANG only), as a service manager starts it.\n"
         "Each stream it writes is diagnosed: stdout, stderr, and both on one sink (2>&1).\n" +
         exit_footer({{exit_ok, "nothing lost (or only late)"},
                      {exit_failed, "output is lost or held on every sink"},
                      {exit_usage, ""},
                      {exit_spawn, ""},
                      {exit_harness, ""},
                      {exit_no_output, "PROG wrote nothing to stdout or stderr"},
                      {exit_no_verdict,
                       "no verdict (its output differs between runs: the pty is no reference)"}});
}

}  // namespace

doctor_command::doctor_command(CLI::App& parent) {
  app = parent.add_subcommand(
      "doctor",
      "Run PROG on a pty, a pipe and a file, kill it at its writes (or stop it at the "
      "deadline), say where its output is lost or late and why, and try the fixes");
  add_run_options(*this);
  add_ignore_option(*this);
  add_report_flag(app, "--json", json, "one JSON object (docs/cli.md)");
  app->add_option("--html", html,
                  "write one self-contained HTML page: the verdict, the cut that lost most drawn "
                  "beside the same cut under each fix that helped (runs them again), the fixes");
  app->add_option("command", command, "-- PROG [ARG...]")->required();
  app->footer(doctor_footer());
}

namespace {

/// Each --ignore REGEX of C, compiled; throws usage_error naming the flag.
std::vector<ignore_pattern> ignore_patterns(const doctor_command& c) {
  std::vector<ignore_pattern> out;
  for (const auto& p : c.app->get_option("--ignore")->results())
    out.push_back(flag_value("--ignore", [&p] { return ignore_pattern(p); }));
  return out;
}

/// C's flags as the doctor's options: PROG found on the caller's PATH, every
/// run in a clean environment.
doctor_options to_doctor_options(const doctor_command& c) {
  doctor_options o;
  o.ignore = ignore_patterns(c);
  o.argv = c.command;
  // The caller's PROG (a pyenv python3, a script in ./bin), found on the
  // caller's PATH: the runs then get the clean environment.
  if (!o.argv.empty()) o.argv.front() = resolve_program(o.argv.front(), current_environment());
  o.env = clean_environment();
  o.deadline = std::chrono::milliseconds(c.timeout_ms);
  o.max_cuts = c.max_cuts;
  o.jobs = jobs_or_cpus(c.jobs);
  o.on_spawn = remember_child;
  o.helpers_dir = targets_dir_to_run() + "/runtimes";
  return o;
}

/// The doctor's report on O's program, or nullopt, said on stderr, when it
/// wrote nothing.
std::optional<doctor_report> run_doctor(const doctor_options& o) {
  try {
    return doctor(o);
  } catch (const no_output_error& e) {
    remember_child(0);
    std::cerr << "flushcheck: doctor: " << e.what() << "\n";
    return std::nullopt;
  }
}

/// 1 when output is lost or held, 6 when there is no verdict, else 0.
int exit_status(doctor_verdict v) {
  switch (v) {
    case doctor_verdict::lost:
    case doctor_verdict::held: return exit_failed;
    case doctor_verdict::no_verdict: return exit_no_verdict;
    default: return exit_ok;
  }
}

}  // namespace

int doctor_command::execute() {
  report_file json_out("--json", json);  // before the run: a bad path is a usage error
  report_file html_out = report_file::page("--html", html);
  refuse_program({&json_out, &html_out}, command);
  const doctor_options o = to_doctor_options(*this);
  const auto diagnosed = run_doctor(o);
  if (!diagnosed) return exit_no_output;
  const doctor_report& r = *diagnosed;
  const auto pictures = html_out ? doctor_pictures(r) : std::vector<doctor_picture>{};
  remember_child(0);
  if (!json_out.on_stdout()) std::cout << to_text(r);
  json_out.commit([&] { return dump_json(to_json(r), 2); });
  if (html_out) html_out.commit([&] { return to_html(r, pictures); });
  return exit_status(r.verdict());
}

}  // namespace flushcheck::cli
