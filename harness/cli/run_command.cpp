#include <iostream>

#include "commands.hpp"
#include "error.hpp"
#include "json_document.hpp"
#include "option_values.hpp"
#include "program_kind.hpp"
#include "report_file.hpp"
#include "run.hpp"
#include "run_report.hpp"
#include "script_output.hpp"
#include "usage.hpp"

namespace flushcheck::cli {

void apply_stderr_and_stdin(run_options& o, const std::string& stderr_kind,
                            const std::string& stdin_kind, const std::string& input) {
  if (stderr_kind == "stdout") {
    o.stderr_sink.reset();
  } else {
    auto err = parse_sink_kind(stderr_kind);
    if (!err) throw usage_error("--stderr=" + stderr_kind + ": expected a sink kind or 'stdout'");
    o.stderr_sink = *err;
  }
  if (stdin_kind == "null")
    o.input = flushcheck::stdin_kind::null;
  else if (stdin_kind == "pipe")
    o.input = flushcheck::stdin_kind::pipe;
  else if (stdin_kind == "pty")
    o.input = flushcheck::stdin_kind::pty;
  else
    throw usage_error("--stdin=" + stdin_kind + ": expected null, pipe or pty");
  if (!input.empty() && o.input == flushcheck::stdin_kind::null)
    throw usage_error("--input needs --stdin=pipe or --stdin=pty");
  o.input_data = input;
}

void use_caller_environment(run_options& o) {
  o.env = current_environment();
  o.repro_names = {"PATH", "LANG", "LC_ALL", "LC_CTYPE"};
  for (const auto& v : buffering_variables()) o.repro_names->push_back(v.name);
}

std::vector<std::string> environment_notes(const std::vector<std::string>& argv,
                                           const std::vector<std::string>& env) {
  try {
    const program_kind kind = identify(argv, env);
    return buffering_notes(env, &kind);
  } catch (const spawn_error&) {
    return buffering_notes(env, nullptr);  // the run says why it could not start
  }
}

void add_fault_option(CLI::App* app, std::vector<std::string>& faults) {
  add_option_with_values(app, "--fault", faults,
                         "WHAT@[DEST:]WHEN, repeatable: the selected write-family calls fail with "
                         "errno WHAT (EAGAIN, EINTR, ENOSPC, EIO, EPIPE, EFBIG, EDQUOT, EBADF) or, "
                         "for short:K, write only their first K bytes. DEST: stdout (default), "
                         "stderr, file:PATH. WHEN: write:N, write:NxK, every, random=P,seed=S. "
                         "E.g. EAGAIN@write:2, short:1@every (docs/faults.md)",
                         fault_values())
      ->allow_extra_args(false);
}

std::vector<fault_plan> parse_faults(const std::vector<std::string>& faults) {
  std::vector<fault_plan> plans;
  for (const auto& f : faults)
    plans.push_back(flag_value("--fault", [&] { return fault_plan::parse(f); }));
  return plans;
}

namespace {

std::string run_footer() {
  return "The child's environment is this one, plus FLUSHCHECK_MARKER_FD and\n"
         "FLUSHCHECK_RELEASE_FD (the marker protocol, docs/markers.md).\n" +
         exit_footer({{exit_ok, "it ran (whatever PROG did)"},
                      {exit_usage, ""},
                      {exit_spawn, ""},
                      {exit_harness, ""}});
}

}  // namespace

run_command::run_command(CLI::App& parent) {
  app = parent.add_subcommand("run",
                              "Run PROG with its stdout/stderr on a sink, cut it, and "
                              "report what survived");
  add_option_with_values(app, "--stdout", stdout_kind, listed(sink_values()), sink_values())
      ->capture_default_str();
  add_option_with_values(app, "--stderr", stderr_kind, "a KIND as for --stdout, or 'stdout' (2>&1)",
                         stderr_values())
      ->capture_default_str();
  add_option_with_values(app, "--stdin", stdin_kind, listed(stdin_values()), stdin_values())
      ->capture_default_str();
  app->add_option("--input", input, "bytes written to a pipe or pty stdin");
  add_option_with_values(
      app, "--kill", kill,
      "SIG@WHEN: WHEN is marker:N (the child waits at its N-th marker), time:MS, "
      "[DEST:]write:N (stopped at entry of the N-th write-family call to DEST, "
      "which never happens) or [DEST:]after-write:N; DEST is stdout (its sink, the default), "
      "stderr or file:PATH (a glob); e.g. KILL@marker:2, TERM@write:3, "
      "KILL@file:/tmp/app.log:write:2",
      kill_values())
      ->capture_default_str();
  app->add_option("--timeout", timeout_ms, "deadline in ms; the process group is killed at it")
      ->capture_default_str()
      ->check(in_range(1, 86400000));
  add_option_with_values(
      app, "--keep", keep,
      "what to keep of each stream's bytes (all are counted and hashed): all, none, "
      "head:BYTES, tail:BYTES, ends:BYTES (the first and the last BYTES); K, M, G",
      keep_values())
      ->capture_default_str();
  add_option_with_values(
      app, "--reader", reader,
      "how the stdout sink is read: prompt, paused (nothing until the program has "
      "ended), paused-until=marker:N, chunk=N (N bytes a read at most), "
      "close-after=N (then its end is closed: the writer meets EPIPE), rate=BYTES "
      "(a second, while the program runs; K, M, G), paused-then-close=MS (reads "
      "nothing and closes its end MS ms into the run, unless the program ended first)",
      reader_values())
      ->capture_default_str();
  app->add_option("--pipe-size", pipe_size,
                  "pipe sinks' capacity in bytes (F_SETPIPE_SZ; K, M, G), up to 1G");
  app->add_flag("--nonblock", nonblock,
                "O_NONBLOCK on the program's stdout and stderr (as from a non-blocking parent)");
  add_fault_option(app, faults);
  app->add_flag("--timeline", timeline,
                "with the tracer, also stop each write to stdout at its exit: when it returned "
                "(how long it blocked), and per chunk how many writes had entered and returned");
  add_report_flag(app, "--json", json, "one JSON object (names in docs/cli.md)");
  app->add_option("--html", html,
                  "write one self-contained HTML page: the run's timeline (write calls with "
                  "--trace, how long each blocked with --timeline), the report and the repro");
  app->add_flag("--trace", trace,
                "count write-family syscalls per destination with the ptrace tracer; adds "
                "\"writes\" and \"trace\" to the JSON");
  app->add_option("command", command, "-- PROG [ARG...]")->required();
  app->footer(run_footer());
}

int run_command::execute() {
  report_file json_out("--json", json);  // before the run: a bad path is a usage error
  report_file html_out = report_file::page("--html", html);
  run_options o;
  auto out = parse_sink_kind(stdout_kind);
  if (!out)
    throw usage_error("--stdout=" + stdout_kind +
                      ": expected pty, pty-cooked, pipe, file, null or full");
  o.stdout_sink = *out;
  apply_stderr_and_stdin(o, stderr_kind, stdin_kind, input);
  o.kill = flag_value("--kill", [&] { return kill_plan::parse(kill); });
  o.keep = flag_value("--keep", [&] { return keep_policy::parse(keep); });
  o.reader = flag_value("--reader", [&] { return reader_policy::parse(reader); });
  if (!pipe_size.empty())
    o.pipe_size = flag_value("--pipe-size", [&] { return parse_pipe_size(pipe_size); });
  o.nonblock = nonblock;
  o.faults = parse_faults(faults);
  o.timeout = std::chrono::milliseconds(timeout_ms);
  o.trace = trace;
  o.timeline = timeline;
  o.argv = command;
  use_caller_environment(o);
  o.on_spawn = remember_child;
  observation obs = flushcheck::run(o);
  remember_child(0);
  auto notes = environment_notes(o.argv, o.env);
  obs.notes.insert(obs.notes.begin(), notes.begin(), notes.end());
  if (!json_out.on_stdout()) std::cout << to_text(obs);
  json_out.commit([&] { return dump_json(to_json(obs)); });
  if (html_out) {                                        // a run without --html draws nothing
    const bool err = o.kill.on_stderr && o.stderr_sink;  // the cut's stream
    html_out.commit([&] {
      return to_html(obs,
                     {"flushcheck run: " + command_line(o.argv, 120), script_produced(o, err), err},
                     repro_command(o));
    });
  }
  return exit_ok;
}

}  // namespace flushcheck::cli
