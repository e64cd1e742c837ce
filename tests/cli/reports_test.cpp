// Report files destroy nothing (docs/cli.md, "Reports"): a device, a FIFO or
// /dev/stdout is written in place, a symlink is followed, a directory is a
// usage error before anything runs, and a regular file is replaced whole
// through a unique temporary, so two runs writing one report leave one
// whole report and no one's FILE.tmp is touched.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <future>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "cli_runner.hpp"

namespace flushcheck {
namespace {

namespace fs = std::filesystem;

std::string contents(const std::string& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// `flushcheck run REPORT -- true`: a report flag and a program that prints nothing.
cli_result run_true(const std::vector<std::string>& reports) {
  std::vector<std::string> args = {"run"};
  args.insert(args.end(), reports.begin(), reports.end());
  args.insert(args.end(), {"--", "/bin/true"});
  return cli(args);
}

/// A character device node like /dev/null (1,3) or /dev/full (1,7) in this
/// test's own directory: if flushcheck replaced it, only this copy is lost.
std::string device_node(const std::string& name, unsigned minor) {
  const std::string path = test_path(name);
  if (::mknod(path.c_str(), S_IFCHR | 0666, ::makedev(1, minor)) != 0) return "";
  return path;
}

bool is_char_device(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0 && S_ISCHR(st.st_mode);
}

TEST(report_files, a_device_is_written_in_place_never_replaced) {
  if (::geteuid() != 0) GTEST_SKIP() << "mknod of a device node needs root";
  const std::string null = device_node("null", 3), full = device_node("full", 7);
  ASSERT_FALSE(null.empty() || full.empty()) << "mknod: " << std::strerror(errno);
  auto r = run_true({"--json=" + null});
  EXPECT_EQ(r.code, 0) << r.err;
  r = run_true({"--html", null});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(is_char_device(null)) << "--json=" << null << " replaced the device";
  r = run_true({"--json=" + full});
  EXPECT_EQ(r.code, 4) << "a report /dev/full refused is a harness failure: " << r.err;
  EXPECT_NE(r.err.find("No space left on device"), std::string::npos) << r.err;
  EXPECT_TRUE(is_char_device(full)) << "--json=" << full << " replaced the device";
  for (const auto& e : fs::directory_iterator(fs::path(null).parent_path()))
    EXPECT_EQ(e.path().string().find(".tmp"), std::string::npos) << "left " << e.path();
}

TEST(report_files, a_fifo_is_written_in_place_when_a_reader_comes) {
  const std::string fifo = test_path("report.fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto reader = std::async(std::launch::async, [&] { return contents(fifo); });
  auto r = run_true({"--json=" + fifo});
  EXPECT_EQ(r.code, 0) << r.err;
  const std::string got = reader.get();
  EXPECT_TRUE(nlohmann::json::accept(got)) << got;
  struct stat st {};
  ASSERT_EQ(::lstat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode)) << "the FIFO was replaced";
}

TEST(report_files, a_symlink_is_followed_and_stays_a_symlink) {
  const std::string real = test_path("real.json"), link = test_path("link.json");
  std::ofstream(real) << "old";
  ::chmod(real.c_str(), 0640);
  fs::create_symlink(real, link);
  auto r = run_true({"--json=" + link});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(fs::is_symlink(link)) << "the symlink was replaced";
  EXPECT_TRUE(nlohmann::json::accept(contents(real))) << contents(real);
  EXPECT_EQ(fs::status(real).permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read)
      << "the replaced file keeps its mode";
}

TEST(report_files, a_directory_is_a_usage_error_before_anything_runs) {
  const std::string dir = test_path("dir"), ran = test_path("ran");
  fs::create_directory(dir);
  for (const std::vector<std::string>& flag :
       {std::vector<std::string>{"--json=" + dir}, {"--html", dir}, {"--markdown=" + dir}}) {
    std::vector<std::string> args = {flag[0] == "--markdown=" + dir ? "matrix" : "run"};
    args.insert(args.end(), flag.begin(), flag.end());
    if (args[0] == "run") args.insert(args.end(), {"--", "/usr/bin/touch", ran});
    auto r = cli(args);
    EXPECT_EQ(r.code, 2) << flag[0] << ": " << r.err;
    EXPECT_NE(r.err.find("a directory"), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_FALSE(fs::exists(ran)) << "the program ran before the usage error";
  }
}

// FILE.tmp was the one temporary name: someone's FILE.tmp was truncated and
// removed, and a symlink there led the report into what it named.
TEST(report_files, someone_elses_tmp_file_and_a_symlink_there_are_left_alone) {
  const std::string a = test_path("a.json"), b = test_path("b.json"), victim = test_path("victim");
  std::ofstream(a + ".tmp") << "someone's data";
  std::ofstream(victim) << "victim's data";
  fs::create_symlink(victim, b + ".tmp");
  EXPECT_EQ(run_true({"--json=" + a}).code, 0);
  EXPECT_EQ(run_true({"--json=" + b}).code, 0);
  EXPECT_EQ(contents(a + ".tmp"), "someone's data");
  EXPECT_EQ(contents(victim), "victim's data");
  EXPECT_TRUE(fs::is_symlink(b + ".tmp"));
  EXPECT_TRUE(nlohmann::json::accept(contents(a)));
  EXPECT_TRUE(nlohmann::json::accept(contents(b)));
}

/// Starts `flushcheck run ARGS` and returns its pid (its output to /dev/null).
pid_t start_cli(const std::vector<std::string>& args) {
  const pid_t pid = ::fork();
  if (pid != 0) return pid;
  const int null = ::open("/dev/null", O_WRONLY);
  ::dup2(null, 1);
  ::dup2(null, 2);
  std::vector<std::string> all = {FLUSHCHECK_TARGET_FLUSHCHECK};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : all) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::vector<std::string> env = clean_environment();
  std::vector<char*> envp;
  for (auto& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);
  ::execve(argv[0], argv.data(), envp.data());
  ::_exit(127);
}

int wait_code(pid_t pid) {
  int status = 0;
  if (::waitpid(pid, &status, 0) != pid) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/// Waits until PATH exists; false if it has not come in 30 s.
bool wait_for_file(const std::string& path) {
  for (int i = 0; i < 3000; ++i) {
    if (fs::exists(path)) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

/// A shell command that makes STARTED (its run has opened its reports, as
/// every run does before it starts the program), waits until FLAG exists,
/// then runs THEN: a run that lasts until the test says, not for a time.
std::string once_flagged(const std::string& started, const std::string& flag,
                         const std::string& then) {
  return ": > '" + started + "'; while [ ! -e '" + flag + "' ]; do sleep 0.01; done; " + then;
}

// Two runs, the second starting while the first runs and ending first: with
// one FILE.tmp between them, the file was the second's bytes then the
// first's tail, and a page had two </html>.
TEST(report_files, two_runs_writing_one_report_leave_one_whole_report) {
  const std::string json = test_path("both.json"), html = test_path("both.html");
  const std::string flag = test_path("both.go"), started = test_path("both.started");
  auto args = [&](const std::string& program) {
    return std::vector<std::string>{"run", "--json=" + json, "--html", html,
                                    "--",  "/bin/sh",        "-c",     program};
  };
  for (int round = 0; round < 3; ++round) {
    fs::remove(flag);
    fs::remove(started);
    const pid_t slow =
        start_cli(args(once_flagged(started, flag, "head -c 20000 /dev/zero | tr '\\0' a")));
    ASSERT_TRUE(wait_for_file(started)) << "the first run's program never started";
    const pid_t quick = start_cli(args("head -c 20000 /dev/zero | tr '\\0' b"));
    EXPECT_EQ(wait_code(quick), 0);
    std::ofstream{flag};  // the first run ends after the second
    EXPECT_EQ(wait_code(slow), 0);
    const auto doc = nlohmann::json::parse(contents(json), nullptr, false);
    ASSERT_FALSE(doc.is_discarded()) << "round " << round << ": not one JSON document";
    EXPECT_EQ(doc["stdout"]["bytes"], 20000);
    EXPECT_EQ(occurrences(contents(html), "</html>"), 1u) << "round " << round;
  }
  std::vector<std::string> left;
  for (const auto& e : fs::directory_iterator(fs::path(json).parent_path()))
    if (e.path().filename().string().find(".tmp") != std::string::npos) left.push_back(e.path());
  EXPECT_TRUE(left.empty()) << "left " << left.front();
}

// Interrupting one of two runs that write one report removes only its own
// temporary: the other ends with exit 0 and the whole report.
TEST(report_files, interrupting_one_run_leaves_the_others_report_whole) {
  const std::string json = test_path("shared.json"), flag = test_path("shared.go");
  const std::string killed_started = test_path("killed.started");
  const std::string kept_started = test_path("kept.started");
  for (const auto& f : {flag, killed_started, kept_started}) fs::remove(f);
  const pid_t killed = start_cli({"run", "--json=" + json, "--timeout=60000", "--", "/bin/sh", "-c",
                                  ": > '" + killed_started + "'; exec sleep 30"});
  const pid_t kept = start_cli({"run", "--json=" + json, "--", "/bin/sh", "-c",
                                once_flagged(kept_started, flag, "echo kept")});
  ASSERT_TRUE(wait_for_file(killed_started) && wait_for_file(kept_started))
      << "the two runs' programs never both started";
  ASSERT_EQ(::kill(killed, SIGINT), 0);
  EXPECT_EQ(wait_code(killed), 128 + SIGINT);
  std::ofstream{flag};  // the other run ends after the interrupted one
  EXPECT_EQ(wait_code(kept), 0);
  const auto doc = nlohmann::json::parse(contents(json), nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << contents(json);
  EXPECT_EQ(doc["stdout"]["data"], "kept\n");
}

// A repro line named the caller's whole environment: a CI job's tokens went
// into every shared --html page. Every verb, every format, greps clean.
TEST(reports, no_output_of_any_verb_carries_the_callers_environment) {
  const std::string secret = "hunter2-" + std::to_string(::getpid());
  auto env = clean_environment();
  env.push_back("MY_TOKEN=" + secret);
  env.push_back("PYTHONUNBUFFERED=1");  // changes buffering: named where it applies
  const std::string gate = test_path("secret.toml");
  std::ofstream(gate) << "records = 1\n[[case]]\nname = \"one\"\n"
                         "command = [\"sh\", \"-c\", \"echo rec 0\"]\n"
                         "[[case.expect]]\nrecords_through = 0\n";
  const std::string prog = "echo a; echo b";
  const std::vector<std::vector<std::string>> runs = {
      {"run", "--trace", "--timeline", "--kill=KILL@write:2"},
      {"count"},
      {"explore"},
      {"doctor"},
      {"explore", "--faults=EIO"},
  };
  std::vector<std::string> files;
  auto check = [&](std::vector<std::string> args, const std::vector<std::string>& reports) {
    for (const auto& r : reports) {
      files.push_back(test_path(args[0] + std::to_string(files.size()) + r));
      args.insert(args.begin() + 1, {r == ".html"  ? "--html"
                                     : r == ".md"  ? "--markdown=" + files.back()
                                     : r == ".xml" ? "--junit"
                                                   : "--json=" + files.back()});
      if (r == ".html" || r == ".xml") args.insert(args.begin() + 2, files.back());
    }
    const auto r = cli(args, env);
    EXPECT_LT(r.code, 2) << args[0] << ": " << r.err;
    EXPECT_EQ(r.out.find(secret), std::string::npos) << args[0] << "'s text: " << r.out;
    EXPECT_EQ(r.err.find(secret), std::string::npos) << args[0] << "'s stderr: " << r.err;
  };
  for (auto args : runs) {
    args.insert(args.end(), {"--", "/bin/sh", "-c", prog});
    check(args, {});
    if (args[0] == "count")
      check(args, {".json"});
    else
      check(args, {".json", ".html"});
  }
  check({"gate", gate}, {});
  check({"gate", gate}, {".json", ".xml"});
  check({"matrix"}, {".json", ".md", ".html"});
  for (const auto& f : files) {
    const std::string text = contents(f);
    EXPECT_FALSE(text.empty()) << f << " was not written";
    EXPECT_EQ(text.find(secret), std::string::npos) << f << " carries MY_TOKEN";
  }
  EXPECT_NE(contents(files[1]).find("PYTHONUNBUFFERED=1"), std::string::npos)
      << "run's page names the variable that changes buffering in its repro line";
}

/// What a record or a program may say to attack a terminal (set its title,
/// ring, clear the screen) or a page (a script).
const std::string attack = "\x1b]0;pwned\x07\x1b[2J<script>alert(1)</script>";

/// MARKDOWN as GitHub renders it (cmark-gfm, tables on, raw HTML let
/// through as a forge that trusts its input would), or nullopt without cmark-gfm.
std::optional<std::string> rendered(const std::string& markdown) {
  if (::access("/usr/bin/cmark-gfm", X_OK) != 0) return std::nullopt;
  const std::string path = test_path("rendered.md");
  std::ofstream(path) << markdown;
  run_options o;
  o.argv = {"/usr/bin/cmark-gfm", "--unsafe", "-e", "table", path};
  o.env = clean_environment();
  auto obs = run(o);
  EXPECT_EQ(obs.status, wait_status::exited(0)) << obs.err.data;
  return obs.out.data;
}

/// FORMAT: "" (text) or "--markdown".
void expect_harmless(const cli_result& r, const std::string& format, const std::string& what) {
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << what << " prints ESC";
  EXPECT_EQ(r.out.find('\x07'), std::string::npos) << what << " prints BEL";
  EXPECT_EQ(r.err.find('\x1b'), std::string::npos) << what << " prints ESC on stderr";
  if (format != "--markdown") return;
  const auto html = rendered(r.out);
  if (!html) GTEST_SKIP() << "cmark-gfm is not installed (ci/setup installs it): not rendered";
  EXPECT_EQ(html->find("<script"), std::string::npos) << what << " renders a script:\n" << *html;
  EXPECT_NE(html->find("&lt;script&gt;"), std::string::npos) << what << " shows it as text";
}

/// This machine's `matrix --json`, made once for the tests that edit it.
const std::string& saved_record() {
  static const std::string text = [] {
    auto made = cli({"matrix", "--json"});
    EXPECT_EQ(made.code, 0) << made.err;
    return made.out;
  }();
  return text;
}

// A record's strings went raw to the terminal and into Markdown.
TEST(reports, a_hostile_record_cannot_attack_a_terminal_or_a_page) {
  cli_result made{0, saved_record(), ""};
  auto record = nlohmann::json::parse(made.out);
  std::size_t edited = 0;
  for (auto& row : record["rows"])
    for (auto& cell : row["cells"])
      if (cell["asserted"] == false && cell["skipped"] == "" && edited++ < 3) {
        cell["observed"] = attack;
        cell["explanation"] = attack;
        cell["repro"] = "`" + attack;
      }
  ASSERT_GT(edited, 0u);
  record["machine"]["kernel"] = attack;
  const std::string a = test_path("a.json"), b = test_path("b.json");
  std::ofstream(a) << made.out;
  std::ofstream(b) << record.dump();
  auto r = cli({"matrix", "--baseline", a, "--record", b});
  EXPECT_EQ(r.code, 1) << r.err;
  expect_harmless(r, "", "matrix --baseline");
  for (std::string format : {"", "--markdown"}) {
    std::vector<std::string> args = {"matrix", "--merge", a, b};
    if (!format.empty()) args.insert(args.begin() + 1, format);
    r = cli(args);
    EXPECT_EQ(r.code, 0) << r.err;
    expect_harmless(r, format, "matrix --merge " + format);
  }
}

// A bench program's `bench skip: REASON` went raw to the text and Markdown.
TEST(reports, a_bench_programs_skip_reason_cannot_attack_a_terminal_or_a_page) {
  const std::string prog = test_path("skip.sh");
  std::ofstream(prog) << "#!/bin/sh\nprintf 'bench skip: \\033]0;pwned\\007"
                         "\\033[2J<script>alert(1)</script>\\n' >&2\n";
  ::chmod(prog.c_str(), 0755);
  for (std::string format : {"", "--markdown"}) {
    std::vector<std::string> args = {"bench",      "program",   "--quick",
                                     "--repeat=1", "--program", prog};
    if (!format.empty()) args.push_back(format);
    auto r = cli(args);
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("pwned"), std::string::npos) << "the reason is shown: " << r.out;
    expect_harmless(r, format, "bench " + format);
  }
}

/// RECORD (this machine's, edited by EDIT) saved as NAME.
std::string edited_record(const std::string& name,
                          const std::function<void(nlohmann::json&)>& edit) {
  auto record = nlohmann::json::parse(saved_record());
  edit(record);
  const std::string path = test_path(name);
  std::ofstream(path) << record.dump();
  return path;
}

void expect_refused(const cli_result& r, const std::string& says) {
  EXPECT_EQ(r.code, 2) << r.out << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find(says), std::string::npos) << r.err;
}

// Records from outside are untrusted: a deep one crashed --merge (SIGSEGV
// after 4 GB), a wrong type read as false, a negative tally or a set named
// twice passed.
TEST(reports, a_malformed_record_is_one_line_and_exit_2) {
  const std::string good = test_path("good.json");
  std::ofstream(good) << saved_record();
  const std::string deep = test_path("deep.json");
  {
    auto record = nlohmann::json::parse(saved_record());
    record["machine"]["nested"] = "DEEP";
    std::string text = record.dump();
    std::string nested;
    for (int i = 0; i < 50000; ++i) nested += "{\"a\":";
    nested += "1" + std::string(50000, '}');
    text.replace(text.find("\"DEEP\""), 6, nested);
    std::ofstream(deep) << text;
  }
  for (std::string verb : {"--merge", "--baseline"}) {
    auto args = [&](const std::string& bad) {
      return verb == "--merge"
                 ? std::vector<std::string>{"matrix", "--merge", good, bad}
                 : std::vector<std::string>{"matrix", "--baseline", bad, "--record", good};
    };
    expect_refused(cli(args(deep)), "nested deeper than 32 levels");
    expect_refused(cli(args(edited_record(
                       "yes.json", [](auto& r) { r["rows"][0]["cells"][0]["pass"] = "yes"; }))),
                   "rows[0].cells[0].pass: a string, expected true or false");
    expect_refused(
        cli(args(edited_record(
            "negative.json", [](auto& r) { r["columns"][0]["tally"]["required"]["pass"] = -1; }))),
        "columns[0].tally.required.pass: -1, expected a count");
    expect_refused(cli(args(edited_record(
                       "twice.json", [](auto& r) { r["columns"].push_back(r["columns"][0]); }))),
                   "columns[1].name: 'default' twice");
  }
}

// bench --compare read /dev/zero until memory ran out (4.2 GB in 8 s).
TEST(reports, an_endless_input_file_is_refused_at_its_bound) {
  expect_refused(cli({"bench", "tracer", "--quick", "--compare", "/dev/zero"}),
                 "larger than 16 MiB");
  expect_refused(cli({"matrix", "--merge", "/dev/zero"}), "larger than 64 MiB");
}

// A baseline that compared nothing printed "0 of 0 cells changed" and exit 0.
TEST(reports, a_baseline_that_compares_no_cell_is_no_verdict) {
  const std::string good = test_path("good.json");
  std::ofstream(good) << saved_record();
  const auto empty =
      edited_record("empty.json", [](auto& r) { r["rows"] = nlohmann::json::array(); });
  const auto renamed = edited_record("renamed.json", [](auto& r) {
    for (auto& c : r["columns"]) c["name"] = "other";
    for (auto& row : r["rows"])
      for (auto& cell : row["cells"]) cell["column"] = "other";
  });
  for (const auto& record : {empty, renamed}) {
    auto r = cli({"matrix", "--baseline", good, "--record", record});
    EXPECT_EQ(r.code, 6) << r.out << r.err;
    EXPECT_NE(r.err.find("nothing was checked"), std::string::npos) << r.err;
  }
}

// The stored records are gzipped (docs/distros/*.json.gz): read as they are.
TEST(reports, merge_reads_gzipped_records) {
  const std::string gz = std::string(FLUSHCHECK_SOURCE_DIR) + "/docs/distros/bookworm.json.gz";
  if (!fs::exists(gz)) GTEST_SKIP() << gz << " is not in this tree";
  auto r = cli({"matrix", "--json", "--merge", gz});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["records"][0]["label"], "bookworm");
}

/// A program of this test's own: a shell script that prints a line.
std::string own_program(const std::string& name) {
  const std::string prog = file_with(name, "#!/bin/sh\necho hi\n");
  ::chmod(prog.c_str(), 0755);
  return prog;
}

/// R is the one-line usage error REFUSED, and PATH still holds BEFORE.
void expect_input_kept(const cli_result& r, const std::string& refused, const std::string& path,
                       const std::string& before) {
  expect_refused(r, refused);
  EXPECT_NE(r.err.find("; a report never replaces its input"), std::string::npos) << r.err;
  EXPECT_EQ(contents(path), before) << path << " was replaced";
}

// A report was written over its own input: `run --json=./prog -- ./prog`
// replaced the program, `gate g.toml --junit g.toml` the gate file. The
// same file (through a symlink, or the program found on PATH) is refused,
// before anything runs.
TEST(reports, a_report_never_replaces_its_input) {
  const std::string prog = own_program("prog"), before = contents(prog);
  const std::string link = test_path("link");
  fs::create_symlink(prog, link);
  for (std::string verb : {"run", "explore", "doctor"}) {
    expect_input_kept(cli({verb, "--json=" + prog, "--", prog}),
                      "--json=" + prog + ": is the program;", prog, before);
    expect_input_kept(cli({verb, "--html", link, "--", prog}),
                      "--html=" + link + ": is the program " + prog + ";", prog, before);
  }
  expect_input_kept(cli({"count", "--json=" + link, "--", prog}),
                    "--json=" + link + ": is the program " + prog + ";", prog, before);
  auto on_path = clean_environment();  // "prog" as exec finds it
  for (auto& v : on_path)
    if (v.starts_with("PATH=")) v = "PATH=" + fs::path(prog).parent_path().string() + ":/bin";
  expect_input_kept(cli({"run", "--json=" + prog, "--", "prog"}, on_path),
                    "--json=" + prog + ": is the program", prog, before);

  const std::string ran = test_path("ran");
  const std::string gate_text = "[[case]]\nname = \"a\"\ncommand = [\"touch\", \"" + ran +
                                "\"]\n[[case.expect]]\nexit_code = 0\n";
  const std::string gate = file_with("g.toml", gate_text);
  expect_input_kept(cli({"gate", gate, "--junit", gate}), "--junit=" + gate + ": is the gate file;",
                    gate, gate_text);
  expect_input_kept(cli({"gate", "--json=" + gate, gate}), "--json=" + gate + ": is the gate file;",
                    gate, gate_text);
  EXPECT_FALSE(fs::exists(ran)) << "the gate ran before the usage error";

  // Records are refused before they are read: these are not even records.
  const std::string a = file_with("a.json", "a"), b = file_with("b.json", "b");
  expect_input_kept(cli({"matrix", "--merge", a, b, "--markdown=" + b}),
                    "--markdown=" + b + ": is a --merge record;", b, "b");
  expect_input_kept(cli({"matrix", "--baseline", a, "--record", b, "--json=" + a}),
                    "--json=" + a + ": is the --baseline record;", a, "a");
  expect_input_kept(cli({"matrix", "--baseline", a, "--record", b, "--json=" + b}),
                    "--json=" + b + ": is the record --record names;", b, "b");
  expect_input_kept(cli({"bench", "tracer", "--quick", "--compare", a, "--html", a}),
                    "--html=" + a + ": is the --compare report;", a, "a");
}

/// The targets directory this flushcheck runs: "toolchain sets in DIR:" of --version.
std::string targets_dir_of_flushcheck() {
  const std::string out = cli({"--version"}).out, head = "toolchain sets in ";
  const auto at = out.find(head);
  if (at == std::string::npos) return "";
  return out.substr(at + head.size(), out.find(":\n", at) - at - head.size());
}

// A toolchain set that did not build is named in skipped-sets.txt with the
// first line its compiler said (with ESC sequences where it colours it), and
// `matrix --all` put that line raw on stderr. Here the default set alone (C),
// and musl's line as the build writes it.
TEST(reports, a_skipped_sets_compiler_message_cannot_attack_a_terminal) {
  const std::string built = targets_dir_of_flushcheck(), dir = test_path("targets");
  ASSERT_FALSE(built.empty());
  fs::create_directory(dir);
  fs::create_symlink(built + "/stdio_script", dir + "/stdio_script");
  std::ofstream(dir + "/skipped-sets.txt")
      << "musl\tdid not build (it needs musl-tools): musl-gcc exited with 1: " << attack << "\n";
  const auto r = cli({"matrix", "--all", "--targets", dir});
  EXPECT_LT(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("note: toolchain set musl not run: did not build"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("pwned"), std::string::npos) << "the reason is shown: " << r.err;
  expect_harmless(r, "", "matrix --all's note of a skipped set");
}

}  // namespace
}  // namespace flushcheck
