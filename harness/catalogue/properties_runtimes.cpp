// The runtimes (targets/runtimes/): what each one's own output call does
// with stdout and stderr on a pty, a pipe and a file, what survives each way
// it can end, and each buffering switch doing what its documentation says.
// What a runtime documents is in the language table (languages.cpp), with
// its source.
#include <csignal>
#include <cstdint>

#include "checks.hpp"
#include "languages.hpp"

namespace flushcheck::detail {
namespace {

/// "line 3; write 2" then a marker: a whole line "AAA\n" and a partial "BB".
const std::string k_prefix = "line 3; write 2; marker m; ";
const std::string k_all = payload(0, 3) + "\n" + payload(1, 2);

/// The mode the reader's count at marker 1 shows: 6 bytes none, 4 line, 0 full.
verdict mode_at_marker(const observation& obs, stream s, buffer_mode want, const std::string& why) {
  return buffering_at_marker(obs, s,
                             want == buffer_mode::none   ? 6
                             : want == buffer_mode::line ? 4
                                                         : 0,
                             std::string(to_string(want)) + " (" + why + ")");
}

verdict stdout_mode(property_context& ctx) {
  const auto& f = facts_of(ctx.language());
  auto obs = ctx.run(k_prefix + "exit 0");
  return mode_at_marker(obs, stream::out, is_tty(ctx.sink()) ? f.out.tty : f.out.other,
                        f.out.source);
}

verdict stderr_mode(property_context& ctx) {
  const auto& f = facts_of(ctx.language());
  auto obs = run_stderr_on_sink(ctx, "line 3 err; write 2 err; marker m; exit 0");
  return mode_at_marker(obs, stream::err, is_tty(ctx.sink()) ? f.err.tty : f.err.other,
                        f.err.source);
}

verdict flush_delivers(property_context& ctx) {
  auto obs = ctx.run("line 3; write 2; flush; marker m; exit 0");
  return visible_is(obs, 1, stream::out, 6, "the runtime's flush hands stdout to the kernel");
}

verdict exit_flushes(property_context& ctx) {
  auto obs = ctx.run(k_prefix + "exit 3");
  return both(status_is(obs, wait_status::exited(3)),
              data_is(obs, stream::out, k_all, "the ordinary exit delivers what stdout holds"));
}

/// What the reader had at the marker: all that a death that flushes nothing leaves.
std::string before_marker(const observation& obs) {
  return obs.markers.empty() ? "" : obs.out.data.substr(0, obs.markers[0].stdout_visible);
}

verdict fast_exit(property_context& ctx) {
  const auto& f = facts_of(ctx.language());
  auto obs = ctx.run(k_prefix + "_exit 5");
  const std::string want = f.fast_exit_flushes ? k_all : before_marker(obs);
  return both(status_is(obs, wait_status::exited(5)),
              data_is(obs, stream::out, want,
                      std::string(f.fast_exit_flushes ? "the fast exit delivers stdout"
                                                      : "the fast exit discards stdout") +
                          " (" + f.fast_exit_source + ")"));
}

/// An observed value: how the program ended and what of "AAA\nBB" (and of
/// anything it wrote after the cut, if it went on) arrived.
verdict ending(property_context& ctx, const std::string& death, run_options o = {}) {
  auto obs = ctx.run(k_prefix + death, o);
  verdict v = record(obs.status.describe() + ", stdout " + show(obs.out.data),
                     "'" + k_prefix + death + "': the reader had " +
                         std::to_string(before_marker(obs).size()) + " bytes at the marker");
  v.figures = {{"bytes", static_cast<std::int64_t>(obs.out.data.size())}};
  // Recorded, never asserted; but a run that never got to its cut recorded
  // nothing about it, and says so (the tests fail on it).
  v.pass = !obs.markers.empty();
  if (!v.pass) v.observed = "marker never reached (" + obs.status.describe() + ")";
  return v;
}

verdict killed_at_marker(property_context& ctx) {
  run_options o;
  o.kill = kill_plan::at_marker(1, SIGKILL);
  auto obs = ctx.run(k_prefix + "line 4; exit 0", o);
  return both(status_is(obs, wait_status::signaled(SIGKILL)),
              data_is(obs, stream::out, before_marker(obs),
                      "SIGKILL runs no code: only what the reader had at the cut"));
}

verdict large_write_fast_exit(property_context& ctx) {
  constexpr std::size_t n = 1 << 20;
  auto obs = ctx.run("write " + std::to_string(n) + "; _exit 0");
  verdict v = record(std::to_string(obs.out.data.size()) + " of " + std::to_string(n) + " bytes",
                     "one write of 1 MiB, then the fast exit: " + obs.status.describe());
  v.figures = {{"bytes", static_cast<std::int64_t>(obs.out.data.size())}};
  v.pass = obs.status == wait_status::exited(0);  // the run did what the script says
  return v;
}

const property k_runtime_modes[] = {
    {.name = "runtime.stdout_mode",
     .group = "runtimes",
     .level = tier::documented,
     .source = "Python docs sys.stdout; Node process.md 'A note on process I/O', libuv "
               "src/unix/stream.c; perlvar $|; Ruby io.c; OpenJDK System.java; Go "
               "os/file.go; Rust std/src/io/stdio.rs",
     .claim = "stdout is buffered on each sink as the runtime documents",
     .langs = runtimes(),
     .sinks = all_sinks,
     .check = stdout_mode},
    {.name = "runtime.stderr_mode",
     .group = "runtimes",
     .level = tier::documented,
     .source = "Python docs sys.stderr (3.9); Node process.md; Perl perlio.c "
               "PerlIOBuf_open; Ruby io.c rb_io_prep_stderr; OpenJDK System.java; Go "
               "os/file.go; Rust std/src/io/stdio.rs",
     .claim = "stderr is buffered on each sink as the runtime documents",
     .langs = runtimes(),
     .sinks = all_sinks,
     .check = stderr_mode},
    {.name = "runtime.flush_delivers",
     .group = "runtimes",
     .level = tier::documented,
     .source = "each runtime's flush (docs/script.md, 'In other runtimes')",
     .claim = "after the runtime's flush, the reader has everything written",
     .langs = runtimes(),
     .sinks = all_sinks,
     .check = flush_delivers},
};

const property k_runtime_endings[] = {
    {.name = "runtime.exit_flushes",
     .group = "runtimes",
     .level = tier::documented,
     .source = "sys.exit, process.exitCode, perlfunc exit, Kernel#exit, System.exit, "
               "os.Exit, return from main",
     .claim = "the runtime's ordinary exit delivers everything written",
     .langs = runtimes(),
     .sinks = all_sinks,
     .check = exit_flushes},
    {.name = "runtime.fast_exit",
     .group = "runtimes",
     .level = tier::documented,
     .source = "Python docs os._exit; Node docs process.exit; POSIX.pod _exit; Ruby "
               "process.c rb_f_exit_bang; Runtime.halt; Go os/proc.go Exit; Rust "
               "std/src/process.rs exit",
     .claim = "the fast exit discards what stdout holds, or has nothing to discard",
     .langs = runtimes(),
     .sinks = all_sinks,
     .check = fast_exit},
    {.name = "runtime.sigkill_at_marker",
     .group = "runtimes",
     .level = tier::required,
     .source = "POSIX 2.4.3 (SIGKILL cannot be caught); kill(2)",
     .claim = "killed by SIGKILL at a marker: exactly what was delivered survives",
     .langs = runtimes(),
     .sinks = all_sinks,
     .check = killed_at_marker},
};

/// What each runtime does where no document promises anything: recorded.
const property k_runtime_observations[] = {
    {.name = "runtime.sigterm_at_marker",
     .group = "runtimes",
     .level = tier::observed,
     .source = "POSIX 2.4.3; a runtime may handle SIGTERM (JVM shutdown hooks, "
               "Ruby's SignalException)",
     .claim = "killed by SIGTERM at a marker: how it ends, and what survives",
     .langs = runtimes(),
     .sinks = all_sinks,
     .check =
         [](property_context& ctx) {
           run_options o;
           o.kill = kill_plan::at_marker(1, SIGTERM);
           return ending(ctx, "line 4; exit 0", o);
         }},
    {.name = "runtime.uncaught_exception",
     .group = "runtimes",
     .level = tier::observed,
     .source = "each runtime's handling of an uncaught exception or panic",
     .claim = "an uncaught exception or panic: how it ends, and what survives",
     .langs = runtimes(),
     .sinks = all_sinks,
     .check = [](property_context& ctx) { return ending(ctx, "throw"); }},
    {.name = "runtime.abort",
     .group = "runtimes",
     .level = tier::observed,
     .source = "os.abort, process.abort, POSIX::abort, SIGABRT, std::process::abort",
     .claim = "abort: how it ends, and what survives",
     .langs = runtimes(true),  // Java and Go have no abort (docs/script.md)
     .sinks = all_sinks,
     .check = [](property_context& ctx) { return ending(ctx, "abort"); }},
    {.name = "runtime.large_write_fast_exit",
     .group = "runtimes",
     .level = tier::observed,
     .source = "nodejs/node#6456 (process.exit drops queued pipe writes)",
     .claim = "one 1 MiB write, then the fast exit: how much arrives",
     .langs = runtimes(),
     .sinks = all_sinks,
     .check = large_write_fast_exit},
};

}  // namespace

void add_runtime_properties(std::vector<property>& out) {
  append(out, k_runtime_modes);
  append(out, k_runtime_endings);
  append(out, k_runtime_observations);
}

}  // namespace flushcheck::detail
