// `flushcheck explore` as a user runs it: memory bounded whatever the output and
// the cuts, survivors at every cut, markers, workers, fsync and faults.
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

// explore on a program no one here wrote: Python printing lines. On a pty
// each print is one write, so a cut at the entry of write k keeps exactly
// the k-1 lines before it; to a pipe or file the lines go out in one write
// at exit, so a cut keeps all or nothing.
// explore's memory does not grow with the output times the cuts: the
// reference is spooled to a file, each cut compared with it as it arrives,
// and a cut keeps what --keep says (ends:4K). 30 cuts of a 6 MB output (300
// lines of 20,000 bytes) under a 300 MB address-space limit: before, every
// cut's whole output and lost lines were held (exit 4 under the limit).
// Each cut run (--derive=off), and derived (all 301 of them, the 30 shown
// and those run to check them kept).
TEST(cli, explore_memory_stays_bounded_whatever_the_output_and_the_cuts) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "ASan reserves terabytes of address space: no limit can be set on it";
#endif
  const std::string prog =
      "import sys\nfor i in range(300):\n    sys.stdout.write('x' * 19999 + '\\n'); "
      "sys.stdout.flush()";
  for (const char* derive : {"--derive=off", "--derive=on"}) {
    SCOPED_TRACE(derive);
    run_options o;
    o.argv = {"/bin/sh",
              "-c",
              "ulimit -v 300000; exec \"$0\" explore --json --max-cuts=30 \"$2\" -- python3 -c "
              "\"$1\"",
              FLUSHCHECK_TARGET_FLUSHCHECK,
              prog,
              derive};
    o.env = clean_environment();
    o.timeout = std::chrono::milliseconds(110000);
    const auto obs = run(o);
    ASSERT_EQ(obs.status, wait_status::exited(0)) << obs.err.data;
    const auto j = nlohmann::json::parse(obs.out.data);
    const auto& sink = j["runs"][0];
    EXPECT_EQ(sink["reference"]["bytes"], 300 * 20000);
    EXPECT_EQ(sink["reference"]["lines"], 300);
    EXPECT_EQ(sink["derivation"]["derived"], derive == std::string("--derive=on") ? 301 : 0);
    ASSERT_GE(sink["cuts"].size(), 30u);
    ASSERT_LE(sink["cuts"].size(), 60u);
    for (const auto& c : sink["cuts"]) {
      EXPECT_LE(c["survived"].get<std::string>().size(), 8192u) << c["cut"];
      EXPECT_EQ(c["lines"].get<int>() + c["lines_lost"].get<int>(), 300) << c["cut"];
      EXPECT_LE(c["lost"].size(), 1u) << "a 20,000-byte line fills 4 KiB" << c["cut"];
      EXPECT_EQ(c["bytes"], c["lines"].get<int>() * 20000) << c["cut"];
    }
  }
}

// 30 MiB without a newline, a fault at each write: each fault run kept its
// one lost line whole and matched copies of every line (1.3 GB; 100 MiB was
// std::bad_alloc under a 6 GB limit; later, with views, 1 GiB took 2.2 GB).
// A fault run now keeps what --keep holds and matches lines by key as they
// arrive (detail::line_match): 1 GiB in 125 MB.
TEST(cli, explore_faults_on_output_without_newlines_stay_bounded) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "ASan reserves terabytes of address space: no limit can be set on it";
#endif
  run_options o;
  o.argv = {"/bin/sh", "-c",
            "ulimit -v 400000; exec \"$0\" explore --json --faults=EAGAIN -- dd if=/dev/zero "
            "bs=1M count=30 status=none",
            FLUSHCHECK_TARGET_FLUSHCHECK};
  o.env = clean_environment();
  o.timeout = std::chrono::milliseconds(110000);
  const auto obs = run(o);
  ASSERT_EQ(obs.status, wait_status::exited(0)) << obs.err.data;
  const auto j = nlohmann::json::parse(obs.out.data);
  const auto& cuts = j["runs"][0]["cuts"];
  ASSERT_GE(cuts.size(), 30u);
  for (const auto& c : cuts) {
    EXPECT_EQ(c["lines_lost"], 1) << c["cut"];
    ASSERT_EQ(c["lost"].size(), 1u) << c["cut"];
    EXPECT_EQ(c["lost"][0].get<std::string>().size(), 4096u) << "ends:4K: " << c["cut"];
    EXPECT_LE(c["torn"].get<std::string>().size(), 8192u) << c["cut"];
  }
}

TEST(cli, explore_python_survivors_at_every_cut) {
  const std::string prog = "for i in range(4): print('line', i)";
  auto r = cli({"explore", "--json", "--stdout=pty,pipe,file", "--signal=KILL,TERM", "--",
                "/usr/bin/python3", "-c", prog});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["runs"].size(), 3u);
  const std::vector<std::string> lines{"line 0", "line 1", "line 2", "line 3"};
  for (const auto& run : j["runs"]) {
    SCOPED_TRACE(run["stdout"].get<std::string>());
    const bool tty = run["stdout"] == "pty";
    EXPECT_EQ(run["reference"]["lines"], 4);
    EXPECT_EQ(run["reference"]["writes"], tty ? 4 : 1);
    EXPECT_EQ(run["sampled"], false);
    EXPECT_EQ(run["cuts"].size(), tty ? 10u : 4u);  // (writes + 1) x 2 signals
    for (const auto& c : run["cuts"]) {
      const std::string cut = c["cut"];
      SCOPED_TRACE(cut + " " + c["signal"].get<std::string>());
      const long n = std::stol(cut.substr(cut.find(':') + 1));
      const std::size_t kept = cut.rfind("after-write", 0) == 0 ? lines.size() : n - 1;
      EXPECT_EQ(c["delivered"], true);
      EXPECT_EQ(c["exit"]["signal"], c["signal"]);
      EXPECT_EQ(c["lines"], kept);
      EXPECT_EQ(c["lost"].size(), lines.size() - kept);
      if (kept < lines.size()) {
        EXPECT_EQ(c["lost"][0], lines[kept]);
      }
      EXPECT_EQ(c["torn"], "");
      EXPECT_EQ(c["prefix"], true);
    }
  }
}

TEST(cli, explore_cuts_at_markers_and_samples_when_asked) {
  auto r = cli({"explore", "--json", "--", FLUSHCHECK_TARGET_STDIO_SCRIPT,
                "line 2; marker a; line 3; flush; marker b; setvbuf none; write 1"});
  ASSERT_EQ(r.code, 0) << r.err;
  auto cuts = nlohmann::json::parse(r.out)["runs"][0]["cuts"];
  ASSERT_GE(cuts.size(), 2u);
  EXPECT_EQ(cuts[0]["cut"], "marker:1");
  EXPECT_EQ(cuts[0]["lines"], 0);  // fully buffered to a pipe: nothing yet
  EXPECT_EQ(cuts[1]["cut"], "marker:2");
  EXPECT_EQ(cuts[1]["lines"], 2);  // flushed before the marker
  auto many = cli({"explore", "--json", "--max-cuts=3", "--", "/bin/sh", "-c",
                   "for i in 1 2 3 4 5 6 7 8; do echo $i; done"});
  ASSERT_EQ(many.code, 0) << many.err;
  auto run = nlohmann::json::parse(many.out)["runs"][0];
  EXPECT_EQ(run["sampled"], true);
  EXPECT_EQ(run["cuts_total"], 9);
  EXPECT_EQ(run["cuts"].size(), 3u);
  EXPECT_EQ(run["cuts"][0]["cut"], "write:1");
  EXPECT_EQ(run["cuts"][2]["cut"], "after-write:8");
  EXPECT_EQ(cli({"explore", "--max-cuts=3", "--", "/bin/true"}).code, 0);
  expect_one_line_error(cli({"explore", "--stdout=tape", "--", "/bin/true"}), 2, "--stdout=tape");
  expect_one_line_error(cli({"explore", "--signal=NOPE", "--", "/bin/true"}), 2, "NOPE");
  expect_one_line_error(cli({"explore", "--", "/nonexistent/prog"}), 3, "/nonexistent/prog");
}

// --jobs: the cuts run for real (every one, the checks of derived ones,
// faults) go to workers and are taken in plan order: each cut as one
// worker has it, derived or run.
TEST(cli, explore_on_four_workers_has_the_cuts_of_one) {
  const std::string script = "setvbuf line; line 3; flush; setvbuf none; write 40; line 2";
  for (const std::string how : {"--derive=on", "--derive=off", "--faults=EIO"}) {
    std::string cuts[2];
    for (int k = 0; k < 2; ++k) {
      const auto r = cli({"explore", "--json", "--stdout=pipe,file", "--jobs", k == 0 ? "1" : "4",
                          how, "--", FLUSHCHECK_TARGET_STDIO_SCRIPT, script});
      ASSERT_EQ(r.code, 0) << how << r.err;
      const auto j = nlohmann::json::parse(r.out);
      nlohmann::json kept = nlohmann::json::array();
      for (const auto& run : j["runs"])
        kept.push_back({run["cuts_total"], run["derivation"], run["cuts"]});
      cuts[k] = kept.dump(1);
    }
    EXPECT_EQ(cuts[0], cuts[1]) << how;
    EXPECT_GT(cuts[0].size(), 1000U) << how;
  }
}

// A write a sync follows gets a cut of its own, between the write and the
// fsync: there the line is in the file (the page cache), its fsync not yet made.
TEST(cli, explore_cuts_between_a_write_and_its_fsync) {
  auto r = cli({"explore", "--json", "--stdout=file", "--", FLUSHCHECK_TARGET_STDIO_SCRIPT,
                "line 3; flush; fsync; line 3; flush; fsync; line 2; exit 0"});
  ASSERT_EQ(r.code, 0) << r.err;
  auto run = nlohmann::json::parse(r.out)["runs"][0];
  EXPECT_EQ(run["reference"]["writes"], 3);
  EXPECT_EQ(run["reference"]["syncs"], 2);
  std::vector<std::string> cuts;
  for (const auto& c : run["cuts"]) cuts.push_back(c["cut"]);
  EXPECT_EQ(cuts, (std::vector<std::string>{"write:1", "after-write:1", "write:2", "after-write:2",
                                            "write:3", "after-write:3"}));
  EXPECT_EQ(run["cuts"][1]["lines"], 1);  // AAA\n written, its fsync not made: it survives
  EXPECT_EQ(run["cuts"][3]["lines"], 2);
  auto text = cli({"explore", "--stdout=file", "--", FLUSHCHECK_TARGET_STDIO_SCRIPT,
                   "line 1; flush; fsync; line 1; exit 0"});
  EXPECT_NE(text.out.find("stdout's file was synced 1 time:"), std::string::npos) << text.out;
}

// dash writes each echo at once and completes a short write (xwrite loops):
// an EAGAIN loses that line alone, a short write nothing.
TEST(cli, explore_faults_at_every_write_lists_the_lines_each_loses) {
  auto r = cli(
      {"explore", "--json", "--faults=EAGAIN,short:1", "--", "/bin/sh", "-c", "echo a; echo b"});
  ASSERT_EQ(r.code, 0) << r.err;
  auto run = nlohmann::json::parse(r.out)["runs"][0];
  ASSERT_EQ(run["cuts"].size(), 4u) << r.out;  // 2 writes x 2 faults, no signal cuts
  EXPECT_EQ(run["cuts"][0]["fault"], "EAGAIN@write:1");
  EXPECT_EQ(run["cuts"][0]["lost"], nlohmann::json::array({"a"}));
  EXPECT_EQ(run["cuts"][0]["prefix"], false);  // "b" arrived after the gap
  EXPECT_EQ(run["cuts"][1]["lost"], nlohmann::json::array({"b"}));
  EXPECT_EQ(run["cuts"][2]["fault"], "short:1@write:1");
  EXPECT_EQ(run["cuts"][2]["lost"], nlohmann::json::array());
  EXPECT_EQ(run["cuts"][3]["lines"], 2);
  expect_one_line_error(cli({"explore", "--faults=EAGAN", "--", "/bin/true"}), 2,
                        "--faults=EAGAN: unknown errno");
}

// glibc, fully buffered on a pipe (st_blksize 4096): 1,000 six-byte lines
// leave in two writes. EAGAIN at the first loses its 682 lines and the line
// it cut (whose tail fwrite then refuses); at the second, the reader keeps
// 682 whole lines and the torn head of the next.
TEST(cli, explore_faults_on_a_buffered_stream_lose_whole_blocks) {
  std::string script;
  for (int i = 0; i < 1000; ++i) script += "line 5; ";
  auto r = cli({"explore", "--json", "--faults=EAGAIN", "--", FLUSHCHECK_TARGET_STDIO_SCRIPT,
                script + "exit 0"});
  ASSERT_EQ(r.code, 0) << r.err;
  auto cuts = nlohmann::json::parse(r.out)["runs"][0]["cuts"];
  ASSERT_EQ(cuts.size(), 2u) << r.out;
  EXPECT_EQ(cuts[0]["lost"].size(), 683u);
  EXPECT_EQ(cuts[0]["lines"], 317);
  EXPECT_EQ(cuts[0]["torn"], "");
  EXPECT_EQ(cuts[1]["lines"], 682);
  EXPECT_EQ(cuts[1]["torn"], "AAAA");
  EXPECT_EQ(cuts[1]["lost"].size(), 318u);
}

}  // namespace
}  // namespace flushcheck
