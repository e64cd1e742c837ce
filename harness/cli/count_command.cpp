#include <iomanip>
#include <iostream>

#include "commands.hpp"
#include "flushcheck/error.hpp"
#include "flushcheck/perf_counter.hpp"
#include "flushcheck/report.hpp"
#include "flushcheck/run.hpp"

namespace flushcheck::cli {

count_command::count_command(CLI::App& parent) {
  app = parent.add_subcommand(
      "count", "Count PROG's write-family syscalls per destination and call, like strace -c");
  app->add_option("--backend", backend,
                  "ptrace (exact, per destination) or perf (counts only: totals and fd 1; "
                  "no stop per call, for millions of writes)")
      ->capture_default_str();
  app->add_option("--stdout", stdout_kind, "sink for stdout: pty | pipe | file | null | ...")
      ->capture_default_str();
  app->add_option("--timeout", timeout_ms, "deadline in ms")->capture_default_str();
  app->add_flag("--json", json, "print {\"exit\", \"writes\", \"totals\"} as one JSON object");
  app->add_option("command", command, "-- PROG [ARG...]")->required();
  app->footer(
      "Rows: one per destination and call (write, writev, pwrite64, pwritev, pwritev2,\n"
      "sendto, sendmsg, fsync, fdatasync, sync_file_range, close, dup*, fcntl F_DUPFD).\n"
      "Counts are exact: every call stops the program once (seccomp + ptrace).");
}

int count_command::execute() {
  run_options o;
  if (backend == "perf") {
    std::string why = perf_unavailable_reason();
    if (!why.empty()) throw usage_error("--backend=perf: " + why);
    o.backend = trace_backend::perf;
  } else if (backend != "ptrace") {
    throw usage_error("--backend=" + backend + ": expected ptrace or perf");
  }
  auto out = parse_sink_kind(stdout_kind);
  if (!out) throw usage_error("--stdout=" + stdout_kind + ": not a sink kind");
  o.stdout_sink = *out;
  o.trace = true;
  o.argv = command;
  o.env = current_environment();
  o.timeout = std::chrono::milliseconds(timeout_ms);
  o.on_spawn = remember_child;
  observation obs = flushcheck::run(o);
  remember_child(0);
  const trace_summary& t = *obs.trace;
  if (json) {
    nlohmann::json j = to_json(obs);
    std::cout << nlohmann::json{{"exit", j["exit"]},
                                {"writes", j["writes"]},
                                {"totals", j["trace"]["totals"]}}
                     .dump()
              << "\n";
    return exit_ok;
  }
  std::cout << std::right << std::setw(10) << "calls" << std::setw(14) << "bytes" << std::setw(10)
            << "mean"
            << "  " << std::left << std::setw(16) << "syscall" << std::setw(8) << "fds"
            << "destination\n";
  std::int64_t all = 0;
  for (const auto& d : t.destinations)
    for (std::size_t c = 0; c < traced_call_count; ++c) {
      if (d.calls[c] == 0) continue;
      auto call = static_cast<traced_call>(c);
      bool w = is_write_family(call);
      std::string fds;
      for (int fd : d.fds) fds += (fds.empty() ? "" : ",") + std::to_string(fd);
      // bytes are per destination; shown on its write row when it has only one kind of write
      std::cout << std::right << std::setw(10) << d.calls[c] << std::setw(14)
                << (w && o.backend == trace_backend::ptrace ? std::to_string(d.bytes) : "")
                << std::setw(10)
                << (w && d.write_calls && d.bytes ? std::to_string(d.bytes / d.write_calls) : "")
                << "  " << std::left << std::setw(16) << to_string(call) << std::setw(8) << fds
                << d.what << (d.role.empty() ? "" : " (" + d.role + ")") << "\n";
      all += d.calls[c];
    }
  for (std::size_t c = 0; c < traced_call_count; ++c)
    if (t.totals[c] != 0)
      std::cout << std::right << std::setw(10) << t.totals[c] << std::setw(26) << "" << std::left
                << std::setw(16) << to_string(static_cast<traced_call>(c)) << std::setw(8) << "*"
                << "all destinations\n";
  std::cout << std::right << std::setw(10) << all << "  calls in the rows above; "
            << obs.status.describe() << "\n";
  return exit_ok;
}

}  // namespace flushcheck::cli
