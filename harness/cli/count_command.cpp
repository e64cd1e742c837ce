#include <cstdint>
#include <iostream>

#include "bpf_counter.hpp"
#include "commands.hpp"
#include "error.hpp"
#include "json_document.hpp"
#include "option_values.hpp"
#include "perf_counter.hpp"
#include "report.hpp"
#include "report_file.hpp"
#include "run.hpp"
#include "text_table.hpp"
#include "usage.hpp"

namespace flushcheck::cli {

namespace {

/// "write, writev, ... (write family); fsync, ... ; close, ..." from the table.
std::string traced_call_list() {
  std::string out;
  for (auto f : {call_family::write, call_family::sync, call_family::fd, call_family::process}) {
    std::string row;
    for (const auto& c : traced_calls)
      if (c.family == f) row += (row.empty() ? "" : ", ") + std::string(c.name);
    out += row + "\n";
  }
  return out;
}

/// calls, bytes, mean, syscall, fds, destination.
const std::vector<text_column> k_columns = {{.width = 10, .right = true},
                                            {.width = 14, .right = true, .gap = 0},
                                            {.width = 10, .right = true, .gap = 0},
                                            {.width = 16, .gap = 2},
                                            {.width = 8, .gap = 0},
                                            {.width = 0, .gap = 0}};

void print_row(const std::string& calls, const std::string& bytes, const std::string& mean,
               const std::string& call, const std::string& fds, const std::string& what) {
  std::cout << text_row("", k_columns, {calls, bytes, mean, call, fds, what}) << "\n";
}

std::string fd_list(const destination_counters& d) {
  std::string fds;
  for (int fd : d.fds) fds += (fds.empty() ? "" : ",") + std::to_string(fd);
  return fds;
}

/// One row per destination and call; calls that are not writes, to
/// destinations never written (locale files closed at start-up, ...), fold
/// into one line unless ALL.
std::int64_t print_destinations(const trace_summary& t, bool with_bytes, bool all) {
  std::int64_t shown = 0, folded = 0, folded_dests = 0;
  for (const auto& d : t.destinations) {
    if (!all && d.write_calls == 0) {
      for (auto n : d.calls) folded += n;
      ++folded_dests;
      continue;
    }
    std::string what =
        d.what + (d.role == stream_role::none ? "" : " (" + std::string(to_string(d.role)) + ")");
    for (std::size_t c = 0; c < traced_call_count; ++c) {
      if (d.calls[c] == 0) continue;
      bool w = is_write_family(static_cast<traced_call>(c));
      // bytes are per destination: shown on each write row
      print_row(std::to_string(d.calls[c]), w && with_bytes ? std::to_string(d.bytes) : "",
                w && d.write_calls && d.bytes ? std::to_string(d.bytes / d.write_calls) : "",
                traced_calls[c].name, fd_list(d), what);
      shown += d.calls[c];
    }
  }
  if (folded_dests > 0)
    std::cout << pad(std::to_string(folded), 10, true) << "  other calls on " << folded_dests
              << " destinations never written to (--all lists them)\n";
  return shown + folded;
}

/// The table: a row per destination and call, then the totals and faults.
void print_counts(const observation& obs, bool ptrace, bool all) {
  const trace_summary& t = *obs.trace;
  print_row("calls", "bytes", "mean", "syscall", "fds", "destination");
  std::int64_t rows = print_destinations(t, ptrace, all);
  for (std::size_t c = 0; c < traced_call_count; ++c)
    if (t.totals[c] != 0)
      print_row(std::to_string(t.totals[c]), "", "", traced_calls[c].name, "*", "all destinations");
  std::cout << pad(std::to_string(rows), 10, true) << "  calls in the rows above; "
            << obs.status.describe() << "\n";
  std::cout << fault_lines(t);
}

/// --backend=NAME as run_options' backend; auto is bpf where it can count
/// (not with faults, which need the tracer), else ptrace, and FALLBACK says
/// why not bpf. Throws usage_error for a backend that cannot run here.
trace_backend chosen_backend(const std::string& name, bool faults, std::string& fallback) {
  if (name == "ptrace") return trace_backend::ptrace;
  if (name != "bpf" && name != "perf" && name != "auto")
    throw usage_error("--backend=" + name + ": expected ptrace, bpf, perf or auto");
  const std::string bpf_why = name == "perf" ? "" : bpf_unavailable_reason();
  if (name == "auto") {
    if (bpf_why.empty() && !faults) return trace_backend::bpf;
    fallback = " (not bpf: " + (faults ? std::string("--fault needs the tracer") : bpf_why) + ")";
    return trace_backend::ptrace;
  }
  const std::string why = name == "perf" ? perf_unavailable_reason() : bpf_why;
  if (!why.empty()) throw usage_error("--backend=" + name + ": " + why);
  return name == "perf" ? trace_backend::perf : trace_backend::bpf;
}

/// count --json: the run's exit, writes, totals and faults (kind "count").
std::string count_json(const observation& obs) {
  nlohmann::json j = to_json(obs), c = json_document(json_kind::count);
  c.update(nlohmann::json{{"backend", j["trace"]["backend"]},
                          {"exit", j["exit"]},
                          {"writes", j["writes"]},
                          {"totals", j["trace"]["totals"]},
                          {"faults", j["faults"]}});
  return dump_json(c);
}

}  // namespace

count_command::count_command(CLI::App& parent) {
  app = parent.add_subcommand(
      "count", "Count PROG's write-family syscalls per destination and call, like strace -c");
  add_option_with_values(app, "--backend", backend,
                         "ptrace (exact, per destination, a stop per call), bpf (exact, per "
                         "destination, counted in the kernel: root), perf (totals and fd 1 only) "
                         "or auto (bpf where it loads, else ptrace; the report says which)",
                         word_values({"ptrace", "bpf", "perf", "auto"}))
      ->capture_default_str();
  add_option_with_values(app, "--stdout", stdout_kind, "sink for stdout: " + listed(sink_values()),
                         sink_values())
      ->capture_default_str();
  app->add_option("--timeout", timeout_ms, "deadline in ms (1 .. 86400000)")
      ->capture_default_str()
      ->check(in_range(1, 86400000));
  app->add_flag("--all", all,
                "one row per destination and call, also for destinations never "
                "written to");
  add_fault_option(app, faults);
  add_report_flag(app, "--json", json,
                  "{\"exit\", \"writes\", \"totals\", \"faults\"} as one JSON object");
  app->add_option("command", command, "-- PROG [ARG...]")->required();
  app->footer(
      "Calls counted (the write family, the syncs, the fd calls, clone):\n" + traced_call_list() +
      "Counts are exact: with ptrace every call stops the program once (seccomp + ptrace);\n"
      "with bpf none does (the kernel counts them).\n" +
      exit_footer({{exit_ok, "it ran"}, {exit_usage, ""}, {exit_spawn, ""}, {exit_harness, ""}}));
}

int count_command::execute() {
  report_file json_out("--json", json);  // before the run: a bad path is a usage error
  run_options o;
  o.faults = parse_faults(faults);
  std::string fallback;  // auto: why not bpf
  o.backend = chosen_backend(backend, !o.faults.empty(), fallback);
  auto out = parse_sink_kind(stdout_kind);
  if (!out) throw usage_error("--stdout=" + stdout_kind + ": not a sink kind");
  o.stdout_sink = *out;
  o.trace = true;
  o.argv = command;
  use_caller_environment(o);
  o.timeout = std::chrono::milliseconds(timeout_ms);
  o.on_spawn = remember_child;
  observation obs = flushcheck::run(o);
  remember_child(0);
  if (!json_out.on_stdout()) {
    std::cout << "backend: " << obs.trace->backend << fallback << "\n";
    print_counts(obs, o.backend != trace_backend::perf, all);
  }
  json_out.commit([&] { return count_json(obs); });
  return exit_ok;
}

}  // namespace flushcheck::cli
