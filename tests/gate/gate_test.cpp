// The gate API's checks on real runs: the threaded mode of no_torn_record
// and records_each_once, each shown to fail where it must.
#include <gtest/gtest.h>

#include <algorithm>

#include "error.hpp"
#include "gate.hpp"

namespace flushcheck {
namespace {

// Two threads print a line each in two putc calls with 200 ms between them:
// the second thread's first half lands inside the first thread's line, on
// every run. Both lines are torn, and the check says so. (The test asserted
// one order of the second halves until a CI run saw the other.)
TEST(gate_checks, threaded_no_torn_record_catches_interleaved_lines) {
  auto torn =
      gate_run({FLUSHCHECK_TARGET_STDIO_SCRIPT, "threads 2; putc 5; sleep 200; putc 5; newline"})
          .untraced()
          .run();
  // Payload letters of ops 1 and 3 (from 0): both threads' B's come first
  // (the sleep parts them from the D's); how the D's and the two newlines
  // interleave after it is the scheduler's ("BBBBBBBBBBDDDDD\nDDDDD\n",
  // "BBBBBBBBBBDDDDDDDDDD\n\n", ...): every order tears both lines.
  const std::string& out = torn.obs.out.data;
  ASSERT_EQ(out.size(), 22u) << torn;
  EXPECT_EQ(out.substr(0, 10), "BBBBBBBBBB") << torn;
  EXPECT_EQ(std::count(out.begin(), out.end(), 'D'), 10) << torn;
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 2) << torn;
  EXPECT_EQ(out.back(), '\n') << torn;
  const auto check = no_torn_record(torn.obs.out.data, "B{5}D{5}");
  EXPECT_FALSE(check) << torn;
  EXPECT_NE(check.why.find("2 of 2 lines torn"), std::string::npos) << check;
  auto whole = gate_run({FLUSHCHECK_TARGET_STDIO_SCRIPT, "threads 2; line 9"}).untraced().run();
  EXPECT_TRUE(no_torn_record(whole.obs.out.data, "B{9}")) << whole;
  EXPECT_EQ(whole.files.size(), 0u);
  EXPECT_EQ(whole.stdout_writes(), 0);  // untraced: no count
  EXPECT_FALSE(no_torn_record("BBBBBBBBB\nBBB", "B{9}")) << "the last line has no newline";
  EXPECT_THROW(no_torn_record("x\n", "(unclosed"), usage_error);
}

TEST(gate_checks, records_each_once_in_any_order) {
  EXPECT_TRUE(records_each_once("rec 2\nrec 0\nrec 1\n", 3));
  const auto missing = records_each_once("rec 2\nrec 0\nrec 0\nrec 7\n", 3);
  EXPECT_FALSE(missing);
  EXPECT_NE(missing.why.find("missing [1], twice [0], not logged [7]"), std::string::npos)
      << missing;
  EXPECT_FALSE(records_each_once("rec 0\nrec 1\nrec 2\nrec 3\n", 3)) << "one more than logged";
}

}  // namespace
}  // namespace flushcheck
