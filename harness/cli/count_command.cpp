#include <iostream>

#include "bpf_counter.hpp"
#include "commands.hpp"
#include "count_report.hpp"
#include "error.hpp"
#include "json_document.hpp"
#include "option_values.hpp"
#include "perf_counter.hpp"
#include "report_file.hpp"
#include "run.hpp"
#include "traced_call.hpp"
#include "usage.hpp"

namespace flushcheck::cli {

namespace {

/// "write, writev, ... (write family); fsync, ... ; close, ..." from the table.
std::string traced_call_list() {
  std::string out;
  for (auto f : {call_family::write, call_family::sync, call_family::fd, call_family::process}) {
    std::string row;
    for (std::size_t i = 0; i < traced_call_count; ++i)
      if (const auto c = static_cast<traced_call>(i); family_of(c) == f)
        row += (row.empty() ? "" : ", ") + std::string(to_string(c));
    out += row + "\n";
  }
  return out;
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

/// --backend, --stdout and --timeout: how PROG is counted, where its stdout goes, its deadline.
void add_run_options(count_command& c) {
  add_option_with_values(c.app, "--backend", c.backend,
                         "ptrace (exact, per destination, a stop per call), bpf (exact, per "
                         "destination, counted in the kernel: root), perf (totals and fd 1 only) "
                         "or auto (bpf where it loads, else ptrace; the report says which)",
                         word_values({"ptrace", "bpf", "perf", "auto"}))
      ->capture_default_str();
  add_option_with_values(c.app, "--stdout", c.stdout_kind,
                         "sink for stdout: " + listed(sink_values()), sink_values())
      ->capture_default_str();
  c.app->add_option("--timeout", c.timeout_ms, "deadline in ms (1 .. 86400000)")
      ->capture_default_str()
      ->check(in_range(1, 86400000));
}

/// The help's footer: the calls counted, how exact, and the exit statuses.
std::string count_footer() {
  return "Calls counted (the write family, the syncs, the fd calls, clone):\n" +
         traced_call_list() +
         "Counts are exact: with ptrace every call stops the program once (seccomp + ptrace);\n"
         "with bpf none does (the kernel counts them).\n" +
         exit_footer({{exit_ok, "it ran"}, {exit_usage, ""}, {exit_spawn, ""}, {exit_harness, ""}});
}

}  // namespace

count_command::count_command(CLI::App& parent) {
  app = parent.add_subcommand(
      "count", "Count PROG's write-family syscalls per destination and call, like strace -c");
  add_run_options(*this);
  app->add_flag("--all", all,
                "one row per destination and call, also for destinations never "
                "written to");
  add_fault_option(app, faults);
  add_report_flag(app, "--json", json,
                  "{\"exit\", \"writes\", \"totals\", \"faults\"} as one JSON object");
  app->add_option("command", command, "-- PROG [ARG...]")->required();
  app->footer(count_footer());
}

namespace {

/// C's flags as the run's options, traced; FALLBACK says why not bpf (auto).
/// Throws usage_error.
run_options to_run_options(const count_command& c, std::string& fallback) {
  run_options o;
  o.faults = parse_faults(c.faults);
  o.backend = chosen_backend(c.backend, !o.faults.empty(), fallback);
  auto out = parse_sink_kind(c.stdout_kind);
  if (!out) throw usage_error("--stdout=" + c.stdout_kind + ": not a sink kind");
  o.stdout_sink = *out;
  o.trace = true;
  o.argv = c.command;
  use_caller_environment(o);
  o.timeout = std::chrono::milliseconds(c.timeout_ms);
  return o;
}

}  // namespace

int count_command::execute() {
  report_file json_out("--json", json);  // before the run: a bad path is a usage error
  refuse_program({&json_out}, command);
  std::string fallback;  // auto: why not bpf
  run_options o = to_run_options(*this, fallback);
  o.on_spawn = remember_child;
  observation obs = flushcheck::run(o);
  remember_child(0);
  const count_report report{obs, o.backend != trace_backend::perf, all};
  if (!json_out.on_stdout())
    std::cout << "backend: " << obs.trace->backend << fallback << "\n" << to_text(report);
  json_out.commit([&] { return dump_json(to_json(report)); });
  return exit_ok;
}

}  // namespace flushcheck::cli
