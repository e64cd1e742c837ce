// What survives each way a program can end. The script is always
// "line 3; write 2" (a full line "AAA\n" and a partial "BB") then the death.
#include <csignal>

#include "checks.hpp"

namespace flushcheck::detail {
namespace {

// A marker right before the death records what the reader had; a death
// that flushes nothing must leave exactly that. This holds whatever the
// library's buffering (musl sends a pipe's first line early, glibc does not).
const std::string k_prefix = "line 3; write 2; marker pre; ";
const std::string k_all = payload(0, 3) + "\n" + payload(1, 2);

verdict flushed_death(property_context& ctx, const std::string& death, const wait_status& status,
                      const std::string& claim) {
  auto obs = ctx.run(k_prefix + death);
  return both(status_is(obs, status), data_is(obs, stream::out, k_all, claim));
}

verdict nothing_after(const observation& obs, const std::string& claim) {
  if (obs.markers.empty()) return visible_is(obs, 1, stream::out, 0, claim);
  std::string before = obs.out.data.substr(0, obs.markers[0].stdout_visible);
  return data_is(obs, stream::out, before, claim + " (only what the reader had before it)");
}

verdict lost_death(property_context& ctx, const std::string& death, const wait_status& status,
                   const std::string& claim) {
  auto obs = ctx.run(k_prefix + death);
  return both(status_is(obs, status), nothing_after(obs, claim));
}

verdict killed_at_marker(property_context& ctx, int sig) {
  run_options o;
  o.kill = kill_plan::at_marker(1, sig);
  auto obs = ctx.run(k_prefix + "line 4; exit 0", o);
  return both(status_is(obs, wait_status::signaled(sig)),
              nothing_after(obs, "a signal's default action runs no user code: no flush"));
}

const property k_flushing_deaths[] = {
    {.name = "death.exit_flushes",
     .group = "deaths",
     .level = tier::required,
     .source = "ISO C 7.22.4.4p4; C++ [support.start.term], [ios.init]",
     .claim = "exit() flushes every open stream",
     .langs = both_langs,
     .sinks = all_sinks,
     .check =
         [](property_context& ctx) {
           return flushed_death(ctx, "exit 3", wait_status::exited(3), "exit() flushes");
         }},
    {.name = "death.return_flushes",
     .group = "deaths",
     .level = tier::required,
     .source = "ISO C 5.1.2.2.3, 7.22.4.4; C++ [basic.start.main]",
     .claim = "returning from main is exit(): every stream is flushed",
     .langs = both_langs,
     .sinks = all_sinks,
     .check =
         [](property_context& ctx) {
           return flushed_death(ctx, "return 4", wait_status::exited(4),
                                "return from main flushes");
         }},
};

const property k_discarding_calls[] = {
    {.name = "death._exit_discards",
     .group = "deaths",
     .level = tier::documented,
     .source = "ISO C 7.22.4.5 (implementation-defined); POSIX _exit; glibc, musl: no "
               "flush",
     .claim = "_exit() does not flush: buffered bytes are lost",
     .langs = both_langs,
     .sinks = all_sinks,
     .applies = is_glibc_or_musl,
     .check =
         [](property_context& ctx) {
           return lost_death(ctx, "_exit 5", wait_status::exited(5), "_exit discards the buffer");
         }},
    {.name = "death.quick_exit_discards",
     .group = "deaths",
     .level = tier::documented,
     .source = "ISO C 7.22.4.7 (ends with _Exit); glibc, musl: no flush",
     .claim = "quick_exit() does not flush stdio",
     .langs = both_langs,
     .sinks = all_sinks,
     .applies = is_glibc_or_musl,
     .check =
         [](property_context& ctx) {
           return lost_death(ctx, "quick_exit 6", wait_status::exited(6), "quick_exit discards");
         }},
    {.name = "death.abort_discards",
     .group = "deaths",
     .level = tier::documented,
     .source = "ISO C 7.22.4.1 (implementation-defined); glibc >= 2.27 "
               "stdlib/abort.c, musl: no flush",
     .claim = "abort() does not flush stdio",
     .langs = both_langs,
     .sinks = all_sinks,
     .applies = is_glibc_or_musl,
     .check =
         [](property_context& ctx) {
           return lost_death(ctx, "abort", wait_status::signaled(SIGABRT), "abort discards");
         }},
};

const property k_abnormal_ends[] = {
    {.name = "death.raise_term_discards",
     .group = "deaths",
     .level = tier::required,
     .source = "POSIX 2.4.3 (SIG_DFL, action T)",
     .claim = "raise(SIGTERM) with the default action ends the process with no flush",
     .langs = both_langs,
     .sinks = all_sinks,
     .check =
         [](property_context& ctx) {
           return lost_death(ctx, "raise TERM", wait_status::signaled(SIGTERM), "SIGTERM discards");
         }},
    {.name = "death.segv_discards",
     .group = "deaths",
     .level = tier::required,
     .source = "POSIX 2.4.3 (SIG_DFL, action A)",
     .claim = "an invalid memory access (SIGSEGV) ends the process with no flush",
     .langs = both_langs,
     .sinks = all_sinks,
     .check =
         [](property_context& ctx) {
           return lost_death(ctx, "crash", wait_status::signaled(SIGSEGV), "SIGSEGV discards");
         }},
    {.name = "death.uncaught_exception",
     .group = "deaths",
     .level = tier::documented,
     .source = "C++ [except.terminate] (unwinding implementation-defined), "
               "[terminate.handler] (abort)",
     .claim = "an uncaught exception calls std::terminate, which aborts: cout's "
              "buffer is lost",
     .langs = cxx_only,
     .sinks = all_sinks,
     .applies = is_glibc_or_musl,
     .check =
         [](property_context& ctx) {
           return lost_death(ctx, "throw", wait_status::signaled(SIGABRT), "terminate discards");
         }},
};

/// A signal sent from outside, as a property name and a claim spell it.
struct outside_signal {
  int sig;
  const char* name_part;   ///< "kill", as in "death.sigkill_at_marker"
  const char* claim_part;  ///< "KILL", as in "killed by SIGKILL"
};

/// The row of "killed by S at a marker".
property killed_at_marker_row(const outside_signal& s) {
  return {.name = "death.sig" + std::string(s.name_part) + "_at_marker",
          .group = "deaths",
          .level = tier::required,
          .source = "POSIX 2.4.3 (SIG_DFL); kill(2)",
          .claim = "killed by SIG" + std::string(s.claim_part) +
                   " at a marker: exactly what was delivered before the cut survives",
          .langs = both_langs,
          .sinks = all_sinks,
          .check = [sig = s.sig](property_context& ctx) { return killed_at_marker(ctx, sig); }};
}

void add_killed_at_marker(std::vector<property>& out) {
  for (const outside_signal& s :
       {outside_signal{SIGKILL, "kill", "KILL"}, outside_signal{SIGTERM, "term", "TERM"},
        outside_signal{SIGINT, "int", "INT"}})
    out.push_back(killed_at_marker_row(s));
}

}  // namespace

void add_death_properties(std::vector<property>& out) {
  append(out, k_flushing_deaths);
  append(out, k_discarding_calls);
  append(out, k_abnormal_ends);
  add_killed_at_marker(out);
}

}  // namespace flushcheck::detail
