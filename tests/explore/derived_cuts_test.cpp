// explore's derived cuts (harness/explore/derived_cuts.hpp): derived cuts
// against cuts run one by one,
// on stdio_script, dash and Python, on a pipe, a pty and a file; a program
// that does not take the same path twice; runs no derivation stands for.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "capture.hpp"
#include "clean_environment.hpp"
#include "derived_cuts.hpp"
#include "explore.hpp"
#include "reference_output.hpp"
#include "sink_kind.hpp"

namespace flushcheck {
namespace {

// What a derived cut keeps of a prefix is what a run's reader keeps of it:
// every policy, prefixes shorter than, equal to and beyond its bytes.
TEST(reference_output, keeps_of_a_prefix_what_a_capture_of_it_keeps) {
  detail::reference_output ref;
  std::string all;
  for (int i = 0; i < 100; ++i) all += std::to_string(i) + (i % 7 ? " " : "\n");
  ref.append(all);
  for (const char* policy : {"all", "none", "head:16", "tail:16", "ends:16", "ends:1K"})
    for (std::size_t size : {0UL, 5UL, 16UL, 31UL, 32UL, 33UL, 100UL, all.size()}) {
      const keep_policy keep = keep_policy::parse(policy);
      capture c(keep);
      c.append(std::string_view(all).substr(0, size));
      EXPECT_EQ(ref.kept(size, keep), c.take_data()) << policy << " of " << size << " bytes";
    }
}

/// ARGV explored on SINK, in the clean environment, every cut keeping all
/// it got; with DERIVE the write cuts derived.
explored_sink explored(const std::vector<std::string>& argv, sink_kind sink, bool derive) {
  explore_options o;
  o.base.argv = argv;
  o.base.env = clean_environment();
  o.sinks = {sink};
  o.keep = keep_policy{keep_policy::kind::all, 0};
  o.derive = derive;
  return explore(o).at(0);
}

/// Every field a report shows of a cut, but whether it was derived.
void expect_same_cut(const explored_cut& derived, const explored_cut& real) {
  SCOPED_TRACE(real.cut.text() + (derived.derived ? " (derived)" : ""));
  EXPECT_EQ(derived.cut.text(), real.cut.text());
  EXPECT_EQ(derived.delivered, real.delivered);
  EXPECT_EQ(derived.status, real.status);
  EXPECT_EQ(derived.survived, real.survived);
  EXPECT_EQ(derived.bytes, real.bytes);
  EXPECT_EQ(derived.lines_survived, real.lines_survived);
  EXPECT_EQ(derived.whole_bytes, real.whole_bytes);
  EXPECT_EQ(derived.lines_lost, real.lines_lost);
  EXPECT_EQ(derived.lost, real.lost);
  EXPECT_EQ(derived.torn, real.torn);
  EXPECT_EQ(derived.prefix, real.prefix);
  EXPECT_EQ(derived.repro, real.repro);
}

struct program {
  const char* name;
  std::vector<std::string> argv;
};

/// Programs that take the same path every run, with writes that tear lines
/// and writes that do not (stdio_script's ops: docs/script.md).
std::vector<program> deterministic_programs() {
  const std::string script = FLUSHCHECK_TARGET_STDIO_SCRIPT;
  return {
      {"unbuffered", {script, "setvbuf none; putc 3; line 2; write 3; newline; exit 0"}},
      {"line buffered", {script, "setvbuf line; line 4; write 2; line 3; line 1; exit 0"}},
      {"an 8-byte buffer", {script, "setvbuf full 8; line 5; line 9; write 3; flush; line 2"}},
      {"synced", {script, "line 3; flush; fsync; line 2; flush; fsync; line 1; exit 0"}},
      {"dash", {"/bin/sh", "-c", "echo a; printf b; echo c; printf 'dd\\ne'; echo"}},
      {"python",
       {"/usr/bin/python3", "-u", "-c",
        "import sys\nfor i in range(6): sys.stdout.write('x' * i + ('\\n' if i % 2 else ''))"}},
  };
}

// What a derived cut says is what the same cut run says, field by field.
TEST(derived_cuts, agree_with_each_cut_run) {
  for (const auto& p : deterministic_programs())
    for (sink_kind sink : {sink_kind::pipe, sink_kind::pty, sink_kind::file}) {
      SCOPED_TRACE(std::string(p.name) + " on " + std::string(to_string(sink)));
      const explored_sink derived = explored(p.argv, sink, true);
      const explored_sink real = explored(p.argv, sink, false);
      ASSERT_EQ(derived.derivation.not_derived, "");
      EXPECT_EQ(derived.derivation.disagreed, "");
      EXPECT_EQ(real.derivation.not_derived, "--derive=off");
      EXPECT_EQ(derived.derivation.derived, derived.cuts.size() - derived.markers);
      EXPECT_GE(derived.derivation.verified, std::min<std::size_t>(2, derived.cuts.size()));
      ASSERT_EQ(derived.cuts.size(), real.cuts.size());
      for (std::size_t i = 0; i < real.cuts.size(); ++i) {
        EXPECT_FALSE(real.cuts[i].derived);
        expect_same_cut(derived.cuts[i], real.cuts[i]);
      }
      const auto n = std::count_if(derived.cuts.begin(), derived.cuts.end(),
                                   [](const explored_cut& c) { return c.derived; });
      EXPECT_EQ(static_cast<std::size_t>(n),
                derived.derivation.derived - derived.derivation.verified);
    }
}

// One write of 8 bytes ("AAAAAAAA"), then "BB\n": the first tears a line.
TEST(derived_cuts, count_the_cuts_that_tear_a_line) {
  const explored_sink s =
      explored({FLUSHCHECK_TARGET_STDIO_SCRIPT, "setvbuf none; write 8; line 2; exit 0"},
               sink_kind::pipe, true);
  EXPECT_EQ(s.writes, 2);
  EXPECT_EQ(s.derivation.derived, 3u);  // write:1, write:2, after-write:2
  EXPECT_EQ(s.derivation.torn, 1u);     // write:2: AAAAAAAA, no newline
}

/// A counter file in TMPDIR, holding 0: each run of counting_program adds one.
struct counter_file {
  std::string path = std::string(P_tmpdir) + "/flushcheck-derived-XXXXXX";
  counter_file() {
    const int fd = ::mkstemp(path.data());
    if (fd < 0 || ::write(fd, "0\n", 2) != 2) ADD_FAILURE() << "mkstemp " << path;
    if (fd >= 0) ::close(fd);
  }
  ~counter_file() { ::unlink(path.c_str()); }
};

// The same writes every run, but other bytes: each run prints its own number.
TEST(derived_cuts, a_program_that_differs_between_runs_is_said_so_and_every_cut_runs) {
  const counter_file counter;
  const explored_sink s = explored(
      {"/bin/sh", "-c",
       "read n < \"$0\"; n=$((n + 1)); echo $n > \"$0\"; for i in 1 2 3; do echo \"run $n line "
       "$i\"; done",
       counter.path},
      sink_kind::pipe, true);
  EXPECT_EQ(s.derivation.not_derived, "");
  EXPECT_NE(s.derivation.disagreed, "") << "each run's lines differ";
  EXPECT_EQ(s.cuts.size(), 4u);  // write:1..3, after-write:3
  for (const auto& c : s.cuts) EXPECT_FALSE(c.derived) << c.cut.text();
  EXPECT_NE(to_text({s}).find("not deterministic: "), std::string::npos) << to_text({s});
}

// Two threads write: a cut's bytes depend on how they interleave.
TEST(derived_cuts, none_when_more_than_one_thread_runs) {
  const explored_sink s =
      explored({FLUSHCHECK_TARGET_STDIO_SCRIPT, "threads 2; line 3; flush; return 0"},
               sink_kind::pipe, true);
  EXPECT_NE(s.derivation.not_derived.find("processes and threads"), std::string::npos)
      << s.derivation.not_derived;
  EXPECT_EQ(s.derivation.derived, 0u);
  for (const auto& c : s.cuts) EXPECT_FALSE(c.derived) << c.cut.text();
}

// A cooked terminal writes "\r\n" for "\n": the reader gets more than the writes.
TEST(derived_cuts, none_when_the_writes_do_not_add_up_to_the_output) {
  const explored_sink s =
      explored({FLUSHCHECK_TARGET_STDIO_SCRIPT, "setvbuf none; line 3; line 2; exit 0"},
               sink_kind::pty_cooked, true);
  EXPECT_NE(s.derivation.not_derived.find("add up to 7 bytes and the reader got 9"),
            std::string::npos)
      << s.derivation.not_derived;
  EXPECT_EQ(s.cuts.size(), 3u);
  for (const auto& c : s.cuts) EXPECT_FALSE(c.derived) << c.cut.text();
}

// A TERM cut may run a handler: never derived, KILL's are beside it.
TEST(derived_cuts, only_kill_cuts_are_derived) {
  explore_options o;
  o.base.argv = {FLUSHCHECK_TARGET_STDIO_SCRIPT, "setvbuf none; line 1; line 1; line 1; exit 0"};
  o.base.env = clean_environment();
  o.signals = {SIGKILL, SIGTERM};
  const explored_sink s = explore(o).at(0);
  EXPECT_EQ(s.derivation.derived, 4u);
  for (const auto& c : s.cuts)
    if (c.cut.signal == SIGTERM) {
      EXPECT_FALSE(c.derived) << c.cut.text();
    }
}

}  // namespace
}  // namespace flushcheck
