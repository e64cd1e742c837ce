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

explore_command::explore_command(CLI::App& parent) {
  app = parent.add_subcommand(
      "explore",
      "Run PROG once traced, then cut it at every marker and every write boundary of its "
      "stdout with each signal, and report what survived and which lines were lost");
  const auto sinks = without(sink_values(true), "full");  // no cut point on /dev/full
  add_option_with_values(
      app, "--stdout", stdout_kinds,
      "sinks to explore the stream on (see --stream), comma-separated: " + listed(sinks), sinks)
      ->capture_default_str();
  add_option_with_values(app, "--stderr", stderr_kind, "a sink kind, or 'stdout' (2>&1)",
                         stderr_values())
      ->capture_default_str();
  add_option_with_values(app, "--stdin", stdin_kind, listed(stdin_values()), stdin_values())
      ->capture_default_str();
  app->add_option("--input", input, "bytes written to a pipe or pty stdin");
  add_option_with_values(app, "--signal", signals,
                         "signals to cut with, comma-separated (KILL, TERM, ...)",
                         signal_values(true))
      ->capture_default_str();
  add_option_with_values(app, "--faults", faults,
                         "faults to inject at each write to stdout, one run each, comma-separated: "
                         "EAGAIN, ENOSPC, EINTR, ..., short:K (the WHAT of run --fault); alone, no "
                         "signal cuts are made (add --signal for both)",
                         fault_what_values());
  app->add_option("--max-cuts", max_cuts,
                  "per sink: more cuts than this are sampled evenly (and the report says so)")
      ->capture_default_str()
      ->check(in_range(2, 100000));
  add_option_with_values(app, "--stream", stream,
                         "the stream cut at its writes and compared: stdout, or stderr (with "
                         "--stdout the sinks it goes to; stdout then goes to a pipe)",
                         word_values({"stdout", "stderr"}))
      ->capture_default_str();
  add_option_with_values(
      app, "--keep", keep,
      "what each cut keeps of its output, of a torn line and of the lines it lost, "
      "as run --keep (counts are always whole; the uncut run keeps ends:8M)",
      keep_values())
      ->capture_default_str();
  app->add_option("--timeout", timeout_ms, "deadline in ms for each run")
      ->capture_default_str()
      ->check(in_range(1, 86400000));
  app->add_option("--html", html,
                  "write one self-contained HTML page: the loss map (a column per cut point, a "
                  "row per sink and signal, the pty first: it is added to the sinks) and the "
                  "table");
  add_report_flag(app, "--json", json,
                  "one JSON object: {\"runs\": [{\"stdout\", \"cuts\", ...}]}");
  app->add_option("command", command, "-- PROG [ARG...]")->required();
  app->footer(
      "Cuts: marker:N for each marker, write:N (stopped at the entry of the N-th write-family\n"
      "call to stdout's sink: what the first N-1 calls wrote) and after-write:LAST. Lines are\n"
      "those of the uncut run; a cut keeps the lines before it, maybe a torn one, and loses\n"
      "the rest.\n" +
      exit_footer({{exit_ok, "it ran"}, {exit_usage, ""}, {exit_spawn, ""}, {exit_harness, ""}}));
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

}  // namespace

int explore_command::execute() {
  report_file json_out("--json", json);  // before the run: a bad path is a usage error
  report_file html_out = report_file::page("--html", html);
  explore_options e;
  e.sinks = parse_sinks(stdout_kinds);
  if (!html.empty() && std::find(e.sinks.begin(), e.sinks.end(), sink_kind::pty) == e.sinks.end())
    e.sinks.insert(e.sinks.begin(), sink_kind::pty);  // the loss map's baseline row
  if (stream != "stdout" && stream != "stderr")
    throw usage_error("--stream=" + stream + ": expected stdout or stderr");
  e.on_stderr = stream == "stderr";
  e.signals = parse_signals(signals);
  if (!faults.empty()) {
    e.faults = parse_fault_whats(faults);
    if (app->count("--signal") == 0) e.signals.clear();  // alone, faults replace the cuts
  }
  e.max_cuts = max_cuts;
  apply_stderr_and_stdin(e.base, stderr_kind, stdin_kind, input);
  e.base.timeout = std::chrono::milliseconds(timeout_ms);
  // Each cut's output is compared, as it arrives, with the whole reference
  // output (spooled to a file): what is kept is only what is shown.
  e.keep = flag_value("--keep", [&] { return keep_policy::parse(keep); });
  if (e.on_stderr && !e.base.stderr_sink)
    throw usage_error("--stream=stderr with --stderr=stdout: stderr would be stdout's stream");
  e.base.argv = command;
  use_caller_environment(e.base);
  e.base.on_spawn = remember_child;
  auto result = explore(e);
  remember_child(0);
  const auto notes = environment_notes(e.base.argv, e.base.env);
  for (auto& s : result)
    s.reference.notes.insert(s.reference.notes.begin(), notes.begin(), notes.end());
  if (!json_out.on_stdout()) std::cout << to_text(result);
  json_out.commit([&] { return dump_json(to_json(result)); });
  if (html_out)
    html_out.commit(
        [&] { return to_html(result, "flushcheck explore: " + command_line(e.base.argv, 120)); });
  return exit_ok;
}

}  // namespace flushcheck::cli
