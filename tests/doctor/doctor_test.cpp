// `flushcheck doctor` on programs no one here wrote for it: python3, perl,
// node, dd, a shell script, an awk script, a static musl program, one that
// never ends; and its bad input. Each finding and each fix is asserted from
// the JSON report, exactly.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "clean_environment.hpp"
#include "cli_runner.hpp"
#include "error.hpp"
#include "spawn.hpp"

namespace flushcheck {
namespace {

struct doctor_result {
  int code;
  nlohmann::json report;
};

doctor_result doctor(std::vector<std::string> command, std::vector<std::string> flags = {}) {
  std::vector<std::string> args{"doctor", "--json"};
  args.insert(args.end(), flags.begin(), flags.end());
  args.push_back("--");
  args.insert(args.end(), command.begin(), command.end());
  cli_result r = cli(args);
  EXPECT_TRUE(nlohmann::json::accept(r.out)) << r.out << r.err;
  return {r.code, nlohmann::json::parse(r.out, nullptr, false)};
}

// Names as pointers, not std::strings: a reference returned from a call with
// a temporary argument is what GCC 14's -Wdangling-reference flags.
const nlohmann::json& fix(const nlohmann::json& report, const char* name) {
  for (const auto& f : report["fixes"])
    if (f["name"] == name) return f;
  static const nlohmann::json none = {{"name", "not tried"}, {"helps", nullptr}};
  return none;
}

/// The diagnosis of STREAM ("stdout", "stderr", "2>&1").
const nlohmann::json& view(const nlohmann::json& report, const char* stream = "stdout") {
  for (const auto& v : report["views"])
    if (v["stream"] == stream) return v;
  throw std::runtime_error(std::string("no diagnosis of ") + stream);
}

bool has_view(const nlohmann::json& report, const std::string& stream) {
  for (const auto& v : report["views"])
    if (v["stream"] == stream) return true;
  return false;
}

/// Why PROGRAM cannot run here: "" when it is on the clean PATH that the
/// runs get (or is a path), else that it is not installed, naming PACKAGE.
std::string not_installed(const std::string& program, const std::string& package) {
  try {
    resolve_program(program, clean_environment());  // as doctor will find it
    return "";
  } catch (const spawn_error&) {
    return program + " is not installed" +
           (package.empty() ? "" : " (Debian package " + package + ")");
  }
}

/// Skips the test, saying why, when PROGRAM is not here.
#define SKIP_WITHOUT(program, package) \
  if (const std::string why = not_installed(program, package); !why.empty()) GTEST_SKIP() << why

const nlohmann::json& sink(const nlohmann::json& report, const char* name,
                           const char* stream = "stdout") {
  for (const auto& s : view(report, stream)["sinks"])
    if (s["sink"] == name) return s;
  throw std::runtime_error(std::string("no sink ") + name);
}

/// What a failed expectation prints: each stream's runs and cuts, each fix.
std::string summary(const nlohmann::json& report) {
  if (!report.is_object() || !report.contains("views")) return "report: none";
  std::string out = "report: " + report["verdict"].get<std::string>();
  for (const auto& v : report["views"])
    for (const auto& s : v["sinks"]) {
      out += "\n  " + v["stream"].get<std::string>() + " " + s["sink"].get<std::string>() + ": " +
             s["status"].get<std::string>() + ", " + s["bytes"].dump() + " bytes in " +
             s["writes"].dump() + " writes, late " + s["late_ms"].dump() + " ms, " +
             s["cuts_not_reached"].dump() + " cuts not reached";
      for (const auto& c : s["cuts"])
        out += "\n    " + c["cut"].get<std::string>() + ": had " + c["had_bytes"].dump() +
               ", pty " + c["pty_bytes"].dump() + ", got " + c["got_bytes"].dump();
    }
  for (const auto& f : report.value("fixes", nlohmann::json::array()))
    out += "\n  fix " + f["name"].get<std::string>() + ": " + f["result"].get<std::string>();
  return out;
}

/// The most lines a cut on SINK lost.
std::size_t most_lost(const nlohmann::json& report, const char* name,
                      const char* stream = "stdout") {
  std::size_t most = 0;
  for (const auto& c : sink(report, name, stream)["cuts"])
    most = std::max<std::size_t>(most, c["lost_lines"]);
  return most;
}

std::string script_file(const std::string& name, const std::string& text) {
  std::string path = test_path(name);
  std::ofstream(path) << text;
  ::chmod(path.c_str(), 0755);
  return path;
}

TEST(doctor, python_loses_lines_on_a_pipe_and_its_own_switches_fix_it) {
  SKIP_WITHOUT("python3", "python3");
  auto [code, r] = doctor({"python3", "-c", "print('a'); print('b'); print('c')"});
  SCOPED_TRACE(summary(r));
  EXPECT_EQ(code, 1);
  EXPECT_EQ(r["kind"], "doctor");
  EXPECT_EQ(r["schema"], 3);
  EXPECT_EQ(r["program"]["runtime"], "python");
  EXPECT_EQ(r["program"]["libc"], "glibc");
  EXPECT_EQ(sink(r, "pty")["writes"], 3);  // line buffered on a terminal
  EXPECT_EQ(sink(r, "pipe")["writes"], 1);
  EXPECT_EQ(sink(r, "pipe")["most_lines_per_write"], 3);
  // SIGKILL at the entry of its one write, at exit: a pty reader had the
  // first two lines by then (the third was in flight there too).
  EXPECT_EQ(most_lost(r, "pipe"), 2u);
  EXPECT_EQ(most_lost(r, "file"), 2u);
  EXPECT_EQ(fix(r, "PYTHONUNBUFFERED=1")["helps"], true);
  EXPECT_EQ(fix(r, "python3 -u")["helps"], true);
  EXPECT_EQ(fix(r, "stdbuf -oL")["helps"], false) << "Python does not use C stdio for stdout";
  EXPECT_EQ(r["fixes"][0]["helps"], true) << "fixes that help come first";
}

TEST(doctor, perl_loses_lines_and_autoflush_fixes_it) {
  SKIP_WITHOUT("perl", "perl");
  auto [code, r] = doctor({"perl", "-e", "print qq(a\\n); print qq(b\\n);"});
  SCOPED_TRACE(summary(r));
  EXPECT_EQ(code, 1);
  EXPECT_EQ(r["program"]["runtime"], "perl");
  EXPECT_EQ(most_lost(r, "pipe"), 1u);
  EXPECT_EQ(fix(r, "$| = 1")["helps"], true);
  EXPECT_EQ(fix(r, "stdbuf -oL")["helps"], false);
}

TEST(doctor, ruby_loses_lines_and_sync_fixes_it) {
  SKIP_WITHOUT("ruby", "ruby");
  auto [code, r] = doctor({"ruby", "-e", "puts 'a'; puts 'b'; puts 'c'"});
  SCOPED_TRACE(summary(r));
  EXPECT_EQ(code, 1);
  EXPECT_EQ(r["program"]["runtime"], "ruby");
  EXPECT_EQ(most_lost(r, "pipe"), 2u);
  EXPECT_EQ(fix(r, "$stdout.sync = true")["helps"], true);
}

TEST(doctor, output_lost_at_the_programs_own_end_is_lost) {
  SKIP_WITHOUT("python3", "python3");
  auto [code, r] = doctor({"python3", "-c", "import os; print('a'); print('b'); os._exit(0)"});
  SCOPED_TRACE(summary(r));
  EXPECT_EQ(code, 1);
  bool at_end = false;
  for (const auto& c : sink(r, "pipe")["cuts"])
    at_end = at_end || (c["cut"] == "its own end" && c["lost_bytes"] == 4 && c["lost_lines"] == 2);
  EXPECT_TRUE(at_end);
  EXPECT_EQ(fix(r, "PYTHONUNBUFFERED=1")["helps"], true);
}

/// doctor with its JSON report in a file and its text on stdout, of one run.
struct doctor_reports {
  int code;
  nlohmann::json report;
  std::string text;
};

doctor_reports doctor_with_text(std::vector<std::string> command,
                                std::vector<std::string> flags = {}) {
  const std::string file = test_path("report.json");
  std::vector<std::string> args{"doctor", "--json=" + file};
  args.insert(args.end(), flags.begin(), flags.end());
  args.push_back("--");
  args.insert(args.end(), command.begin(), command.end());
  cli_result r = cli(args);
  std::ifstream in(file);
  return {r.code, nlohmann::json::parse(in, nullptr, false), r.out};
}

/// Five log records, each with FIELDS (a Python expression of I, the
/// record's number) written before its "msg", block-buffered on a pipe: the
/// runs get doctor's clean environment, so a machine's PYTHONUNBUFFERED=1
/// never reaches them.
std::string python_records(const std::string& fields) {
  return "import datetime, os, secrets, sys\n"
         "for i in range(1, 6):\n"
         "    now = datetime.datetime.now(datetime.timezone.utc)\n"
         "    sys.stdout.write('{' + " +
         fields + " + '\"msg\":\"rec %d\"}\\n' % i)\n";
}

/// The kinds of field view V was compared around ("pid-like number", "timestamp").
std::vector<std::string> varying_kinds(const nlohmann::json& v) {
  std::vector<std::string> kinds;
  for (const auto& f : v["compared_around"]["varying"]) kinds.push_back(f["kind"]);
  return kinds;
}

TEST(doctor, fields_that_vary_between_runs_are_compared_around) {
  SKIP_WITHOUT("python3", "python3");
  // The pid and the time in each record, as bunyan writes them (its
  // README's core fields "pid" and "time"): no two runs write the same bytes.
  const std::string pid_and_time =
      "'\"pid\":%d,\"time\":\"%s\",' % (os.getpid(), "
      "now.isoformat(timespec='milliseconds')[:-6] + 'Z')";
  auto [code, r, text] = doctor_with_text({"python3", "-c", python_records(pid_and_time)});
  SCOPED_TRACE(summary(r));
  auto [plain_code, plain] = doctor({"python3", "-c", python_records("''")});
  SCOPED_TRACE(summary(plain));
  EXPECT_EQ(plain_code, 1);
  EXPECT_TRUE(view(plain)["compared_around"].is_null()) << "the same bytes every run";
  EXPECT_EQ(code, 1);
  EXPECT_EQ(r["verdict"], "lost");
  // KILL at the entry of its one write, at exit: a pty reader had 4 of the 5 records.
  EXPECT_EQ(most_lost(r, "pipe"), 4u);
  EXPECT_EQ(most_lost(r, "pipe"), most_lost(plain, "pipe"));
  EXPECT_EQ(most_lost(r, "file"), most_lost(plain, "file"));
  const auto kinds = varying_kinds(view(r));
  EXPECT_NE(std::find(kinds.begin(), kinds.end(), "pid-like number"), kinds.end()) << kinds.size();
  EXPECT_NE(std::find(kinds.begin(), kinds.end(), "timestamp"), kinds.end()) << kinds.size();
  EXPECT_TRUE(view(r)["compared_around"]["ignore"].empty());
  EXPECT_NE(text.find("compared around fields that vary between runs: pid-like numbers at "
                      "\"pid\":"),
            std::string::npos)
      << text;
  EXPECT_EQ(fix(r, "PYTHONUNBUFFERED=1")["helps"], true) << "its runs compared around them too";
}

// A pid has fewer digits once the kernel's pids wrap (pid_max was 32768 on
// the machine where a full run met it): a fix's runs then write fewer bytes
// than the first run, and are not "writing less" for it. Here a number of
// 8 digits in the first run, one fewer in each next, down to 2.
TEST(doctor, a_fix_whose_runs_print_shorter_varying_fields_still_helps) {
  SKIP_WITHOUT("python3", "python3");
  const std::string runs = test_path("runs");
  const std::string shrinking =
      "import os\n"
      "with open('" +
      runs +
      "', 'a') as f:\n"
      "    f.write('x')\n"
      "n = 10 ** max(1, 8 - os.path.getsize('" +
      runs + "'))\n";
  auto [code, r] = doctor({"python3", "-c", shrinking + python_records("'\"n\":%d,' % n")});
  SCOPED_TRACE(summary(r));
  EXPECT_EQ(code, 1);
  EXPECT_EQ(r["verdict"], "lost");
  const auto kinds = varying_kinds(view(r));
  EXPECT_NE(std::find(kinds.begin(), kinds.end(), "pid-like number"), kinds.end()) << kinds.size();
  EXPECT_EQ(fix(r, "PYTHONUNBUFFERED=1")["helps"], true) << fix(r, "PYTHONUNBUFFERED=1").dump();
}

TEST(doctor, ignore_masks_what_differs_run_to_run_in_other_ways) {
  SKIP_WITHOUT("python3", "python3");
  // A request id of hex digits and letters: its text differs run to run, so
  // no field of it is learnt, and the pty is no reference without --ignore.
  const std::string prog = python_records("'\"req\":\"%s\",' % secrets.token_hex(16)");
  auto [bare_code, bare] = doctor({"python3", "-c", prog});
  SCOPED_TRACE(summary(bare));
  EXPECT_EQ(bare_code, 6);
  EXPECT_TRUE(view(bare)["compared_around"].is_null());

  const std::string pattern = "\"req\":\"[0-9a-f]+\"";
  const std::string page = test_path("ignore.html");
  auto [code, r, text] =
      doctor_with_text({"python3", "-c", prog}, {"--ignore", pattern, "--html", page});
  SCOPED_TRACE(summary(r));
  EXPECT_EQ(code, 1);
  EXPECT_EQ(most_lost(r, "pipe"), 4u);
  EXPECT_EQ(view(r)["compared_around"]["ignore"], nlohmann::json::array({pattern}));
  EXPECT_TRUE(view(r)["compared_around"]["varying"].empty());
  const std::string said = "compared around what --ignore '" + pattern + "' matched";
  EXPECT_EQ(view(r)["compared_around"]["describe"], said);
  EXPECT_NE(text.find(said), std::string::npos) << text;
  std::stringstream html;
  html << std::ifstream(page).rdbuf();
  EXPECT_NE(html.str().find("compared around what --ignore"), std::string::npos);
}

TEST(doctor, node_drops_a_large_pipe_write_at_process_exit_and_set_blocking_fixes_it) {
  SKIP_WITHOUT("node", "nodejs");
  // One 2 MB write: the pipe takes 64 KiB, libuv queues the rest, and
  // process.exit drops the queue (Node docs, process.exit). Its runs take
  // ~0.2 s each; a deadline well beyond that keeps a slow machine's run
  // from being read as one that never ends.
  auto [code, r] =
      doctor({"node", "-e",
              "process.stdout.write(('x'.repeat(99) + '\\n').repeat(20000)); process.exit(0)"},
             {"--timeout=10000"});
  SCOPED_TRACE(summary(r));
  EXPECT_EQ(code, 1);
  EXPECT_GT(most_lost(r, "pipe"), 1000u);
  EXPECT_EQ(most_lost(r, "file"), 0u) << "a file is written synchronously";
  EXPECT_EQ(fix(r, "setBlocking(true)")["helps"], true);
}

TEST(doctor, node_console_log_is_safe_and_no_fix_is_tried) {
  SKIP_WITHOUT("node", "nodejs");
  auto [code, r] = doctor({"node", "-e", "console.log('a'); console.log('b')"});
  SCOPED_TRACE(summary(r));
  EXPECT_EQ(code, 0);
  EXPECT_EQ(r["program"]["runtime"], "node");
  EXPECT_EQ(r["lost"], false);
  EXPECT_EQ(sink(r, "pipe")["most_lines_per_write"], 1);
  EXPECT_TRUE(r["fixes"].empty());
}

/// What REPORT found, without how long anything took: the verdict, each
/// stream's runs (how they ended, bytes, writes) and cuts, each fix.
std::string what_it_found(const nlohmann::json& report) {
  std::string out = report["verdict"].get<std::string>();
  for (const auto& v : report["views"])
    for (const auto& s : v["sinks"]) {
      out += "\n" + v["stream"].get<std::string>() + " " + s["sink"].get<std::string>() + ": " +
             s["status"].get<std::string>() + " " + s["bytes"].dump() + " " + s["writes"].dump();
      for (const auto& c : s["cuts"])
        out += "\n  " + c["cut"].get<std::string>() + " " + c["had_bytes"].dump() + " " +
               c["pty_bytes"].dump() + " " + c["got_bytes"].dump() + " " + c["lost_lines"].dump();
    }
  for (const auto& f : report["fixes"])
    out += "\nfix " + f["name"].get<std::string>() + ": " + f["helps"].dump();
  return out;
}

// --jobs: the pipe's and the file's cuts run on workers side by side, and
// the report is the one a single worker makes.
TEST(doctor, the_same_report_with_1_and_4_jobs) {
  SKIP_WITHOUT("python3", "python3");
  const std::vector<std::string> program = {
      "python3", "-c", "import sys\nfor i in range(40): print('line', i)\nsys.stdout.flush()"};
  auto [one_code, one] = doctor(program, {"--jobs", "1"});
  auto [four_code, four] = doctor(program, {"--jobs", "4"});
  EXPECT_EQ(one_code, 1);
  EXPECT_EQ(four_code, one_code);
  EXPECT_EQ(what_it_found(four), what_it_found(one));
  EXPECT_NE(what_it_found(one).find("KILL@write:1"), std::string::npos) << what_it_found(one);
}

TEST(doctor, dd_and_a_shell_script_are_safe) {
  const std::string lines = script_file("lines.txt", "one\ntwo\nthree\n");
  auto [dd_code, dd] = doctor({"dd", "if=" + lines, "bs=4", "status=none"});
  SCOPED_TRACE(summary(dd));
  EXPECT_EQ(dd_code, 0);
  EXPECT_EQ(dd["program"]["runtime"], nullptr);
  EXPECT_EQ(dd["program"]["static"], false);
  EXPECT_EQ(sink(dd, "pipe")["writes"], 4);  // 14 bytes in blocks of 4, each written as read

  auto [sh_code, sh] = doctor({script_file("app.sh", "#!/bin/sh\necho one\necho two\n")});
  SCOPED_TRACE(summary(sh));
  EXPECT_EQ(sh_code, 0);
  EXPECT_NE(sh["program"]["describe"].get<std::string>().find("a shell script"), std::string::npos)
      << sh["program"]["describe"];
}

TEST(doctor, an_unknown_interpreter_is_named_with_its_c_library) {
  auto [code, r] =
      doctor({script_file("app.awk", "#!/usr/bin/awk -f\nBEGIN { print 1; print 2 }\n")});
  SCOPED_TRACE(summary(r));
  EXPECT_EQ(r["program"]["recognised"], false);
  EXPECT_EQ(r["program"]["libc"], "glibc");
  const std::string what = r["program"]["describe"];
  EXPECT_NE(what.find("not recognised"), std::string::npos) << what;
  EXPECT_EQ(code, 1) << "mawk block-buffers a pipe";
  EXPECT_EQ(fix(r, "stdbuf -oL")["helps"], true) << "mawk writes through C stdio";
}

TEST(doctor, stdbuf_does_not_reach_a_static_musl_program) {
  const std::string musl = FLUSHCHECK_MUSL_STDIO_SCRIPT;
  if (::access(musl.c_str(), X_OK) != 0) GTEST_SKIP() << "musl set not built (musl-tools)";
  auto [code, r] = doctor({musl, "line 3; line 3; line 3; line 3; exit 0"});
  SCOPED_TRACE(summary(r));
  EXPECT_EQ(code, 1);
  EXPECT_EQ(r["program"]["static"], true);
  EXPECT_EQ(fix(r, "stdbuf -oL")["helps"], false);
  EXPECT_EQ(fix(r, "stdbuf -o0")["helps"], false);
  EXPECT_EQ(fix(r, "a terminal")["helps"], true);
}

TEST(doctor, a_program_that_never_ends_is_stopped_at_the_deadline) {
  // 1000 ms: the pty's line counts if it came 250 ms before the deadline,
  // which leaves a loaded machine 750 ms to start python (at 600 ms it
  // failed once here, right after a build).
  auto [code, r] =
      doctor({"python3", "-c", "import time; print('up'); time.sleep(600)"}, {"--timeout=1000"});
  SCOPED_TRACE(summary(r));
  EXPECT_EQ(code, 1);
  EXPECT_EQ(sink(r, "pipe")["ended"], false);
  // Stopped at the deadline (SIGTERM, SIGKILL): the line a pty reader had
  // by then never left the pipe's buffer.
  EXPECT_EQ(most_lost(r, "pipe"), 1u);
  EXPECT_EQ(fix(r, "PYTHONUNBUFFERED=1")["helps"], true);
}

TEST(doctor, a_cut_its_run_never_reached_is_left_out) {
  // Four lines, one write each, but on a pipe only the first time: later
  // pipe runs (the cut runs) write one. Cuts at its writes 2 to 4 are never
  // reached there: they show nothing, and must not be read as output lost.
  const std::string prog = script_file("fewer.sh",
                                       "#!/bin/sh\n"
                                       "echo a\n"
                                       "if [ -p /dev/stdout ]; then\n"
                                       "  [ -e \"$0.piped\" ] && exit 0\n"
                                       "  : > \"$0.piped\"\n"
                                       "fi\n"
                                       "echo b; echo c; echo d\n");
  std::filesystem::remove(prog + ".piped");  // from an earlier --gtest_repeat
  auto [code, r] = doctor({prog});
  SCOPED_TRACE(summary(r));
  EXPECT_EQ(code, 0);
  EXPECT_EQ(sink(r, "pipe")["writes"], 4);
  EXPECT_EQ(sink(r, "pipe")["cuts_not_reached"], 8);  // write:2..4, after-write:4; KILL, TERM
  EXPECT_EQ(sink(r, "file")["cuts_not_reached"], 0);
  std::filesystem::remove(prog + ".piped");
  const std::string text = cli({"doctor", "--", prog}).out;
  EXPECT_NE(text.find("pipe: 4 write(s), at most 1 line(s) in one; exited 0; 8 cut(s) not reached"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("SAFE: every cut reached"), std::string::npos) << text;
}

// Load slows a run several times over, and that is no doing of the
// program's. Here a flag file stands for load: a run is slow (1 s, past the
// 300 ms deadline) where the flag says so, on no machine's whim.

TEST(doctor, runs_after_a_quick_pty_run_may_last_a_limit_scaled_from_it) {
  // The first run (the pty's) leaves the flag and ends at once; every later
  // run (the pipe's, the file's, each fix's) sleeps after seq has written.
  const std::string flag = test_path("slow_later.flag");
  auto [code, r] =
      doctor({"sh", "-c",
              "seq -f %g 1 3; if [ -e '" + flag + "' ]; then sleep 1; else : > '" + flag + "'; fi"},
             {"--timeout=300"});
  SCOPED_TRACE(summary(r));
  EXPECT_EQ(r["verdict"], "lost");
  EXPECT_EQ(code, 1);
  EXPECT_EQ(sink(r, "pty")["limit_ms"], 300);
  for (const char* s : {"pipe", "file"}) {
    EXPECT_EQ(sink(r, s)["ended"], true) << s;
    EXPECT_GE(sink(r, s)["limit_ms"], 5000) << s;  // 8 times the pty run's, and 5 s more
  }
  // The fixes' runs too: a slow run is no "changes how the program ends".
  EXPECT_EQ(fix(r, "stdbuf -oL")["helps"], true) << fix(r, "stdbuf -oL")["result"];
}

TEST(doctor, a_pty_run_stopped_where_the_others_ended_runs_again_with_longer) {
  // The first run (the pty's) leaves the flag and sleeps past the deadline;
  // the pipe's and the file's end at once: the pty's runs again.
  const std::string flag = test_path("slow_first.flag");
  auto [code, r] = doctor(
      {"sh", "-c", "echo a; if [ ! -e '" + flag + "' ]; then : > '" + flag + "'; sleep 1; fi"},
      {"--timeout=300"});
  SCOPED_TRACE(summary(r));
  EXPECT_EQ(r["verdict"], "safe");
  EXPECT_EQ(code, 0);
  EXPECT_EQ(sink(r, "pty")["ended"], true);
  EXPECT_GE(sink(r, "pty")["limit_ms"], 5000);
}

TEST(doctor, a_run_that_ends_only_elsewhere_is_named_as_the_limit_not_the_program) {
  // The pty's run ends at once; every later one outlasts any limit doctor
  // gives (600 s): no verdict, said as the harness's limit, with the flag
  // that waits longer.
  const std::string flag = test_path("stuck_later.flag");
  auto [code, r] = doctor(
      {"sh", "-c", "echo a; if [ -e '" + flag + "' ]; then exec sleep 600; fi; : > '" + flag + "'"},
      {"--timeout=100"});
  SCOPED_TRACE(summary(r));
  EXPECT_EQ(code, 6);
  const std::string why = view(r)["no_reference_why"];
  EXPECT_NE(why.find("on the pipe it was still running at"), std::string::npos) << why;
  EXPECT_NE(why.find("--deadline="), std::string::npos) << why;
}

// Everyday programs no one here wrote (tests/doctor/everyday.json, also the
// table in docs/cli.md): doctor's verdict, why and fixes for each.
struct everyday {
  std::string name;
  nlohmann::json spec;
};
void PrintTo(const everyday& e, std::ostream* os) { *os << e.name; }

std::vector<everyday> everyday_programs() {
  std::ifstream in(std::string(FLUSHCHECK_SOURCE_DIR) + "/tests/doctor/everyday.json");
  std::vector<everyday> out;
  for (const auto& e : nlohmann::json::parse(in)) out.push_back({e["name"], e});
  return out;
}

/// A git repository of N empty commits, made in a clean environment (no
/// user's configuration); "" when git is not installed.
std::string git_repository(const std::string& name, int n) {
  const std::string dir = test_path(name);
  const std::string git = "env -i PATH=/usr/bin:/bin HOME=/nonexistent git -C '" + dir +
                          "' -c user.name=t -c user.email=t@example.org ";
  if (std::system(("git init -q '" + dir + "' 2>/dev/null").c_str()) != 0) return "";
  for (int i = 1; i <= n; ++i)
    if (std::system(
            (git + "commit -q --allow-empty -m 'commit " + std::to_string(i) + "'").c_str()) != 0)
      return "";
  return dir;
}

/// ARGV with {lines} (24 passwd-like lines), {go} and {java} (targets/runtimes)
/// filled in; nullopt and WHY when a program it needs is not here.
std::optional<std::vector<std::string>> everyday_argv(const nlohmann::json& spec,
                                                      std::string& why) {
  static const std::string lines = [] {
    std::string text;
    for (int i = 1; i <= 24; ++i)
      text += "user" + std::to_string(i) + ":x:" + std::to_string(i) + ":" + std::to_string(i) +
              ":User number " + std::to_string(i) + ":/home/user" + std::to_string(i) +
              ":/bin/sh\n";
    return script_file("everyday_lines.txt", text);
  }();
  const bool needs_repo = spec.dump().find("{repo}") != std::string::npos;
  const std::string repo = needs_repo ? git_repository("everyday_repo", 40) : "";
  const std::string runtimes = FLUSHCHECK_RUNTIMES_DIR;
  const std::pair<std::string, std::string> fills[] = {{"{lines}", lines},
                                                       {"{go}", runtimes + "/go_script"},
                                                       {"{java}", runtimes + "/java"},
                                                       {"{repo}", repo}};
  std::vector<std::string> argv;
  for (std::string a : spec["argv"]) {
    for (const auto& [from, to] : fills)
      if (auto at = a.find(from); at != std::string::npos) {
        if (to.empty() && from == "{repo}") why = "git is not installed (no repository to log)";
        if (::access(to.c_str(), F_OK) != 0 && why.empty()) why = to + " was not built";
        a.replace(at, from.size(), to);
      }
    argv.push_back(a);
  }
  if (why.empty()) why = not_installed(argv.front(), "");
  if (!why.empty()) return std::nullopt;
  return argv;
}

class everyday_program : public ::testing::TestWithParam<everyday> {};

TEST_P(everyday_program, gets_the_right_verdict_why_and_fixes) {
  const auto& want = GetParam().spec;
  std::string missing;
  const auto argv = everyday_argv(want, missing);
  if (!argv) GTEST_SKIP() << missing;
  auto [code, r] = doctor(*argv, {"--timeout=10000"});
  SCOPED_TRACE(summary(r));
  const std::string verdict = want["verdict"];
  EXPECT_EQ(r["verdict"], verdict);
  const int exit = verdict == "lost" || verdict == "held" ? 1 : verdict == "no verdict" ? 6 : 0;
  EXPECT_EQ(code, exit);
  std::string whys;
  for (const auto& v : r["views"])
    for (const char* key : {"why", "no_reference_why"})
      whys += v.value(key, nlohmann::json()).is_string() ? v[key].get<std::string>() + "; " : "";
  if (want.contains("why")) {
    EXPECT_NE(whys.find(want["why"].get<std::string>()), std::string::npos) << whys;
  }
  for (const auto& name : want.value("helps", nlohmann::json::array()))
    EXPECT_EQ(fix(r, name.get_ref<const std::string&>().c_str())["helps"], true) << name;
  for (const auto& name : want.value("not", nlohmann::json::array()))
    EXPECT_EQ(fix(r, name.get_ref<const std::string&>().c_str())["helps"], false) << name;
  if (verdict == "safe" || verdict == "no verdict") {
    EXPECT_TRUE(r["fixes"].empty());
  }
  for (const auto& s : want.value("streams", nlohmann::json::array())) {
    EXPECT_TRUE(has_view(r, s)) << s;
  }
  EXPECT_EQ(r["reordered"], want.value("reordered", false));
  // A pty that was no reference: the program's own switch for a plain
  // terminal, right after its name (or none, where the table has none).
  if (want.contains("plain")) {
    ASSERT_TRUE(r["plain_terminal"].is_object());
    EXPECT_EQ(r["plain_terminal"]["args"], want["plain"]);
    const auto& with = r["plain_terminal"]["argv"];  // the switch right after the name
    ASSERT_GT(with.size(), want["plain"].size());
    EXPECT_EQ(with[1], want["plain"][0]);
  } else {
    EXPECT_TRUE(r["plain_terminal"].is_null());
  }
}

std::string everyday_name(const ::testing::TestParamInfo<everyday>& p) {
  std::string id;
  for (char c : p.param.name) id += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return id;
}

INSTANTIATE_TEST_SUITE_P(doctor, everyday_program, ::testing::ValuesIn(everyday_programs()),
                         everyday_name);

TEST(doctor, bad_input_is_one_line_and_a_distinct_exit_code) {
  auto missing = cli({"doctor", "--", "/nonexistent/prog"});
  EXPECT_EQ(missing.code, 3);
  const std::string text = script_file("not_exec.txt", "");
  ::chmod(text.c_str(), 0644);
  auto not_exec = cli({"doctor", "--", text});
  EXPECT_EQ(not_exec.code, 3);
  auto silent = cli({"doctor", "--", "true"});
  EXPECT_EQ(silent.code, 5);
  EXPECT_NE(silent.err.find("wrote nothing to stdout"), std::string::npos) << silent.err;
  auto bad_flag = cli({"doctor", "--deadline=5", "--", "true"});
  EXPECT_EQ(bad_flag.code, 2);
  auto bad_regex = cli({"doctor", "--ignore", "(", "--", "true"});
  EXPECT_EQ(bad_regex.code, 2);
  EXPECT_NE(bad_regex.err.find("--ignore=("), std::string::npos) << bad_regex.err;
  for (const auto* r : {&missing, &not_exec, &silent, &bad_flag, &bad_regex})
    EXPECT_EQ(std::count(r->err.begin(), r->err.end(), '\n'), 1) << r->err;
}

}  // namespace
}  // namespace flushcheck
