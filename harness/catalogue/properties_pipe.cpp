// The pipe under the stdio buffer (pipe(7), POSIX write(2)): its capacity,
// and what several writers' records look like to the reader.
#include <cstdint>
#include <string_view>

#include "checks.hpp"

namespace flushcheck::detail {
namespace {

const std::vector<sink_kind> pipe_only = {sink_kind::pipe};

/// 300,000 bytes in one unbuffered write(2) against a reader that reads
/// nothing, through a pipe of SIZE bytes, cut at 200 ms.
observation run_against_paused_reader(property_context& ctx, std::size_t size) {
  run_options o;
  o.reader = reader_policy::parse("paused");
  o.pipe_size = size;
  o.kill = kill_plan::at_time(200);
  o.timeline = true;
  return ctx.run("setvbuf none; write 300000; exit 0", o);
}

/// The tracer saw the 300,000-byte write enter and never return.
bool write_stayed_blocked(const observation& obs) {
  const auto* last = obs.trace && !obs.trace->events.empty() ? &obs.trace->events.back() : nullptr;
  return last != nullptr && last->returned_us < 0 && last->bytes == 300000;
}

/// Why the run at --pipe-size=SIZE failed: what the reader got, whether the
/// write stayed blocked, how the program ended.
std::string capacity_failure(std::size_t size, const observation& obs, bool blocked) {
  return "with --pipe-size=" + std::to_string(size) + " the reader got " +
         std::to_string(obs.out.bytes) + " bytes of a " + std::to_string(obs.out.pipe_size) +
         "-byte pipe, the write " + (blocked ? "blocked" : "did not stay blocked") + ", " +
         obs.status.describe();
}

/// One --pipe-size of capacity_blocks_writer, added to V: what the reader
/// got, and the first failure with its repro.
void check_capacity(property_context& ctx, std::size_t size, verdict& v) {
  auto obs = run_against_paused_reader(ctx, size);
  const bool blocked = write_stayed_blocked(obs);
  const bool ok = obs.out.bytes == obs.out.pipe_size && obs.out.pipe_size == size && blocked &&
                  obs.status == wait_status::signaled(SIGKILL);
  v.observed += (v.observed.empty() ? "" : ", ") + std::to_string(obs.out.bytes) + " of " +
                std::to_string(obs.out.pipe_size) + (blocked ? " (blocked)" : " (not blocked)");
  v.figures["bytes_at_" + std::to_string(size)] = static_cast<std::int64_t>(obs.out.bytes);
  if (!ok && v.pass) {
    v.pass = false;
    v.explanation = capacity_failure(size, obs, blocked);
    v.repro = ctx.last_command();
  }
}

/// 300,000 bytes in one write(2) against a reader that reads nothing: the
/// pipe takes its capacity and the call blocks (the tracer saw it enter,
/// never return) until the cut, at each --pipe-size.
verdict capacity_blocks_writer(property_context& ctx) {
  verdict v;
  v.pass = true;
  v.explanation = "the blocked writer had handed the pipe exactly its capacity";
  for (std::size_t size : {4096u, 65536u, 262144u}) check_capacity(ctx, size, v);
  return v;
}

/// Four processes, 25 records of PIPE_BUF bytes each, through a one-page
/// pipe (so that writers wait for room all the time).
verdict pipe_buf_writes_whole(property_context& ctx) {
  run_options o;
  o.pipe_size = 4096;
  auto obs = ctx.run(record_writers(4, 25, 4095), o);
  const auto c = count_records(obs.out.data, {4095});
  verdict v = status_is(obs, wait_status::exited(0));
  v.pass = v.pass && c.torn == 0 && c.whole == 100;
  v.observed = std::to_string(c.whole) + " whole, " + std::to_string(c.torn) + " torn";
  v.explanation =
      "4 writers, 100 records of 4096 bytes (PIPE_BUF), one write(2) each: " + v.observed + " (" +
      obs.status.describe() + ")";
  v.figures = {{"whole", static_cast<std::int64_t>(c.whole)},
               {"torn", static_cast<std::int64_t>(c.torn)}};
  return v;
}

/// The same with records of 100,000 bytes: each write waits for room many
/// times, and the others' bytes get in between.
verdict large_writes_interleave(property_context& ctx) {
  run_options o;
  o.pipe_size = 4096;
  auto obs = ctx.run(record_writers(4, 4, 99999), o);
  const auto c = count_records(obs.out.data, {99999});
  verdict v = record(c.torn > 0 ? "records over PIPE_BUF torn" : "none torn in this run",
                     "4 writers, 16 records of 100,000 bytes, one write(2) each, through a "
                     "4096-byte pipe: " +
                         std::to_string(c.torn) + " torn, " + std::to_string(c.whole) + " whole");
  v.figures = {{"whole", static_cast<std::int64_t>(c.whole)},
               {"torn", static_cast<std::int64_t>(c.torn)}};
  return v;
}

}  // namespace

const property k_pipe_properties[] = {
    {.name = "pipe.capacity_blocks_writer",
     .group = "pipe",
     .level = tier::required,
     .source = "pipe(7) (\"Pipe capacity\": a write blocks once the pipe is full; "
               "F_SETPIPE_SZ sets the capacity, F_GETPIPE_SZ reads it)",
     .claim = "a write facing a reader that reads nothing hands the pipe exactly "
              "its capacity (4 KiB, 64 KiB, 256 KiB) and stays blocked",
     .langs = c_only,
     .sinks = pipe_only,
     .check = capacity_blocks_writer},
    {.name = "pipe.pipe_buf_writes_whole",
     .group = "pipe",
     .level = tier::required,
     .source = "POSIX write(2) (\"Write requests of {PIPE_BUF} bytes or less shall "
               "not be interleaved with data from other processes\"); pipe(7) "
               "(PIPE_BUF is 4096 on Linux)",
     .claim = "records of PIPE_BUF bytes written by several processes with one "
              "write(2) each arrive whole",
     .langs = c_only,
     .sinks = pipe_only,
     .check = pipe_buf_writes_whole},
    {.name = "pipe.large_writes_interleave",
     .group = "pipe",
     .level = tier::observed,
     .source = "POSIX write(2) (writes of more than {PIPE_BUF} bytes \"may have data "
               "interleaved, on arbitrary boundaries\")",
     .claim = "whether records larger than PIPE_BUF from several processes arrive "
              "torn",
     .langs = c_only,
     .sinks = pipe_only,
     .check = large_writes_interleave},
};

void add_pipe_properties(std::vector<property>& out) { append(out, k_pipe_properties); }

}  // namespace flushcheck::detail
