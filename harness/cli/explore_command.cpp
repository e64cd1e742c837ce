#include <algorithm>
#include <iostream>

#include "commands.hpp"
#include "error.hpp"
#include "explore.hpp"
#include "json_document.hpp"
#include "option_values.hpp"
#include "report_file.hpp"
#include "repro.hpp"
#include "signals.hpp"
#include "usage.hpp"

namespace flushcheck::cli {

namespace {

/// --stdout, --stderr, --stdin and --input: where the streams go and what stdin gives.
void add_stream_options(explore_command& c) {
  const auto sinks = without(sink_values(true), "full");  // no cut point on /dev/full
  add_option_with_values(
      c.app, "--stdout", c.stdout_kinds,
      "sinks to explore the stream on (see --stream), comma-separated: " + listed(sinks), sinks)
      ->capture_default_str();
  add_option_with_values(c.app, "--stderr", c.stderr_kind, "a sink kind, or 'stdout' (2>&1)",
                         stderr_values())
      ->capture_default_str();
  add_option_with_values(c.app, "--stdin", c.stdin_kind, listed(stdin_values()), stdin_values())
      ->capture_default_str();
  c.app->add_option("--input", c.input, "bytes written to a pipe or pty stdin");
}

/// --signal and --faults: what each cut does, a signal or a fault.
void add_cut_options(explore_command& c) {
  add_option_with_values(c.app, "--signal", c.signals,
                         "signals to cut with, comma-separated (KILL, TERM, ...)",
                         signal_values(true))
      ->capture_default_str();
  add_option_with_values(c.app, "--faults", c.faults,
                         "faults to inject at each write to stdout, one run each, comma-separated: "
                         "EAGAIN, ENOSPC, EINTR, ..., short:K (the WHAT of run --fault); alone, no "
                         "signal cuts are made (add --signal for both)",
                         fault_what_values());
}

/// --max-cuts, --derive, --stream and --jobs: how many cut points, how had
/// (and on how many workers), in the writes of which stream.
void add_cut_point_options(explore_command& c) {
  c.app
      ->add_option("--max-cuts", c.max_cuts,
                   "per sink: more cuts than this are shown sampled evenly (and the report says "
                   "so); at most this many derived cuts are run to check them")
      ->capture_default_str()
      ->check(in_range(2, 100000));
  add_derive_option(c.app, c.derive,
                    "on: KILL cuts at writes are derived from the uncut, traced run where "
                    "that is sound, every one of them, and a sample is run to check; off: "
                    "each cut is run");
  add_option_with_values(c.app, "--stream", c.stream,
                         "the stream cut at its writes and compared: stdout, or stderr (with "
                         "--stdout the sinks it goes to; stdout then goes to a pipe)",
                         word_values({"stdout", "stderr"}))
      ->capture_default_str();
  add_jobs_option(c.app, c.jobs);
}

/// --keep and --timeout: each run's bounds, what it keeps and how long it may last.
void add_bounds_options(explore_command& c) {
  add_option_with_values(
      c.app, "--keep", c.keep,
      "what each cut keeps of its output, of a torn line and of the lines it lost, "
      "as run --keep (counts are always whole; the uncut run keeps ends:8M)",
      keep_values())
      ->capture_default_str();
  c.app->add_option("--timeout", c.timeout_ms, "deadline in ms for each run")
      ->capture_default_str()
      ->check(in_range(1, 86400000));
}

/// --html and --json: the reports besides the text.
void add_report_options(explore_command& c) {
  c.app->add_option("--html", c.html,
                    "write one self-contained HTML page: the loss map (a column per cut point, a "
                    "row per sink and signal, the pty first: it is added to the sinks) and the "
                    "table");
  add_report_flag(c.app, "--json", c.json,
                  "one JSON object: {\"runs\": [{\"stdout\", \"cuts\", ...}]}");
}

/// The help's footer: the cuts, the lines, and the exit statuses.
std::string explore_footer() {
  return "Cuts: marker:N for each marker, write:N (stopped at the entry of the N-th write-family\n"
         "call to stdout's sink: what the first N-1 calls wrote) and after-write:LAST. Lines are\n"
         "those of the uncut run; a cut keeps the lines before it, maybe a torn one, and loses\n"
         "the rest. KILL cuts at writes are derived from the uncut run, every one of them, where\n"
         "that is sound, and a sample of them is run to check (--derive).\n" +
         exit_footer({{exit_ok, "it ran"}, {exit_usage, ""}, {exit_spawn, ""}, {exit_harness, ""}});
}

}  // namespace

explore_command::explore_command(CLI::App& parent) {
  app = parent.add_subcommand(
      "explore",
      "Run PROG once traced, then cut it at every marker and every write boundary of its "
      "stdout with each signal, and report what survived and which lines were lost");
  add_stream_options(*this);
  add_cut_options(*this);
  add_cut_point_options(*this);
  add_bounds_options(*this);
  add_report_options(*this);
  app->add_option("command", command, "-- PROG [ARG...]")->required();
  app->footer(explore_footer());
}

namespace {

std::vector<std::string> split_commas(const std::string& s) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (start <= s.size()) {
    auto comma = s.find(',', start);
    if (comma == std::string::npos) comma = s.size();
    parts.push_back(s.substr(start, comma - start));
    start = comma + 1;
  }
  return parts;
}

/// --stdout's sink kinds, comma-separated; throws usage_error.
std::vector<sink_kind> parse_sinks(const std::string& kinds) {
  std::vector<sink_kind> sinks;
  for (const auto& k : split_commas(kinds)) {
    auto s = parse_sink_kind(k);
    if (k.empty()) throw usage_error("--stdout=" + kinds + ": an empty sink kind between commas");
    if (!s || *s == sink_kind::full)
      throw usage_error("--stdout=" + kinds + ": '" + k +
                        "' is not pty, pty-cooked, pipe, file or null");
    sinks.push_back(*s);
  }
  return sinks;
}

std::vector<int> parse_signals(const std::string& names) {
  std::vector<int> signals;
  for (const auto& name : split_commas(names)) {
    auto sig = parse_signal(name);
    if (!sig) throw usage_error("--signal=" + name + ": not a signal name or number");
    signals.push_back(*sig);
  }
  return signals;
}

/// --faults' WHATs, each checked as the WHAT of --fault; throws usage_error.
std::vector<std::string> parse_fault_whats(const std::string& whats) {
  std::vector<std::string> faults;
  for (const auto& what : split_commas(whats)) {
    try {
      fault_plan::parse(what + "@write:1");  // a bad WHAT is a usage error now
    } catch (const usage_error& bad) {
      std::string why = bad.what();
      throw usage_error("--faults=" + what + why.substr(why.find(": ")));
    }
    faults.push_back(what);
  }
  return faults;
}

/// --stdout's sinks, the pty first with --html (the loss map's baseline row).
std::vector<sink_kind> sinks_to_explore(const std::string& kinds, bool html) {
  std::vector<sink_kind> sinks = parse_sinks(kinds);
  if (html && std::find(sinks.begin(), sinks.end(), sink_kind::pty) == sinks.end())
    sinks.insert(sinks.begin(), sink_kind::pty);  // the loss map's baseline row
  return sinks;
}

/// C's flags as explore's options: the cuts (the sinks, the stream, the
/// signals, the faults, how many), then each run's set-up; throws usage_error.
explore_options to_explore_options(const explore_command& c) {
  explore_options e;
  e.sinks = sinks_to_explore(c.stdout_kinds, !c.html.empty());
  if (c.stream != "stdout" && c.stream != "stderr")
    throw usage_error("--stream=" + c.stream + ": expected stdout or stderr");
  e.on_stderr = c.stream == "stderr";
  e.signals = parse_signals(c.signals);
  if (!c.faults.empty()) {
    e.faults = parse_fault_whats(c.faults);
    if (c.app->count("--signal") == 0) e.signals.clear();  // alone, faults replace the cuts
  }
  e.max_cuts = c.max_cuts;
  e.derive = derive_on(c.derive);
  e.jobs = jobs_or_cpus(c.jobs);
  apply_stderr_and_stdin(e.base, c.stderr_kind, c.stdin_kind, c.input);
  e.base.timeout = std::chrono::milliseconds(c.timeout_ms);
  // Each cut's output is compared, as it arrives, with the whole reference
  // output (spooled to a file): what is kept is only what is shown.
  e.keep = flag_value("--keep", [&] { return keep_policy::parse(c.keep); });
  if (e.on_stderr && !e.base.stderr_sink)
    throw usage_error("--stream=stderr with --stderr=stdout: stderr would be stdout's stream");
  e.base.argv = c.command;
  return e;
}

/// Explores E in the caller's environment; each reference run's notes begin
/// with the variables of it that change buffering.
std::vector<explored_sink> explore_in_caller_environment(explore_options& e) {
  use_caller_environment(e.base);
  e.base.on_spawn = remember_child;
  auto result = explore(e);
  remember_child(0);
  const auto notes = environment_notes(e.base.argv, e.base.env);
  for (auto& s : result)
    s.reference.notes.insert(s.reference.notes.begin(), notes.begin(), notes.end());
  return result;
}

}  // namespace

int explore_command::execute() {
  report_file json_out("--json", json);  // before the run: a bad path is a usage error
  report_file html_out = report_file::page("--html", html);
  refuse_program({&json_out, &html_out}, command);
  explore_options e = to_explore_options(*this);
  auto result = explore_in_caller_environment(e);
  if (!json_out.on_stdout()) std::cout << to_text(result);
  json_out.commit([&] { return dump_json(to_json(result)); });
  if (html_out)
    html_out.commit(
        [&] { return to_html(result, "flushcheck explore: " + command_line(e.base.argv, 120)); });
  return exit_ok;
}

}  // namespace flushcheck::cli
