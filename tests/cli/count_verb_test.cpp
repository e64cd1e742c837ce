// `flushcheck count` (and run --trace) as a user runs it: writes per
// destination, short writes retried, every call a copy can use.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "clean_environment.hpp"
#include "cli_checks.hpp"
#include "cli_runner.hpp"
#include "conformance.hpp"
#include "matrix_baseline.hpp"
#include "run.hpp"
#include "run_report.hpp"

namespace flushcheck {
namespace {

// dash's xwrite loops on a short write: with every write cut to one byte,
// "hello\n" takes exactly 6 calls, 6 bytes; the last (1 byte) cannot be
// shortened and says so.
TEST(cli, count_with_short_writes_counts_each_retry) {
  auto r = cli({"count", "--json", "--fault=short:1@every", "--", "/bin/sh", "-c", "echo hello"});
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  auto out = with_role(j["writes"], "stdout");
  EXPECT_EQ(out["calls"], 6);
  EXPECT_EQ(out["bytes"], 6);
  auto events = j["faults"][0]["events"];
  ASSERT_EQ(events.size(), 6u);
  EXPECT_EQ(events[0]["result"], "short: 1 of 6 bytes");
  EXPECT_EQ(events[5]["applied"], false);
}

TEST(cli, count_and_trace_report_writes_per_destination) {
  auto r = cli({"count", "--json", "--", "/bin/sh", "-c", "echo a; echo b; echo c >&2"});
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["kind"], "count");
  EXPECT_EQ(j["schema"], 2);
  EXPECT_EQ(j["exit"]["status"], "exited");
  ASSERT_TRUE(j["writes"].is_array());
  EXPECT_EQ(with_role(j["writes"], "stdout")["calls"], 2);
  EXPECT_EQ(with_role(j["writes"], "stdout")["fd"], 1);
  EXPECT_EQ(with_role(j["writes"], "stderr")["calls"], 1);
  EXPECT_EQ(with_role(j["writes"], "stderr")["fd"], 2);
  EXPECT_EQ(j["totals"]["write"], 3);
  auto t = run_json({"--trace", "--kill=KILL@write:2", "--", "/bin/sh", "-c", "echo a; echo b"});
  EXPECT_EQ(t["stdout"]["data"], "a\n");
  EXPECT_EQ(t["kill"]["when"], "write:2");
  EXPECT_EQ(t["kill"]["delivered"], true);
  // The second was stopped at its entry and never made: apart from the count.
  EXPECT_EQ(with_role(t["writes"], "stdout")["calls"], 1);
  EXPECT_EQ(t["trace"]["stopped"]["call"], "write");
  EXPECT_EQ(t["trace"]["stopped"]["bytes"], 2);
  int write_events = 0;
  for (const auto& e : t["trace"]["events"]) write_events += e[2] == "write";
  EXPECT_EQ(write_events, 2);  // [t_us, pid, call, fd, bytes]: the log has both
  const std::string cut =
      cli({"run", "--kill=KILL@write:2", "--", "/bin/sh", "-c", "echo a; echo b"}).out;
  EXPECT_NE(cut.find("writes:  1 calls made, 2 bytes to "), std::string::npos) << cut;
  EXPECT_NE(cut.find("stopped: write of 2 bytes to "), std::string::npos) << cut;
  EXPECT_NE(cut.find("at its entry (write:2): it never ran"), std::string::npos) << cut;
  auto h = run_json(
      {"--trace", "--", FLUSHCHECK_TARGET_STDIO_SCRIPT, "setvbuf full 1000; putc 2500; exit 0"});
  EXPECT_EQ(with_role(h["writes"], "stdout")["sizes"],
            nlohmann::json({{"256", 1}, {"512", 2}}));  // 500, 2 x 1000
  auto text = cli({"count", "--", "/bin/sh", "-c", "echo a"});
  EXPECT_NE(text.out.find("write"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("(stdout)"), std::string::npos) << text.out;
}

TEST(cli, count_sees_cat_copying_a_file_whatever_call_it_uses) {
  // coreutils 9's cat copies to a regular file with copy_file_range, asking
  // for far more than the file holds: bytes are the calls' results.
  struct stat st {};
  ASSERT_EQ(::stat("/etc/passwd", &st), 0);
  auto r = cli({"count", "--json", "--stdout=file", "--", "cat", "/etc/passwd"});
  ASSERT_EQ(r.code, 0) << r.err;
  auto out = with_role(nlohmann::json::parse(r.out)["writes"], "stdout");
  ASSERT_FALSE(out.is_null()) << r.out;
  EXPECT_GE(out["calls"], 1) << r.out;
  EXPECT_EQ(out["bytes"], st.st_size) << r.out;
  auto cut = run_json({"--stdout=file", "--kill=KILL@write:1", "--", "cat", "/etc/passwd"});
  EXPECT_EQ(cut["kill"]["delivered"], true);
  EXPECT_EQ(cut["exit"]["signal"], "KILL");
  EXPECT_EQ(cut["stdout"]["bytes"], 0);
}

TEST(cli, count_folds_destinations_never_written_unless_all) {
  // python opens and closes many files (modules, locale) that it never writes
  std::vector<std::string> py = {"--", "/usr/bin/python3", "-c", "print('hi')"};
  auto env = clean_environment();
  auto folded = cli({"count", "--stdout=pipe", py[0], py[1], py[2], py[3]}, env);
  auto all = cli({"count", "--all", "--stdout=pipe", py[0], py[1], py[2], py[3]}, env);
  ASSERT_EQ(folded.code, 0) << folded.err;
  auto lines = [](const std::string& s) { return std::count(s.begin(), s.end(), '\n'); };
  EXPECT_NE(folded.out.find("destinations never written to (--all lists them)"), std::string::npos)
      << folded.out;
  EXPECT_NE(folded.out.find("(stdout)"), std::string::npos) << folded.out;
  EXPECT_GT(lines(all.out), lines(folded.out) + 2) << all.out;
  // the total line counts the same calls either way
  EXPECT_EQ(folded.out.substr(folded.out.rfind("\n", folded.out.size() - 2)),
            all.out.substr(all.out.rfind("\n", all.out.size() - 2)));
}

}  // namespace
}  // namespace flushcheck
