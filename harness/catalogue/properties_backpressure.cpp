// A reader that pushes back (--reader, --nonblock): a full pipe, a reader
// that went away, a non-blocking stdout.
#include <cstdint>

#include "checks.hpp"

namespace flushcheck::detail {
namespace {

const std::vector<sink_kind> pipe_sink = {sink_kind::pipe};

observation run_with_reader(property_context& ctx, const std::string& script,
                            const std::string& reader, run_options o = {}) {
  o.reader = reader_policy::parse(reader);
  return ctx.run(script, o);
}

/// The verdict of paused_reader_blocks_writer's run OBS: killed at the cut,
/// the pipe full.
verdict blocked_at_capacity(const observation& obs) {
  verdict v = status_is(obs, wait_status::signaled(SIGKILL));
  bool full = obs.out.bytes == obs.out.pipe_size && obs.out.pipe_size > 0;
  v.pass = v.pass && full;
  v.observed = std::to_string(obs.out.bytes) + " bytes in a pipe of " +
               std::to_string(obs.out.pipe_size) + ", " + obs.status.describe();
  v.explanation =
      "a writer whose reader reads nothing blocks once the pipe holds its capacity "
      "(and is still blocked at the cut): saw " +
      v.observed;
  v.figures = {{"bytes", static_cast<std::int64_t>(obs.out.bytes)},
               {"pipe_size", static_cast<std::int64_t>(obs.out.pipe_size)}};
  return v;
}

verdict paused_reader_blocks_writer(property_context& ctx) {
  run_options o;
  o.kill = kill_plan::at_time(300);
  auto obs = run_with_reader(ctx, "write 200000; flush; exit 0", "paused", o);
  return blocked_at_capacity(obs);
}

verdict closed_reader_sigpipe(property_context& ctx) {
  auto obs = run_with_reader(ctx, "marker a; write 3; flush; line 2; exit 0", "close-after=0");
  verdict v = status_is(obs, wait_status::signaled(SIGPIPE));
  v.explanation =
      "a write to a pipe with no reader raises SIGPIPE, whose default ends the "
      "process: " +
      obs.status.describe();
  return v;
}

verdict closed_reader_epipe_when_ignored(property_context& ctx) {
  auto obs = run_with_reader(ctx, "ignore PIPE; marker a; write 3; flush; exit 0", "close-after=0");
  std::string said = ctx.language() == lang::c ? "fflush: Broken pipe" : "ostream::flush";
  verdict v = status_is(obs, wait_status::exited(0));
  bool told = obs.err.data.find(said) != std::string::npos;
  v.pass = v.pass && told;
  v.observed += told ? "; EPIPE reported" : "; no report";
  v.explanation = "with SIGPIPE ignored the write fails with EPIPE and the flush says so ('" +
                  said + "'): " + obs.status.describe() + ", stderr " + show(obs.err.data);
  return v;
}

verdict nonblocking_full_pipe(property_context& ctx) {
  run_options o;
  o.nonblock = true;
  auto obs = run_with_reader(ctx, "write 200000; flush; line 2; exit 0", "paused", o);
  bool eagain = obs.err.data.find("Resource temporarily unavailable") != std::string::npos;
  verdict v = record(std::to_string(obs.out.bytes) + " of 200003 delivered" +
                         (eagain ? ", EAGAIN reported" : ", nothing reported"),
                     "a non-blocking stdout on a full pipe: write fails with EAGAIN once the "
                     "pipe is full, and the stream drops what it held; stderr " +
                         show(obs.err.data));
  v.figures = {{"delivered", static_cast<std::int64_t>(obs.out.bytes)}};
  return v;
}

/// The verdict of exit_blocked_then_reader_closes from its runs with SIGPIPE
/// (KILLED) and with SIGPIPE ignored (IGNORING).
verdict exit_flush_lost(const observation& killed, const observation& ignoring) {
  verdict v = status_is(killed, wait_status::signaled(SIGPIPE));
  const bool lived = ignoring.status == wait_status::exited(0);
  const bool none = killed.out.bytes == 0 && ignoring.out.bytes == 0;
  v.pass = v.pass && lived && none;
  v.observed = killed.status.describe() + "; SIGPIPE ignored: " + ignoring.status.describe() +
               "; " + std::to_string(killed.out.bytes + ignoring.out.bytes) + " bytes read";
  v.explanation =
      "a write blocked in exit()'s flush wakes with EPIPE when the reader closes: SIGPIPE ends "
      "the program (ignored: exit goes on with its status), and what the pipe held is gone "
      "with it: saw " +
      v.observed;
  v.figures = {{"bytes", static_cast<std::int64_t>(killed.out.bytes)}};
  return v;
}

/// exit() flushes 150,000 buffered bytes into a pipe nobody reads: the
/// write blocks at the pipe's capacity until the reader goes away at 200 ms.
verdict exit_blocked_then_reader_closes(property_context& ctx) {
  const char* s = "setvbuf full 200000 out; write 150000; exit 0";
  auto killed = run_with_reader(ctx, s, "paused-then-close=200");
  auto ignoring = run_with_reader(ctx, std::string("ignore PIPE; ") + s, "paused-then-close=200");
  return exit_flush_lost(killed, ignoring);
}

}  // namespace

const property k_backpressure_properties[] = {
    {.name = "backpressure.paused_reader_blocks_writer",
     .group = "backpressure",
     .level = tier::required,
     .source = "POSIX write(2) (a blocking write to a full pipe waits for room); "
               "pipe(7) (the capacity, F_GETPIPE_SZ)",
     .claim = "a writer facing a reader that reads nothing stops after exactly the "
              "pipe's capacity",
     .langs = both_langs,
     .sinks = pipe_sink,
     .check = paused_reader_blocks_writer},
    {.name = "backpressure.closed_reader_sigpipe",
     .group = "backpressure",
     .level = tier::required,
     .source = "POSIX write(2) (EPIPE: \"A SIGPIPE signal shall also be sent\"); "
               "signal(7) (SIGPIPE's default action ends the process)",
     .claim = "writing to a pipe whose reader has closed kills the program with "
              "SIGPIPE",
     .langs = both_langs,
     .sinks = pipe_sink,
     .check = closed_reader_sigpipe},
    {.name = "backpressure.closed_reader_epipe_when_ignored",
     .group = "backpressure",
     .level = tier::required,
     .source = "POSIX write(2) (EPIPE); ISO C 7.21.5.2; C++ [ostream.unformatted]",
     .claim = "with SIGPIPE ignored the flush fails with EPIPE and the program lives",
     .langs = both_langs,
     .sinks = pipe_sink,
     .check = closed_reader_epipe_when_ignored},
    {.name = "backpressure.exit_blocked_then_reader_closes",
     .group = "backpressure",
     .level = tier::required,
     .source = "POSIX write(2) (a blocked write to a pipe whose reader goes away: "
               "EPIPE and SIGPIPE); pipe(7); Linux fs/pipe.c pipe_write (wakes "
               "with -EPIPE once no reader is left)",
     .claim = "exit() blocked flushing into a paused pipe dies of SIGPIPE when the "
              "reader closes (exits with its own status if SIGPIPE is ignored); "
              "nothing it flushed is read",
     .langs = both_langs,
     .sinks = pipe_sink,
     .check = exit_blocked_then_reader_closes},
    {.name = "backpressure.nonblocking_full_pipe",
     .group = "backpressure",
     .level = tier::observed,
     .source = "POSIX write(2) (O_NONBLOCK: EAGAIN or a partial write); "
               "curl/curl#3239, Perl/perl5#8701 (a stdout inherited non-blocking)",
     .claim = "what reaches the reader of a full pipe when stdout is non-blocking",
     .langs = both_langs,
     .sinks = pipe_sink,
     .check = nonblocking_full_pipe},
};

void add_backpressure_properties(std::vector<property>& out) {
  append(out, k_backpressure_properties);
}

}  // namespace flushcheck::detail
