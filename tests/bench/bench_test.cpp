// `flushcheck bench`: the --quick run of every suite, as ctest's default run
// does it so that the verb does not rot; its JSON (exact write counts), its
// HTML page in headless Chromium, --compare on a real run, and bad input.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>

#include "cli_runner.hpp"

namespace flushcheck {
namespace {

using json = nlohmann::json;

std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

// NAME as a pointer, not a std::string: a reference returned from a call
// with a temporary argument is what GCC 14's -Wdangling-reference flags.
const json& suite(const json& report, const char* name) {
  for (const auto& s : report["suites"])
    if (s["name"] == name) return s;
  throw std::runtime_error(std::string("no suite ") + name);
}

const json& row(const json& s, const char* name) {
  for (const auto& r : s["rows"])
    if (r["name"] == name) return r;
  throw std::runtime_error(std::string("no row ") + name);
}

std::int64_t writes(const json& s, const std::string& name) {
  return row(s, name.c_str())["write_calls"].get<std::int64_t>();
}

/// Whether OUT (`count`'s table) has the row of N writes to all destinations.
bool counts_writes(const std::string& out, long n) {
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string calls, call, fds;
    if (words >> calls >> call >> fds && calls == std::to_string(n) && call == "write" &&
        fds == "*")
      return true;
  }
  return false;
}

/// A backend row's repro line is `count` with that backend, and pasted
/// into a shell it counts what the row counted (`run` counts with ptrace only).
void expect_repro_counts(const json& r, const char* backend) {
  const std::string line = r["repro"];
  EXPECT_NE(line.find(std::string(" count --backend=") + backend + " "), std::string::npos) << line;
  const auto obs = pasted(line, std::chrono::seconds(60));
  EXPECT_EQ(obs.status, wait_status::exited(0)) << line << "\n" << obs.err.data;
  EXPECT_TRUE(counts_writes(obs.out.data, r["write_calls"].get<long>())) << line << "\n"
                                                                         << obs.out.data;
}

/// The --quick sizes' exact counts (bench_suite_*.cpp): 20,000 putc,
/// 10,000 lines, one write per pipe block and per file block.
void expect_exact_counts(const json& j) {
  const json& stdio = suite(j, "stdio");
  EXPECT_EQ(writes(stdio, "putc none file [default]"), 20000);
  EXPECT_EQ(writes(stdio, "putc none pipe [default]"), 20000);
  EXPECT_EQ(writes(stdio, "fwrite1 none file [default]"), 20000);
  for (long size : {4096L, 16384L, 65536L}) {
    std::string name = "putc full " + std::to_string(size / 1024) + " KiB file [default]";
    EXPECT_EQ(writes(stdio, name), (20000 + size - 1) / size) << name;
  }
  EXPECT_EQ(writes(stdio, "putc full 1 MiB file [default]"), 1);
  const json& ios = suite(j, "iostream");
  EXPECT_EQ(writes(ios, "endl ofstream file [default]"), 10000);
  EXPECT_EQ(writes(ios, "'\\n' + flush/100 ofstream file [default]"), 100);
  EXPECT_EQ(writes(ios, "tied cin file [default]"), 2000);
  int checked = 0;
  for (const auto& r : suite(j, "pipe")["rows"]) {
    if (r["series"] != "ping-pong" && r["skipped"] == "") {
      EXPECT_EQ(r["write_calls"], r["ops"]) << r["name"];
      ++checked;
    }
  }
  EXPECT_GE(checked, 10);  // one CPU's rows at least (two CPUs' skip on a one-CPU machine)
  checked = 0;
  for (const auto& r : suite(j, "pagecache")["rows"]) {
    if (r["name"].get<std::string>().rfind("write buffered", 0) == 0) {
      EXPECT_EQ(r["write_calls"], r["ops"]) << r["name"];
      ++checked;
    }
  }
  EXPECT_EQ(checked, 3);
  const json& tracer = suite(j, "tracer");
  EXPECT_EQ(writes(tracer, "(a) unbuffered putc: flushcheck tracer"), 20000);
  // The eBPF backend and bpftrace, where they run (as root, bpftrace
  // installed): each counts every write of every run, or its row says why not.
  for (const auto& r : tracer["rows"]) {
    const std::string name = r["name"];
    if (name.rfind("(a) unbuffered putc: eBPF", 0) != 0 && name != "(a) unbuffered putc: bpftrace")
      continue;
    if (name.find("eBPF floor") != std::string::npos) continue;    // empty programs count nothing
    if (r["skipped"] != "" && !r["failed"].get<bool>()) continue;  // said why
    EXPECT_FALSE(r["failed"].get<bool>()) << r.dump();
    EXPECT_EQ(r["write_calls"], 20000) << name;
    if (name == "(a) unbuffered putc: eBPF backend") expect_repro_counts(r, "bpf");
  }
  for (const auto& r : tracer["rows"])
    if (r["name"] == "(a) unbuffered putc: perf backend" && r["skipped"] == "")
      expect_repro_counts(r, "perf");
}

#if defined(__SANITIZE_ADDRESS__)
constexpr bool k_sanitized = true;  // shadow memory: RSS is no figure of the harness's
#else
constexpr bool k_sanitized = false;
#endif

/// Every mechanism claim (counts, residency) holds, but the page cache's on
/// tmpfs, where its rows are skipped and say why; and every memory claim
/// (capture's peak RSS, by wait4: no timing), but in a sanitized build.
void expect_mechanisms_hold(const json& j) {
  for (const auto& s : j["suites"]) {
    bool tmpfs = s["name"] == "pagecache" && s["notes"].dump().find("(tmpfs)") != std::string::npos;
    for (const auto& c : s["claims"])
      if ((c["kind"] == "mechanism" && !tmpfs) || (c["kind"] == "memory" && !k_sanitized)) {
        EXPECT_TRUE(c["holds"].get<bool>()) << c.dump();
      }
  }
}

/// Every row measured with its times in order, or skipped with a reason;
/// every suite has its claims; no row failed.
void expect_whole_rows(const json& j) {
  ASSERT_EQ(j["suites"].size(), 8u);
  for (const auto& s : j["suites"]) {
    EXPECT_FALSE(s["claims"].empty()) << s["name"];
    for (const auto& r : s["rows"]) {
      EXPECT_FALSE(r["failed"].get<bool>()) << r["name"] << ": " << r["skipped"];
      if (r["skipped"] != "") continue;
      const std::string name = r["name"];
      // --repeat 1; the tracer's /bin/true rows take 10 rounds per repetition,
      // but strace's, timed in the first round only under --quick
      const bool ten = name.rfind("(c)", 0) == 0 && name.find("strace") == std::string::npos;
      EXPECT_EQ(r["seconds"].size(), ten ? 10u : 1u) << name;
      EXPECT_GT(r["median"].get<double>(), 0) << name;
      if (name.find("bare ptrace loop") == std::string::npos) {  // a loop in flushcheck itself
        const std::string line = r["repro"];  // `count` for another backend than ptrace
        const bool runs = line.find("flushcheck run ") != std::string::npos ||
                          line.find("flushcheck count --backend=") != std::string::npos;
        EXPECT_TRUE(runs) << name << ": " << line;
      }
    }
  }
}

TEST(bench, quick_run_of_every_suite_reports_exact_counts_json_and_a_page) {
  const std::string js = test_path("bench.json"), page = test_path("bench.html");
  const std::string md = test_path("bench.md");
  auto r =
      cli({"bench", "--quick", "--repeat", "1", "--json", js, "--html", page, "--markdown", md});
  ASSERT_EQ(r.code, 0) << r.err << r.out;  // stderr first: its one line says which row failed
  EXPECT_NE(r.out.find("seed claims on this machine:"), std::string::npos) << r.out;
  json j = json::parse(slurp(js));
  EXPECT_EQ(j["kind"], "bench");
  EXPECT_EQ(j["schema"], 2);
  EXPECT_TRUE(j["quick"].get<bool>());
  expect_whole_rows(j);
  expect_exact_counts(j);
  expect_mechanisms_hold(j);
  EXPECT_NE(slurp(md).find("![pipe throughput by block size](bench/pipe-0.svg)"),
            std::string::npos);
  EXPECT_NE(slurp(test_path("bench/pipe-0.svg")).find("<svg"), std::string::npos);
  std::string html = slurp(page);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("src="), std::string::npos);  // self-contained: nothing fetched
  auto dom = headless_dom(page);
  if (!dom) GTEST_SKIP() << "chromium not installed (ci/setup installs Debian's chromium)";
  std::size_t plots = 0;
  for (const auto& s : j["suites"]) plots += s["plots"].size();
  EXPECT_EQ(occurrences(*dom, "<svg"), plots);
  EXPECT_NE(dom->find("id=\"suite-pipe\""), std::string::npos);
  // the plots are labelled: axes with their units, a legend entry per line
  EXPECT_NE(dom->find(">block size (bytes)</text>"), std::string::npos);
  EXPECT_NE(dom->find(">throughput (MB/s)</text>"), std::string::npos);
  EXPECT_NE(dom->find(">one CPU, 64 KiB pipe</text>"), std::string::npos);
}

/// The musl set (when built) on the sweep: its own arithmetic (S - 7 bytes a
/// write; a buffer under 8 bytes ignored for its 1 KiB one), exact; and the
/// kernel suites run the default set's programs whatever --toolchain says.
TEST(bench, musl_sweep_counts_and_kernel_suites_with_another_toolchain) {
  if (std::string(FLUSHCHECK_MUSL_STDIO_SCRIPT).empty())
    GTEST_SKIP() << "musl not built (musl-tools)";
  const std::string js = test_path("musl.json");
  auto r = cli(
      {"bench", "stdio", "pipe", "--toolchain", "musl", "--quick", "--repeat", "1", "--json", js});
  ASSERT_EQ(r.code, 0) << r.err << r.out;  // stderr first: its one line says which row failed
  json j = json::parse(slurp(js));
  const json& stdio = suite(j, "stdio");
  EXPECT_EQ(writes(stdio, "putc full 16 B file [musl]"), 2223);  // ceil(20000 / 9)
  EXPECT_EQ(writes(stdio, "putc full 4 B file [musl]"), 20);     // ceil(20000 / 1025)
  EXPECT_EQ(writes(stdio, "putc full 64 B file [musl]"), 351);   // ceil(20000 / 57); glibc 313
  expect_mechanisms_hold(j);
  EXPECT_EQ(row(suite(j, "pipe"), "4 KiB blocks, one CPU, 64 KiB pipe")["skipped"], "");
}

/// A saved report with one write count and one ratio changed, compared with
/// a fresh run of the same suite: exactly those rows move. The ratio is made a
/// million times larger and the threshold is 1000x, so that no row of a
/// --quick run (whose baseline is ~200 us, and moves severalfold beside
/// another test) moves by itself.
TEST(bench, compare_flags_a_changed_write_count_and_a_moved_ratio) {
  const std::string saved = test_path("saved.json");
  const auto made = cli({"bench", "stdio", "--quick", "--repeat", "1", "--json", saved});
  ASSERT_EQ(made.code, 0) << made.err;
  json j = json::parse(slurp(saved));
  for (auto& r : j["suites"][0]["rows"]) {
    if (r["name"] == "putc full 4 KiB file [default]") r["write_calls"] = 7;
    if (r["name"] == "putc none file [default]") r["ratio"] = r["ratio"].get<double>() * 1e6;
  }
  std::ofstream(saved) << j.dump();
  auto c = cli(
      {"bench", "stdio", "--quick", "--repeat", "1", "--compare", saved, "--threshold", "1000"});
  EXPECT_EQ(c.code, 1) << c.out << c.err;
  EXPECT_NE(c.out.find(" rows compared, 2 moved\n"), std::string::npos) << c.out;
  EXPECT_EQ(occurrences(c.out, "  MOVED "), 2u) << c.out;
  EXPECT_NE(c.out.find("MOVED stdio: putc full 4 KiB file [default]: write calls 7 -> 5"),
            std::string::npos)
      << c.out;
  EXPECT_NE(c.out.find("MOVED stdio: putc none file [default]: ratio"), std::string::npos);
}

/// Python's logging (a program no one here wrote) as the program suite:
/// StreamHandler flushes each record, so one write per record on a file and
/// on a pipe, exactly; the reference's 20,000 bytes of fwrite lines are 5
/// writes of glibc's 4 KiB buffer (st_blksize) on both.
TEST(bench, program_suite_measures_a_logging_program_per_record) {
  const std::string py = test_path("log_bench.py"), js = test_path("program.json");
  std::ofstream(py) << "import logging, sys, time\n"
                       "n = 2000\n"
                       "log = logging.getLogger('b')\n"
                       "log.addHandler(logging.StreamHandler(sys.stdout))\n"
                       "log.setLevel(logging.INFO)\n"
                       "t = time.monotonic_ns()\n"
                       "for i in range(n): log.info('record %d', i)\n"
                       "t = time.monotonic_ns() - t\n"
                       "sys.stderr.write(f'bench ns={t} ops={n}\\n')\n";
  auto r = cli({"bench", "--program", "python3 " + py, "program", "--repeat", "1", "--json", js});
  ASSERT_EQ(r.code, 0) << r.err << r.out;  // stderr first: its one line says which row failed
  const json report = json::parse(slurp(js));
  const json& s = suite(report, "program");
  for (const char* sink : {"file", "pipe"}) {
    const json& row_ = row(s, (std::string("program ") + sink).c_str());
    EXPECT_EQ(row_["ops"], 2000) << sink;
    EXPECT_EQ(row_["write_calls"], 2000) << sink;
    EXPECT_EQ(row_["values"]["writes_per_op"], 1.0) << sink;
    EXPECT_GT(row_["values"]["ns_per_op"].get<double>(), 0) << sink;
    EXPECT_GT(row_["ratio"].get<double>(), 0) << sink;  // per record, over the reference's
    EXPECT_EQ(writes(s, std::string("reference: 2000 fwrite lines ") + sink), 5) << sink;
  }
  EXPECT_EQ(s["baseline"], "reference: 2000 fwrite lines file");
}

/// A program that fails (a Python exception): its rows are FAILED with the
/// exception's line, the bench exits 4, and a saved report at the --json
/// path is left as it was (the report goes to FILE.tmp, renamed on success).
TEST(bench, a_failing_program_fails_the_bench_and_keeps_a_saved_report) {
  const std::string py = test_path("fails.py"), kept = test_path("kept.json");
  std::ofstream(py) << "1 / 0\n";
  std::ofstream(kept) << "saved";
  auto r = cli({"bench", "program", "--program", "python3 " + py, "--repeat", "1", "--json", kept});
  EXPECT_EQ(r.code, 4) << r.out << r.err;
  EXPECT_NE(r.out.find("program file: FAILED: the program exited 1: ZeroDivisionError"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(slurp(kept), "saved");
  EXPECT_FALSE(std::ifstream(kept + ".tmp").good());
}

/// A program's bench line is range-checked like every other number: ops
/// beyond what a count holds, ns infinite or beyond a double are FAILED rows.
TEST(bench, a_bench_line_out_of_range_fails_its_row) {
  for (const char* line :
       {"ns=1000 ops=99999999999999999999", "ns=inf ops=1", "ns=1e400 ops=1", "ns=1000 ops=2.5"}) {
    auto r = cli({"bench", "program", "--program",
                  std::string("sh -c 'echo bench ") + line + " >&2'", "--repeat", "1"});
    EXPECT_EQ(r.code, 4) << line << "\n" << r.out << r.err;
    EXPECT_NE(r.out.find("FAILED: the program's bench line says "), std::string::npos)
        << line << "\n"
        << r.out;
  }
}

/// --timeout bounds each run of a program that never ends: its rows FAIL
/// (killed at the deadline) instead of waiting two minutes each.
TEST(bench, a_program_that_never_ends_meets_the_timeout) {
  auto r = cli({"bench", "program", "--program", "sleep 3600", "--repeat", "1", "--timeout=300"});
  EXPECT_EQ(r.code, 4) << r.out << r.err;
  EXPECT_NE(r.out.find("program file: FAILED: the program timed out"), std::string::npos) << r.out;
  // the one line on stderr names the row and why
  EXPECT_NE(r.err.find("flushcheck: a bench program failed: program file: the program timed out"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

/// --compare refuses, before running, a saved report of other sizes or of
/// suites not run now.
TEST(bench, compare_refuses_other_sizes_and_other_suites) {
  const std::string saved = test_path("quick.json");
  const auto made = cli({"bench", "tracer", "--quick", "--repeat", "1", "--json", saved});
  ASSERT_EQ(made.code, 0) << made.err;  // its one line names the row that failed
  auto sizes = cli({"bench", "tracer", "--compare", saved});
  EXPECT_EQ(sizes.code, 2) << sizes.out << sizes.err;
  EXPECT_NE(sizes.err.find("saved with --quick, and this run is without it"), std::string::npos);
  EXPECT_EQ(sizes.out, "");
  auto other = cli({"bench", "pipe", "--quick", "--compare", saved});
  EXPECT_EQ(other.code, 2) << other.err;
  EXPECT_NE(other.err.find("none of its suites is run now"), std::string::npos);
  EXPECT_EQ(other.out, "");
}

/// One line on stderr, exit 2, and nothing measured first.
void expect_usage_error(const std::vector<std::string>& args, const std::string& says) {
  auto r = cli(args);
  EXPECT_EQ(r.code, 2) << r.out << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find(says), std::string::npos) << r.err;
}

TEST(bench, bad_input_is_one_line_and_exit_2_before_anything_runs) {
  expect_usage_error({"bench", "nosuch"}, "unknown bench suite 'nosuch' (suites: stdio, iostream");
  expect_usage_error({"bench", "--toolchain", "nosuch"},
                     "--toolchain=nosuch: no toolchain set of that name");
  expect_usage_error({"bench", "--json", "/nonexistent/dir/b.json"},
                     "--json=/nonexistent/dir/b.json: cannot write it");
  expect_usage_error({"bench", "--html", "/nonexistent/b.html"}, "cannot write it");
  expect_usage_error({"bench", "--repeat", "0"}, "--repeat must be at least 1");
  expect_usage_error({"bench", "--threshold", "0"}, "--threshold must be a number above 0");
  const std::string junk = test_path("junk.json");
  std::ofstream(junk) << "{\"tool\": \"something else\"}";
  expect_usage_error({"bench", "--compare", junk}, "not a flushcheck bench report");
  expect_usage_error({"bench", "--compare", test_path("missing.json")},
                     std::string("missing.json: cannot read it: ") + std::strerror(ENOENT));
  const std::string not_json = test_path("not.json");
  std::ofstream(not_json) << "{\"tool\": ";
  expect_usage_error({"bench", "--compare", not_json}, "not.json: not JSON");
  expect_usage_error({"bench", "--timeout=0"}, "--timeout");
  expect_usage_error({"bench", "program"}, "the program suite needs --program=COMMAND");
  expect_usage_error({"bench", "--program", "'unbalanced"}, "not a command line");
  // a program that cannot start: exit 3 before any suite runs (stdio is named first)
  auto missing = cli({"bench", "stdio", "--program", "/nonexistent/bench"});
  EXPECT_EQ(missing.code, 3) << missing.err;
  EXPECT_EQ(missing.out, "");
}

}  // namespace
}  // namespace flushcheck
