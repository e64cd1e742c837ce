// Readers that push back (--reader, --pipe-size, --nonblock) on real pipes,
// and ptys, with programs no one here wrote: dd, yes, sh, python3, node.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>

#include "conformance.hpp"
#include "error.hpp"
#include "run.hpp"

namespace flushcheck {
namespace {

run_options opts(std::vector<std::string> argv) {
  run_options o;
  o.argv = std::move(argv);
  o.env = clean_environment();
  return o;
}

run_options dd(std::size_t block, std::size_t count) {
  return opts({"/bin/dd", "if=/dev/zero", "bs=" + std::to_string(block),
               "count=" + std::to_string(count), "status=none"});
}

TEST(reader_policy, parses_every_mode_and_refuses_the_rest) {
  EXPECT_EQ(reader_policy::parse("prompt").what, reader_policy::kind::prompt);
  EXPECT_EQ(reader_policy::parse("paused").what, reader_policy::kind::paused);
  EXPECT_EQ(reader_policy::parse("paused-until=marker:2").n, 2u);
  EXPECT_EQ(reader_policy::parse("chunk=3").text(), "chunk=3");
  EXPECT_EQ(reader_policy::parse("close-after=0").text(), "close-after=0");
  EXPECT_EQ(reader_policy::parse("rate=64K").text(), "rate=65536");
  EXPECT_EQ(reader_policy::parse("paused-then-close=300").text(), "paused-then-close=300");
  for (const char* bad :
       {"", "fast", "paused-until=marker:0", "paused-until=2", "chunk=0", "chunk=", "chunk=-1",
        "close-after=x", "rate=0", "rate=", "rate=1T", "paused-then-close=0", "paused-then-close="})
    EXPECT_THROW(reader_policy::parse(bad), usage_error) << bad;
}

// pipe(7): a writer facing a reader that reads nothing blocks once the pipe
// holds its capacity; the cut's SIGKILL ends it there.
TEST(reader, a_paused_reader_lets_a_writer_fill_exactly_the_pipes_capacity) {
  for (std::size_t block : {4096u, 100000u, 300000u}) {
    auto o = dd(block, 1000);
    o.reader = reader_policy::parse("paused");
    o.kill = kill_plan::at_time(300);
    auto obs = run(o);
    EXPECT_EQ(obs.status, wait_status::signaled(SIGKILL)) << block;
    EXPECT_EQ(obs.out.pipe_size, 65536u);
    EXPECT_EQ(obs.out.bytes, obs.out.pipe_size) << "writes of " << block << " bytes";
  }
}

TEST(reader, pipe_size_sets_the_capacity_and_small_writes_stay_whole) {
  // One page: four 1000-byte writes fit, the fifth needs 1000 bytes free
  // (writes up to PIPE_BUF are atomic, POSIX write(2)) and blocks.
  auto o = dd(1000, 1000);
  o.reader = reader_policy::parse("paused");
  o.pipe_size = 4096;
  o.kill = kill_plan::at_time(300);
  auto obs = run(o);
  EXPECT_EQ(obs.out.pipe_size, 4096u);
  EXPECT_EQ(obs.out.bytes, 4000u);
}

TEST(reader, close_after_gives_the_writer_epipe) {
  auto o = opts({"/usr/bin/yes"});
  o.reader = reader_policy::parse("close-after=1000");
  auto obs = run(o);
  EXPECT_EQ(obs.status, wait_status::signaled(SIGPIPE));
  EXPECT_EQ(obs.out.bytes, 1000u);
}

// A consumer that hangs, then goes away: dd blocked on the full pipe wakes
// with EPIPE and dies of SIGPIPE at the close, not before; what the pipe
// held is never read. A program that ends first is read whole, at once.
TEST(reader, paused_then_close_wakes_a_blocked_writer_with_sigpipe) {
  auto o = dd(100000, 1);
  o.reader = reader_policy::parse("paused-then-close=200");
  auto obs = run(o);
  EXPECT_EQ(obs.status, wait_status::signaled(SIGPIPE));
  EXPECT_EQ(obs.out.bytes, 0u);
  EXPECT_GE(obs.duration_us, 200000);
  auto quick = opts({"/bin/sh", "-c", "printf abc"});
  quick.reader = reader_policy::parse("paused-then-close=5000");
  auto done = run(quick);
  EXPECT_EQ(done.status, wait_status::exited(0));
  EXPECT_EQ(done.out.data, "abc");
  EXPECT_LT(done.duration_us, 4000000);
}

TEST(reader, close_after_refuses_to_close_the_terminal_input_is_typed_into) {
  auto o = opts({"/bin/cat"});
  o.stdout_sink = sink_kind::pty;
  o.input = stdin_kind::pty;
  o.reader = reader_policy::parse("close-after=10");
  EXPECT_THROW(run(o), usage_error);
  o.reader = reader_policy::parse("paused-then-close=10");
  EXPECT_THROW(run(o), usage_error);
}

// rate=N: by the time of each read the reader has taken no more than N
// bytes a second since it started (its clock starts after the run's, so the
// run's clock bounds it too); the writer is held up by the full pipe. The
// last read comes after the program has ended, when the limit is lifted.
TEST(reader, a_rate_limited_reader_never_reads_ahead_of_its_rate) {
  auto o = dd(30000, 10);  // 300,000 bytes: ~2.3 s at 100 KiB/s once the pipe is full
  o.reader = reader_policy::parse("rate=100K");
  auto obs = run(o);
  EXPECT_EQ(obs.status, wait_status::exited(0));
  EXPECT_EQ(obs.out.bytes, 300000u);
  ASSERT_GE(obs.out.chunks.size(), 10u);
  std::uint64_t read = 0;
  for (std::size_t i = 0; i + 1 < obs.out.chunks.size(); ++i) {
    read += obs.out.chunks[i].bytes;
    EXPECT_LE(read, 102400u * static_cast<std::uint64_t>(obs.out.chunks[i].t_us) / 1000000 + 1)
        << "read " << i << " at " << obs.out.chunks[i].t_us << " us";
  }
  EXPECT_LE(obs.out.chunks.back().bytes, obs.out.pipe_size);
  EXPECT_GE(obs.duration_us, (300000 - 65536) * 1000000LL / 102400) << "held back by the reader";
}

TEST(reader, chunk_reads_at_most_n_bytes_a_read) {
  auto o = opts({"/usr/bin/printf", "0123456789"});
  o.reader = reader_policy::parse("chunk=3");
  auto obs = run(o);
  EXPECT_EQ(obs.out.data, "0123456789");
  EXPECT_EQ(obs.out.reads, 4u);
  for (const auto& c : obs.out.chunks) EXPECT_LE(c.bytes, 3u);
}

TEST(reader, paused_until_a_marker_reads_from_that_marker_on) {
  auto o =
      opts({FLUSHCHECK_TARGET_STDIO_SCRIPT, "line 3; flush; marker a; line 3; flush; marker b"});
  o.reader = reader_policy::parse("paused-until=marker:2");
  auto obs = run(o);
  ASSERT_EQ(obs.markers.size(), 2u);
  EXPECT_EQ(obs.markers[0].stdout_visible, 0u);
  EXPECT_EQ(obs.markers[1].stdout_visible, 8u);
  EXPECT_EQ(obs.out.data, "AAA\nDDD\n");  // each op writes its own letter
}

// --timeline: dd's one 100,000-byte write blocks at the pipe's capacity
// until the reader, paused until the shell's marker, reads. What is certain
// whatever the scheduling: the write cannot finish before the reader reads,
// which it does only after the marker, which comes after the shell's
// `echo >&2`; the tracer stamped that echo's write at its entry, before
// letting it run. So both the write's return and the first read come after that stamp.
// (The sleep makes dd block first on an idle machine; nothing here needs it.)
TEST(reader, the_timeline_says_how_long_a_write_blocked_behind_a_paused_reader) {
  auto o = opts({"/bin/sh", "-c",
                 "dd if=/dev/zero bs=100000 count=1 status=none & sleep 0.2; echo released >&2; "
                 "echo go >&3; read x <&3; wait"});
  o.reader = reader_policy::parse("paused-until=marker:1");
  o.timeline = true;
  auto obs = run(o);
  ASSERT_TRUE(obs.trace && obs.trace->writes_timed);
  EXPECT_EQ(obs.out.bytes, 100000u);
  const trace_event *dd_write = nullptr, *released = nullptr;
  for (const auto& e : obs.trace->events) {
    if (e.call == traced_call::write && e.bytes == 100000) dd_write = &e;
    const bool to_stderr = obs.trace->on_stderr(e);  // dash's `echo >&2`: fd 1 after dup2(2, 1)
    if (e.call == traced_call::write && to_stderr && !released) released = &e;
  }
  ASSERT_NE(dd_write, nullptr);
  ASSERT_NE(released, nullptr);
  EXPECT_EQ(dd_write->result, 100000);
  ASSERT_EQ(obs.markers.size(), 1u);
  EXPECT_GE(dd_write->returned_us, dd_write->t_us);
  EXPECT_GT(dd_write->returned_us, released->t_us) << "returned only once the reader read";
  ASSERT_FALSE(obs.out.chunks.empty());
  EXPECT_GT(obs.out.chunks.front().t_us, released->t_us) << "nothing read before the marker";
}

// A pty's output queue fills too, but not at a fixed count: the tty layer
// moves bytes from the writer's side to the line discipline in a kernel
// work item, so where the writer blocks depends on timing (15,000 to 22,048
// bytes here, raw or cooked). Bounds, not a number: more than one tty read
// buffer (4 KiB), less than a pipe.
TEST(reader, a_paused_reader_on_a_pty_blocks_the_writer_too) {
  for (auto s : {sink_kind::pty, sink_kind::pty_cooked}) {
    auto o = dd(1000, 1000);
    o.stdout_sink = s;
    o.reader = reader_policy::parse("paused");
    o.kill = kill_plan::at_time(200);
    o.timeline = true;
    auto obs = run(o);
    EXPECT_EQ(obs.status, wait_status::signaled(SIGKILL)) << to_string(s);
    EXPECT_GT(obs.out.bytes, 4096u) << to_string(s);
    EXPECT_LT(obs.out.bytes, 65536u) << to_string(s);
    ASSERT_TRUE(obs.trace);
    std::int64_t blocked = 0;
    for (const auto& e : obs.trace->events)
      if (e.call == traced_call::write && e.returned_us < 0) ++blocked;
    EXPECT_EQ(blocked, 1) << "one write, blocked at the cut, never returned: " << to_string(s);
  }
}

TEST(reader, untimed_writes_have_no_return_time) {
  auto o = opts({"/bin/sh", "-c", "echo a"});
  o.trace = true;
  auto obs = run(o);
  ASSERT_TRUE(obs.trace);
  EXPECT_FALSE(obs.trace->writes_timed);
  for (const auto& e : obs.trace->events) EXPECT_EQ(e.returned_us, -1);
}

bool has_node() { return ::access("/usr/bin/node", X_OK) == 0; }

// nodejs/node#2972, #6456: Node makes a pipe stdout non-blocking and writes
// it asynchronously; process.exit() does not wait for the queue. Facing a
// paused reader, 200,000 bytes become one write that takes 65,536 (the
// pipe's capacity), one that fails with EAGAIN, and an exit 0.
TEST(reader, node_process_exit_drops_what_a_full_pipe_did_not_take) {
  if (!has_node()) GTEST_SKIP() << "node is not installed (Debian package nodejs)";
  auto o =
      opts({"/usr/bin/node", "-e", "process.stdout.write('x'.repeat(200000)); process.exit(0)"});
  o.reader = reader_policy::parse("paused");
  o.timeline = true;
  auto obs = run(o);
  EXPECT_EQ(obs.status, wait_status::exited(0)) << obs.err.data;
  EXPECT_EQ(obs.out.bytes, 65536u);
  std::vector<std::int64_t> results;
  for (const auto& e : obs.trace->events)
    if (e.returned_us >= 0) results.push_back(e.result);
  ASSERT_GE(results.size(), 2u);
  EXPECT_EQ(results[0], 65536);    // a partial write of the 200,000
  EXPECT_EQ(results[1], -EAGAIN);  // the rest, refused: the pipe is non-blocking
}

bool has_python() { return ::access("/usr/bin/python3", X_OK) == 0; }

const char* k_big_write =
    "import sys\nn = sys.stdout.write('x' * 200000)\nsys.stdout.flush()\n"
    "sys.stderr.write('wrote %d\\n' % n)\n";

TEST(reader, python_on_a_full_nonblocking_pipe_raises_blockingioerror) {
  if (!has_python()) GTEST_SKIP() << "python3 is not installed (Debian package python3)";
  auto o = opts({"/usr/bin/python3", "-c", k_big_write});
  o.nonblock = true;
  o.reader = reader_policy::parse("paused");
  auto obs = run(o);
  EXPECT_EQ(obs.status, wait_status::exited(120)) << obs.err.data;  // flush failed at exit
  EXPECT_NE(obs.err.data.find("BlockingIOError"), std::string::npos) << obs.err.data;
  EXPECT_EQ(obs.out.bytes, 65536u);
}

// python/cpython#85393 (open): an unbuffered TextIOWrapper ignores a partial
// write. sys.stdout.write says it wrote all 200,000 characters, write(2)
// took 65,536 of them, nothing is raised and the program exits 0.
TEST(reader, unbuffered_python_loses_the_rest_of_a_partial_write_silently) {
  if (!has_python()) GTEST_SKIP() << "python3 is not installed (Debian package python3)";
  auto o = opts({"/usr/bin/python3", "-c", k_big_write});
  o.env.push_back("PYTHONUNBUFFERED=1");
  o.nonblock = true;
  o.reader = reader_policy::parse("paused");
  auto obs = run(o);
  EXPECT_EQ(obs.status, wait_status::exited(0)) << obs.err.data;
  EXPECT_EQ(obs.err.data, "wrote 200000\n");
  EXPECT_EQ(obs.out.bytes, 65536u);
}

}  // namespace
}  // namespace flushcheck
