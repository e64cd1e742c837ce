// The explore stage through its C++ API: flushcheck's own stdio_script on a
// pipe, its uncut reference output and what each cut of it kept.
#include <gtest/gtest.h>

#include <csignal>
#include <string>
#include <vector>

#include "capture.hpp"
#include "clean_environment.hpp"
#include "error.hpp"
#include "explore.hpp"
#include "explore_wire.hpp"
#include "kill_plan.hpp"
#include "run.hpp"
#include "sink_kind.hpp"
#include "wait_status.hpp"

namespace flushcheck {
namespace {

/// SCRIPT run by stdio_script with stdout on a pipe, the clean environment,
/// each cut keeping all it got: the one exploration of that sink.
explored_sink explore_script(const std::string& script) {
  explore_options o;
  o.base.argv = {FLUSHCHECK_TARGET_STDIO_SCRIPT, script};
  o.base.env = clean_environment();
  o.sinks = {sink_kind::pipe};
  o.keep = keep_policy{keep_policy::kind::all, 0};
  std::vector<explored_sink> result = explore(o);
  EXPECT_EQ(result.size(), 1u);
  return result.at(0);
}

/// Fully buffered (a pipe): its two lines leave in the one write at exit.
/// Ops 0 and 2 write 'A' and 'C' (docs/script.md).
const explored_sink& buffered_until_exit() {
  static const explored_sink s = explore_script("line 5; marker m1; line 5; exit 0");
  return s;
}

/// The cut of S at WHEN ("marker:1", "write:1", "after-write:1"); nullptr if none.
const explored_cut* cut_at(const explored_sink& s, const std::string& when) {
  for (const auto& c : s.cuts)
    if (!c.fault && c.cut.when_text() == when) return &c;
  return nullptr;
}

std::vector<std::string> cut_points(const explored_sink& s) {
  std::vector<std::string> out;
  for (const auto& c : s.cuts) out.push_back(c.cut.when_text());
  return out;
}

TEST(explore, the_reference_is_what_the_script_writes) {
  const explored_sink& s = buffered_until_exit();
  EXPECT_EQ(s.sink, sink_kind::pipe);
  EXPECT_FALSE(s.on_stderr);
  EXPECT_EQ(s.reference.status, wait_status::exited(0));
  EXPECT_EQ(s.reference.out.data, "AAAAA\nCCCCC\n");
  EXPECT_EQ(s.reference_bytes, 12u);
  EXPECT_EQ(s.reference_lines, 2u);
  EXPECT_EQ(s.markers, 1);
  EXPECT_EQ(s.writes, 1);
}

// Every marker, the entry of every write and the moment after the last one.
TEST(explore, every_cut_is_reported_and_reached) {
  const explored_sink& s = buffered_until_exit();
  EXPECT_EQ(cut_points(s), (std::vector<std::string>{"marker:1", "write:1", "after-write:1"}));
  EXPECT_EQ(s.cuts_total, s.cuts.size());
  EXPECT_FALSE(s.sampled);
  for (const auto& c : s.cuts) {
    SCOPED_TRACE(c.cut.text());
    EXPECT_TRUE(c.delivered);
    EXPECT_EQ(c.status, wait_status::signaled(SIGKILL));
    EXPECT_FALSE(c.repro.empty());
  }
}

// Until the write at exit, the lines are in stdio's buffer: a cut loses them.
TEST(explore, a_fully_buffered_pipe_loses_every_line_cut_before_exit) {
  const explored_sink& s = buffered_until_exit();
  for (const char* when : {"marker:1", "write:1"}) {
    const explored_cut* c = cut_at(s, when);
    ASSERT_NE(c, nullptr) << when;
    EXPECT_EQ(c->survived, "") << when;
    EXPECT_EQ(c->bytes, 0u) << when;
    EXPECT_EQ(c->lines_lost, 2u) << when;
    EXPECT_EQ(c->lost, (std::vector<std::string>{"AAAAA", "CCCCC"})) << when;
    EXPECT_TRUE(c->prefix) << when;
  }
}

TEST(explore, a_cut_after_the_last_write_loses_nothing) {
  const explored_sink& s = buffered_until_exit();
  const explored_cut* c = cut_at(s, "after-write:1");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->survived, s.reference.out.data);
  EXPECT_EQ(c->lines_survived, 2u);
  EXPECT_EQ(c->lines_lost, 0u);
  EXPECT_TRUE(c->lost.empty());
  EXPECT_EQ(c->torn, "");
}

// _exit skips stdio's flush: the unflushed line is in no run, not even the reference.
TEST(explore, underscore_exit_loses_the_buffer_even_uncut) {
  const explored_sink s = explore_script("line 5; flush; line 5; _exit 0");
  EXPECT_EQ(s.reference.status, wait_status::exited(0));
  EXPECT_EQ(s.reference.out.data, "AAAAA\n");
  EXPECT_EQ(cut_points(s), (std::vector<std::string>{"write:1", "after-write:1"}));
  const explored_cut* before = cut_at(s, "write:1");
  ASSERT_NE(before, nullptr);
  EXPECT_EQ(before->survived, "");
  EXPECT_EQ(before->lines_lost, 1u);
}

/// A script that delivers its first line before its marker, and its two lines.
struct flushed_first {
  const char* script;
  const char* first;
  const char* second;
};

// Line buffering, or a flush, delivers the first line before the marker: a
// cut there loses only the line the script had not written yet.
TEST(explore, a_flush_before_a_marker_loses_nothing_written_before_it) {
  for (const flushed_first& e :
       {flushed_first{"setvbuf line; line 5; marker m1; line 5; exit 0", "BBBBB", "DDDDD"},
        flushed_first{"line 5; flush; marker m1; line 5; exit 0", "AAAAA", "DDDDD"}}) {
    SCOPED_TRACE(e.script);
    const explored_sink s = explore_script(e.script);
    EXPECT_EQ(s.reference.out.data, std::string(e.first) + "\n" + e.second + "\n");
    const explored_cut* c = cut_at(s, "marker:1");
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(c->survived, std::string(e.first) + "\n");
    EXPECT_EQ(c->lines_survived, 1u);
    EXPECT_EQ(c->torn, "");
    EXPECT_EQ(c->lost, std::vector<std::string>{e.second});
  }
}

// A cut crosses from a worker as bytes (explore_wire): every field comes
// back, a marker cut, a write cut with a torn line and lost lines, a fault
// run; bytes cut short or too long throw.
TEST(explore_wire, a_cut_comes_back_as_it_went) {
  explore_options o;
  o.base.argv = {FLUSHCHECK_TARGET_STDIO_SCRIPT, "line 5; marker m1; setvbuf none; line 5; exit 0"};
  o.base.env = clean_environment();
  o.faults = {"EIO"};
  o.derive = false;
  const explored_sink s = explore(o).at(0);
  ASSERT_GT(s.cuts.size(), 3u);
  for (const explored_cut& c : s.cuts) {
    const std::string bytes = encode_cut(c);
    const explored_cut back = decode_cut(bytes);
    EXPECT_EQ(encode_cut(back), bytes);
    EXPECT_EQ(back.cut.text(), c.cut.text());
    EXPECT_EQ(back.fault.has_value(), c.fault.has_value());
    EXPECT_EQ(back.status, c.status);
    EXPECT_EQ(back.lost, c.lost);
    EXPECT_EQ(back.survived, c.survived);
    EXPECT_THROW(decode_cut(bytes.substr(0, bytes.size() - 1)), harness_error);
    EXPECT_THROW(decode_cut(bytes + "x"), harness_error);
  }
}

}  // namespace
}  // namespace flushcheck
