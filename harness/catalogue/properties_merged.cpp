// stdout and stderr on one sink, and write errors (/dev/full).
#include "checks.hpp"

namespace flushcheck::detail {
namespace {

verdict merged_order(property_context& ctx) {
  run_options o;
  o.stderr_sink.reset();  // 2>&1
  auto obs = ctx.run("line 3; write 2 err; line 1; exit 0", o);
  bool cxx = ctx.language() == lang::cxx;
  // C: a fully buffered stdout holds its line until exit; stderr goes at
  // once. C++: cerr's tie flushes cout first, on every sink.
  std::string want = cxx || is_tty(ctx.sink()) ? "AAA\nBBC\n" : "BBAAA\nC\n";
  return data_is(obs, stream::out, want,
                 cxx ? "cerr flushes cout before it writes" : "stderr overtakes buffered stdout");
}

verdict write_error_reported(property_context& ctx, const std::string& script) {
  auto obs = ctx.run(script);
  verdict v = status_is(obs, wait_status::exited(1));
  bool said = obs.err.data.find("No space left on device") != std::string::npos;
  v.pass = v.pass && said;
  v.observed += said ? "; ENOSPC reported" : "; no ENOSPC report";
  v.explanation =
      "the failing call must return an error with errno ENOSPC (the target then "
      "reports it and exits 1): " +
      obs.status.describe() + ", stderr " + show(obs.err.data);
  return v;
}

verdict exit_status_after_lost_write(property_context& ctx) {
  auto obs = ctx.run("write 3; exit 0");
  return record(obs.status.describe(),
                "exit() flushes into /dev/full and cannot report the failure: the exit status "
                "does not show the lost output");
}

}  // namespace

const property k_merged_and_error_properties[] = {
    {.name = "merged.order",
     .group = "merged streams",
     .level = tier::documented,
     .source = "follows from stdout's mode (ISO C 7.21.3p7) and stderr being "
               "unbuffered (glibc, musl); C++: cerr.tie() == &cout",
     .claim = "the order in which a reader of 2>&1 sees stdout and stderr",
     .langs = both_langs,
     .sinks = all_sinks,
     .applies = is_glibc,
     .check = merged_order},
    {.name = "error.fflush_enospc",
     .group = "write errors",
     .level = tier::required,
     .source = "ISO C 7.21.5.2 (fflush returns EOF); POSIX write ENOSPC; C++ "
               "[ostream.unformatted]",
     .claim = "flushing into /dev/full fails with ENOSPC and the program can see it",
     .langs = both_langs,
     .sinks = full_sink,
     .check = [](property_context& ctx) { return write_error_reported(ctx, "write 3; flush"); }},
    {.name = "error.fclose_enospc",
     .group = "write errors",
     .level = tier::required,
     .source = "ISO C 7.21.5.1 (fclose returns EOF on failure); POSIX fclose ENOSPC",
     .claim = "fclose of a stream whose flush fails reports ENOSPC",
     .langs = both_langs,
     .sinks = full_sink,
     .check =
         [](property_context& ctx) { return write_error_reported(ctx, "write 3; close out"); }},
    {.name = "error.exit_status_hides_loss",
     .group = "write errors",
     .level = tier::observed,
     .source = "ISO C 7.22.4.4 (exit's flush has no error path)",
     .claim = "the exit status after exit() failed to flush",
     .langs = both_langs,
     .sinks = full_sink,
     .check = exit_status_after_lost_write},
};

void add_merged_and_error_properties(std::vector<property>& out) {
  append(out, k_merged_and_error_properties);
}

}  // namespace flushcheck::detail
