// What survives each way a program can end. The script is always
// "line 3; write 2" (a full line "AAA\n" and a partial "BB") then the death.
#include <csignal>

#include "detail/checks.hpp"

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

}  // namespace

void add_death_properties(std::vector<property>& out) {
  auto add = [&](std::string name, tier t, std::string source, std::string claim,
                 std::vector<lang> langs, std::function<bool(const impl_profile&)> applies,
                 std::function<verdict(property_context&)> check) {
    out.push_back({std::move(name), "deaths", t, std::move(source), std::move(claim),
                   std::move(langs), all_sinks, std::move(applies), std::move(check)});
  };
  add("death.exit_flushes", tier::required,
      "ISO C 7.22.4.4p4; C++ [support.start.term], [ios.init]", "exit() flushes every open stream",
      both_langs, {}, [](property_context& ctx) {
        return flushed_death(ctx, "exit 3", wait_status::exited(3), "exit() flushes");
      });
  add("death.return_flushes", tier::required, "ISO C 5.1.2.2.3, 7.22.4.4; C++ [basic.start.main]",
      "returning from main is exit(): every stream is flushed", both_langs, {},
      [](property_context& ctx) {
        return flushed_death(ctx, "return 4", wait_status::exited(4), "return from main flushes");
      });
  add("death._exit_discards", tier::documented,
      "ISO C 7.22.4.5 (implementation-defined); POSIX _exit; glibc, musl: no flush",
      "_exit() does not flush: buffered bytes are lost", both_langs, is_glibc_or_musl,
      [](property_context& ctx) {
        return lost_death(ctx, "_exit 5", wait_status::exited(5), "_exit discards the buffer");
      });
  add("death.quick_exit_discards", tier::documented,
      "ISO C 7.22.4.7 (ends with _Exit); glibc, musl: no flush",
      "quick_exit() does not flush stdio", both_langs, is_glibc_or_musl, [](property_context& ctx) {
        return lost_death(ctx, "quick_exit 6", wait_status::exited(6), "quick_exit discards");
      });
  add("death.abort_discards", tier::documented,
      "ISO C 7.22.4.1 (implementation-defined); glibc >= 2.27 stdlib/abort.c, musl: no flush",
      "abort() does not flush stdio", both_langs, is_glibc_or_musl, [](property_context& ctx) {
        return lost_death(ctx, "abort", wait_status::signaled(SIGABRT), "abort discards");
      });
  add("death.raise_term_discards", tier::required, "POSIX 2.4.3 (SIG_DFL, action T)",
      "raise(SIGTERM) with the default action ends the process with no flush", both_langs, {},
      [](property_context& ctx) {
        return lost_death(ctx, "raise TERM", wait_status::signaled(SIGTERM), "SIGTERM discards");
      });
  add("death.segv_discards", tier::required, "POSIX 2.4.3 (SIG_DFL, action A)",
      "an invalid memory access (SIGSEGV) ends the process with no flush", both_langs, {},
      [](property_context& ctx) {
        return lost_death(ctx, "crash", wait_status::signaled(SIGSEGV), "SIGSEGV discards");
      });
  add("death.uncaught_exception", tier::documented,
      "C++ [except.terminate] (unwinding implementation-defined), [terminate.handler] (abort)",
      "an uncaught exception calls std::terminate, which aborts: cout's buffer is lost", cxx_only,
      is_glibc_or_musl, [](property_context& ctx) {
        return lost_death(ctx, "throw", wait_status::signaled(SIGABRT), "terminate discards");
      });
  for (int sig : {SIGKILL, SIGTERM, SIGINT}) {
    std::string name = "death.sig" + std::string(sig == SIGKILL   ? "kill"
                                                 : sig == SIGTERM ? "term"
                                                                  : "int");
    add(name + "_at_marker", tier::required, "POSIX 2.4.3 (SIG_DFL); kill(2)",
        "killed by SIG" +
            std::string(sig == SIGKILL   ? "KILL"
                        : sig == SIGTERM ? "TERM"
                                         : "INT") +
            " at a marker: exactly what was delivered before the cut survives",
        both_langs, {}, [sig](property_context& ctx) { return killed_at_marker(ctx, sig); });
  }
}

}  // namespace flushcheck::detail
