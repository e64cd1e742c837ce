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

namespace {

/// --stdin's kind; throws usage_error.
flushcheck::stdin_kind parse_stdin_kind(const std::string& kind) {
  if (kind == "null") return flushcheck::stdin_kind::null;
  if (kind == "pipe") return flushcheck::stdin_kind::pipe;
  if (kind == "pty") return flushcheck::stdin_kind::pty;
  throw usage_error("--stdin=" + kind + ": expected null, pipe or pty");
}

}  // namespace

void apply_stderr_and_stdin(run_options& o, const std::string& stderr_kind,
                            const std::string& stdin_kind, const std::string& input) {
  if (stderr_kind == "stdout") {
    o.stderr_sink.reset();
  } else {
    auto err = parse_sink_kind(stderr_kind);
    if (!err) throw usage_error("--stderr=" + stderr_kind + ": expected a sink kind or 'stdout'");
    o.stderr_sink = *err;
  }
  o.input = parse_stdin_kind(stdin_kind);
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

/// The help's footer: the child's environment, and the exit statuses.
std::string run_footer() {
  return "The child's environment is this one, plus FLUSHCHECK_MARKER_FD and\n"
         "FLUSHCHECK_RELEASE_FD (the marker protocol, docs/markers.md).\n" +
         exit_footer({{exit_ok, "it ran (whatever PROG did)"},
                      {exit_usage, ""},
                      {exit_spawn, ""},
                      {exit_harness, ""}});
}

/// --stdout, --stderr, --stdin and --input: where the streams go and what stdin gives.
void add_stream_options(run_command& c) {
  add_option_with_values(c.app, "--stdout", c.stdout_kind, listed(sink_values()), sink_values())
      ->capture_default_str();
  add_option_with_values(c.app, "--stderr", c.stderr_kind,
                         "a KIND as for --stdout, or 'stdout' (2>&1)", stderr_values())
      ->capture_default_str();
  add_option_with_values(c.app, "--stdin", c.stdin_kind, listed(stdin_values()), stdin_values())
      ->capture_default_str();
  c.app->add_option("--input", c.input, "bytes written to a pipe or pty stdin");
}

/// --kill: where the run is cut, and with which signal.
void add_kill_option(run_command& c) {
  add_option_with_values(
      c.app, "--kill", c.kill,
      "SIG@WHEN: WHEN is marker:N (the child waits at its N-th marker), time:MS, "
      "[DEST:]write:N (stopped at entry of the N-th write-family call to DEST, "
      "which never happens) or [DEST:]after-write:N; DEST is stdout (its sink, the default), "
      "stderr or file:PATH (a glob); e.g. KILL@marker:2, TERM@write:3, "
      "KILL@file:/tmp/app.log:write:2",
      kill_values())
      ->capture_default_str();
}

/// --timeout and --keep: the run's bounds, how long it may last and what it keeps.
void add_bounds_options(run_command& c) {
  c.app->add_option("--timeout", c.timeout_ms, "deadline in ms; the process group is killed at it")
      ->capture_default_str()
      ->check(in_range(1, 86400000));
  add_option_with_values(
      c.app, "--keep", c.keep,
      "what to keep of each stream's bytes (all are counted and hashed): all, none, "
      "head:BYTES, tail:BYTES, ends:BYTES (the first and the last BYTES); K, M, G",
      keep_values())
      ->capture_default_str();
}

/// --reader, --pipe-size and --nonblock: how the sinks are read and opened.
void add_sink_options(run_command& c) {
  add_option_with_values(
      c.app, "--reader", c.reader,
      "how the stdout sink is read: prompt, paused (nothing until the program has "
      "ended), paused-until=marker:N, chunk=N (N bytes a read at most), "
      "close-after=N (then its end is closed: the writer meets EPIPE), rate=BYTES "
      "(a second, while the program runs; K, M, G), paused-then-close=MS (reads "
      "nothing and closes its end MS ms into the run, unless the program ended first)",
      reader_values())
      ->capture_default_str();
  c.app->add_option("--pipe-size", c.pipe_size,
                    "pipe sinks' capacity in bytes (F_SETPIPE_SZ; K, M, G), up to 1G");
  c.app->add_flag("--nonblock", c.nonblock,
                  "O_NONBLOCK on the program's stdout and stderr (as from a non-blocking parent)");
}

/// --timeline, --json, --html and --trace: what the tracer adds, and the reports.
void add_trace_and_report_options(run_command& c) {
  c.app->add_flag("--timeline", c.timeline,
                  "with the tracer, also stop each write to stdout at its exit: when it returned "
                  "(how long it blocked), and per chunk how many writes had entered and returned");
  add_report_flag(c.app, "--json", c.json, "one JSON object (names in docs/cli.md)");
  c.app->add_option("--html", c.html,
                    "write one self-contained HTML page: the run's timeline (write calls with "
                    "--trace, how long each blocked with --timeline), the report and the repro");
  c.app->add_flag("--trace", c.trace,
                  "count write-family syscalls per destination with the ptrace tracer; adds "
                  "\"writes\" and \"trace\" to the JSON");
}

}  // namespace

run_command::run_command(CLI::App& parent) {
  app = parent.add_subcommand("run",
                              "Run PROG with its stdout/stderr on a sink, cut it, and "
                              "report what survived");
  add_stream_options(*this);
  add_kill_option(*this);
  add_bounds_options(*this);
  add_sink_options(*this);
  add_fault_option(app, faults);
  add_trace_and_report_options(*this);
  app->add_option("command", command, "-- PROG [ARG...]")->required();
  app->footer(run_footer());
}

namespace {

/// --stdout's sink kind; throws usage_error.
sink_kind parse_stdout_kind(const std::string& kind) {
  auto out = parse_sink_kind(kind);
  if (!out)
    throw usage_error("--stdout=" + kind + ": expected pty, pty-cooked, pipe, file, null or full");
  return *out;
}

/// --kill, --keep, --reader and --pipe-size into O: where the run is cut, what
/// it keeps, how its stdout is read; throws usage_error.
void apply_cut_and_reader(run_options& o, const run_command& c) {
  o.kill = flag_value("--kill", [&] { return kill_plan::parse(c.kill); });
  o.keep = flag_value("--keep", [&] { return keep_policy::parse(c.keep); });
  o.reader = flag_value("--reader", [&] { return reader_policy::parse(c.reader); });
  if (!c.pipe_size.empty())
    o.pipe_size = flag_value("--pipe-size", [&] { return parse_pipe_size(c.pipe_size); });
}

/// C's flags as the run's options; throws usage_error.
run_options to_run_options(const run_command& c) {
  run_options o;
  o.stdout_sink = parse_stdout_kind(c.stdout_kind);
  apply_stderr_and_stdin(o, c.stderr_kind, c.stdin_kind, c.input);
  apply_cut_and_reader(o, c);
  o.nonblock = c.nonblock;
  o.faults = parse_faults(c.faults);
  o.timeout = std::chrono::milliseconds(c.timeout_ms);
  o.trace = c.trace;
  o.timeline = c.timeline;
  o.argv = c.command;
  return o;
}

/// Runs O in the caller's environment; the report's notes begin with the
/// variables of it that change buffering.
observation run_in_caller_environment(run_options& o) {
  use_caller_environment(o);
  o.on_spawn = remember_child;
  observation obs = flushcheck::run(o);
  remember_child(0);
  auto notes = environment_notes(o.argv, o.env);
  obs.notes.insert(obs.notes.begin(), notes.begin(), notes.end());
  return obs;
}

/// The --html page of OBS, the run of O: its timeline, the report and the repro.
void write_page(report_file& html_out, const observation& obs, const run_options& o) {
  const bool err = o.kill.on_stderr && o.stderr_sink;  // the cut's stream
  html_out.commit([&] {
    return to_html(obs,
                   {"flushcheck run: " + command_line(o.argv, 120), script_produced(o, err), err},
                   repro_command(o));
  });
}

}  // namespace

int run_command::execute() {
  report_file json_out("--json", json);  // before the run: a bad path is a usage error
  report_file html_out = report_file::page("--html", html);
  refuse_program({&json_out, &html_out}, command);
  run_options o = to_run_options(*this);
  observation obs = run_in_caller_environment(o);
  if (!json_out.on_stdout()) std::cout << to_text(obs);
  json_out.commit([&] { return dump_json(to_json(obs)); });
  if (html_out) write_page(html_out, obs, o);  // a run without --html draws nothing
  if (obs.harness_failure.empty()) return exit_ok;
  std::cerr << "flushcheck run: " << obs.harness_failure << "\n";
  return exit_harness;
}

}  // namespace flushcheck::cli
