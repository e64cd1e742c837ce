// The flushcheck CLI as a user runs it, driven by the harness itself:
// JSON contract, exit codes, one-line errors, and programs no one here wrote.
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
#include "cli_runner.hpp"
#include "conformance.hpp"
#include "matrix_baseline.hpp"
#include "run.hpp"
#include "run_report.hpp"

namespace flushcheck {
namespace {

nlohmann::json run_json(std::vector<std::string> args,
                        std::vector<std::string> env = clean_environment()) {
  args.insert(args.begin(), {"run", "--json"});
  auto r = cli(args, std::move(env));
  EXPECT_EQ(r.code, 0) << r.err;
  return nlohmann::json::parse(r.out);
}

/// The destination with ROLE in a "writes" list (null if none).
nlohmann::json with_role(const nlohmann::json& writes, const std::string& role) {
  for (const auto& d : writes)
    if (d["role"] == role) return d;
  return nullptr;
}

void expect_one_line_error(const cli_result& r, int code, const std::string& needle) {
  EXPECT_EQ(r.code, code) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(r.err.rfind("flushcheck: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
}

TEST(cli, json_contract) {
  auto j = run_json({"--stdout=pipe", "--", "/bin/sh", "-c", "echo hi; echo oops >&2; exit 3"});
  EXPECT_EQ(j["exit"]["status"], "exited");
  EXPECT_EQ(j["exit"]["code"], 3);
  EXPECT_EQ(j["stdout"]["data"], "hi\n");
  EXPECT_EQ(j["stdout"]["bytes"], 3);
  EXPECT_EQ(j["stdout"]["sink"], "pipe");
  EXPECT_EQ(j["stderr"]["data"], "oops\n");
  EXPECT_TRUE(j["stdout"]["chunks"].is_array());
  EXPECT_TRUE(j["kill"].is_null());
  EXPECT_TRUE(j["markers"].is_array());
  EXPECT_EQ(j["faults"], nlohmann::json::array());
}

TEST(cli, the_programs_peak_memory_is_reported_untraced_and_null_traced) {
  // 64 MiB touched (a bytearray is zero-filled): wait4's ru_maxrss holds it.
  const std::vector<std::string> prog = {"--", "python3", "-c", "b = bytearray(64 << 20)"};
  std::vector<std::string> plain = {"--stdout=pipe"}, traced = {"--stdout=pipe", "--trace"};
  plain.insert(plain.end(), prog.begin(), prog.end());
  traced.insert(traced.end(), prog.begin(), prog.end());
  auto j = run_json(plain);
  EXPECT_GE(j["peak_rss_kib"].get<long>(), 64 << 10);
  EXPECT_LT(j["peak_rss_kib"].get<long>(), 1 << 20);  // not the harness's, nor a sum
  EXPECT_TRUE(run_json(traced)["peak_rss_kib"].is_null());
}

TEST(cli, faults_are_listed_in_the_json_and_the_summary) {
  auto j = run_json(
      {"--fault=EIO@write:1", "--fault=ENOSPC@write:7", "--", "/bin/sh", "-c", "echo a; echo b"});
  ASSERT_EQ(j["faults"].size(), 2u);
  EXPECT_EQ(j["faults"][0]["spec"], "EIO@write:1");
  EXPECT_EQ(j["faults"][0]["reached"], true);
  EXPECT_EQ(j["faults"][0]["events"][0]["result"], "EIO");
  EXPECT_EQ(j["faults"][0]["events"][0]["syscall"], "write");
  EXPECT_EQ(j["faults"][1]["reached"], false);
  EXPECT_EQ(j["stdout"]["data"], "b\n");
  auto r = cli({"run", "--fault=EIO@write:1", "--fault=ENOSPC@write:7", "--", "/bin/sh", "-c",
                "echo a; echo b"});
  EXPECT_NE(r.out.find("fault:   EIO@write:1: write #1 (2 bytes): EIO at "), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("fault:   ENOSPC@write:7: never reached\n"), std::string::npos) << r.out;
}

TEST(cli, json_is_valid_whatever_bytes_argv_labels_paths_and_notes_hold) {
  // Not UTF-8 in an argument (a path), a marker label, a traced path and an
  // environment note: each is encoded as "data" is, byte -> code point.
  const std::string bad = "\xff\xfe";
  const std::string path =
      ::testing::TempDir() + "flushcheck_bytes_" + bad + "." + std::to_string(::getpid());
  auto env = clean_environment();
  env.push_back("PYTHONUNBUFFERED=" + bad);
  const std::string script =
      "printf 'label\\377\\n' >&3; head -c 1 <&3 >/dev/null; echo x > \"$1\"; printf 'o\\376'";
  auto r = cli({"run", "--json", "--trace", "--", "/bin/sh", "-c", script, "sh", path}, env);
  std::remove(path.c_str());
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["argv"].back(), bytes_as_code_points(path));
  ASSERT_EQ(j["markers"].size(), 1u);
  EXPECT_EQ(j["markers"][0]["label"], bytes_as_code_points("label\xff"));
  EXPECT_EQ(j["stdout"]["data"], bytes_as_code_points("o\xfe"));
  bool path_seen = false;
  for (const auto& d : j["writes"]) path_seen |= d["what"] == bytes_as_code_points(path);
  EXPECT_TRUE(path_seen) << j["writes"].dump();
  ASSERT_FALSE(j["notes"].empty());
  EXPECT_EQ(
      j["notes"][0].get<std::string>().rfind(bytes_as_code_points("PYTHONUNBUFFERED=" + bad), 0),
      0u);
}

TEST(cli, signaled_child_is_reported_as_such) {
  auto j = run_json({"--", "/bin/sh", "-c", "kill -SEGV $$"});
  EXPECT_EQ(j["exit"]["status"], "signaled");
  EXPECT_EQ(j["exit"]["signal"], "SEGV");
}

// What to type instead: a misspelled verb, a program's arguments without
// "--", sizes with units as everywhere, a reader where nothing is read.
TEST(cli, usage_errors_say_what_to_type_instead) {
  expect_one_line_error(cli({"rnu", "--", "true"}), 2,
                        "'rnu' is not a verb (run, matrix, count, explore, gate, bench, doctor, "
                        "model, targets, workload, durability): "
                        "did you mean run?");
  expect_one_line_error(cli({"run", "python3", "-c", "print(1)"}), 2,
                        "the program and its arguments follow --");
  expect_one_line_error(cli({"run", "--pipe-size=abc", "--", "true"}), 2,
                        "--pipe-size=abc: expected bytes from 1 to 1G");
  auto sized = run_json({"--pipe-size=64K", "--", "/bin/sh", "-c", "echo x"});
  EXPECT_EQ(sized["stdout"]["pipe_size"], 65536);
  for (const char* sink : {"file", "null"})
    expect_one_line_error(
        cli({"run", std::string("--stdout=") + sink, "--reader=paused", "--", "true"}), 2,
        "only a pipe or a pty is read while the program runs");
  expect_one_line_error(cli({"explore", "--stdout=pty,,pipe", "--", "true"}), 2,
                        "--stdout=pty,,pipe: an empty sink kind between commas");
}

// A buffering variable is named where it applies: PYTHONUNBUFFERED for
// Python (and a shell, which may start it), not for a C program.
TEST(cli, a_buffering_variable_is_noted_only_where_it_applies) {
  auto env = clean_environment();
  env.push_back("PYTHONUNBUFFERED=1");
  auto c = run_json({"--", FLUSHCHECK_TARGET_STDIO_SCRIPT, "line 3; exit 0"}, env);
  EXPECT_EQ(c["notes"].dump().find("PYTHONUNBUFFERED"), std::string::npos) << c["notes"];
  auto py = run_json({"--", "python3", "-c", "print(1)"}, env);
  EXPECT_NE(py["notes"].dump().find("PYTHONUNBUFFERED=1: Python programs get unbuffered"),
            std::string::npos)
      << py["notes"];
}

TEST(cli, usage_errors_exit_2_with_one_line) {
  expect_one_line_error(cli({"run", "--stdout=bogus", "--", "true"}), 2, "--stdout=bogus");
  expect_one_line_error(cli({"run", "--kill=NOPE@marker:1", "--", "true"}), 2, "unknown signal");
  expect_one_line_error(cli({"run", "--kill=KILL@write:0", "--", "true"}), 2, "count from 1");
  expect_one_line_error(cli({"count", "--backend=bogus", "--", "true"}), 2,
                        "expected ptrace, bpf, perf or auto");
  expect_one_line_error(cli({"run", "--no-such-flag", "--", "true"}), 2, "no-such-flag");
  expect_one_line_error(cli({"run", "--fault=EAGAN@write:1", "--", "true"}), 2,
                        "unknown errno 'EAGAN'");
  expect_one_line_error(cli({"count", "--fault=EIO@random=0.5", "--", "true"}), 2, "needs a seed");
  expect_one_line_error(cli({"run"}), 2, "command");
  expect_one_line_error(cli({}), 2, "subcommand");
}

// A value with a newline in it made a two-line error.
TEST(cli, a_value_with_a_newline_still_makes_a_one_line_error) {
  expect_one_line_error(cli({"run", "--kill=a\nb", "--", "true"}), 2, "--kill=a\\nb: ");
  expect_one_line_error(cli({"run", "--stdout=p\nx", "--", "true"}), 2, "--stdout=p\\nx: ");
  expect_one_line_error(cli({"run", "--", "no\nsuch"}), 3, "no\\nsuch");
  expect_one_line_error(cli({"gate", "no\nsuch.toml"}), 2, "no\\nsuch.toml");
}

// The message said "unprivileged" to root: it names what bounds the size.
TEST(cli, a_refused_pipe_size_names_what_bounds_it) {
  auto r = cli({"run", "--pipe-size=1G", "--", "true"});
  if (r.code == 0) GTEST_SKIP() << "this process may give a pipe 1 GiB (CAP_SYS_RESOURCE)";
  expect_one_line_error(r, 2, "a pipe of 1073741824 bytes: ");
  EXPECT_EQ(r.err.find("unprivileged"), std::string::npos) << r.err;
  const bool pipe_max = r.err.find("CAP_SYS_RESOURCE") != std::string::npos;
  EXPECT_TRUE(pipe_max || r.err.find("pipe-user-pages-hard") != std::string::npos) << r.err;
  if (pipe_max && ::geteuid() == 0) {
    EXPECT_NE(r.err.find("though it runs as root"), std::string::npos) << r.err;
  }
}

// --baseline --html wrote nothing and said nothing.
TEST(cli, matrix_baseline_reports_only_as_text_or_json) {
  expect_one_line_error(cli({"matrix", "--baseline", "x.json", "--html", "x.html"}), 2,
                        "--html: --baseline reports as text or --json");
  expect_one_line_error(cli({"matrix", "--baseline", "x.json", "--markdown"}), 2,
                        "--markdown: --baseline reports as text or --json");
}

// doctor looked PROG up on its clean PATH: `doctor -- python3` diagnosed
// /usr/bin/python3 when the caller's python3 was another.
TEST(cli, doctor_runs_the_program_the_callers_path_finds) {
  const std::string dir = test_path("bin");
  std::filesystem::create_directories(dir);
  const std::string prog = dir + "/flushcheck-own-prog";
  std::ofstream(prog) << "#!/bin/sh\necho mine\n";
  ::chmod(prog.c_str(), 0755);
  auto env = clean_environment();
  for (auto& kv : env)
    if (kv.starts_with("PATH=")) kv = "PATH=" + dir + ":" + kv.substr(5);
  const auto r = cli({"doctor", "--json", "--", "flushcheck-own-prog"}, env);
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["argv"][0], prog) << r.out;
}

// The text matrix had no header row, and long observed values ran together.
TEST(cli, matrix_text_names_its_columns_and_keeps_values_apart) {
  const auto r = cli({"matrix"});
  ASSERT_LT(r.code, 2) << r.err;
  std::istringstream lines(r.out);
  std::string line, header;
  while (std::getline(lines, line) && header.empty())
    if (line.find("pty") != std::string::npos) header = line;
  const auto pty = header.find("pty"), pipe = header.find("pipe"), file = header.find("file");
  ASSERT_TRUE(pty != std::string::npos && pty < pipe && pipe < file) << header;
  std::size_t rows = 0;
  while (std::getline(lines, line) && line.find(" cases, ") == std::string::npos) {
    if (line.size() <= file || line.rfind("  ", 0) != 0) continue;  // a group's title
    ++rows;
    EXPECT_EQ(line.substr(pipe - 2, 2), "  ") << "the pipe column starts after two spaces:\n"
                                              << header << "\n"
                                              << line;
    EXPECT_EQ(line.substr(file - 2, 2), "  ") << "the file column starts after two spaces:\n"
                                              << header << "\n"
                                              << line;
  }
  EXPECT_GT(rows, 50u);
}

TEST(cli, numbers_are_range_checked) {
  // once: time:9223372036854 overflowed the deadline arithmetic and fired at once
  expect_one_line_error(cli({"run", "--kill=KILL@time:9223372036854", "--", "true"}), 2,
                        "not a number from 0 to 86400000");
  expect_one_line_error(cli({"run", "--kill=KILL@write:99999999999999999", "--", "true"}), 2,
                        "not a number from 0 to 1000000000000");
  // flushcheck's words, not CLI11's (CLI::Range's changed from 2.1 to 2.4)
  for (const char* t : {"0", "-1", "99999999999", "1e3", "abc"})
    expect_one_line_error(cli({"count", std::string("--timeout=") + t, "--", "true"}), 2,
                          std::string(t) + " is not a number from 1 to 86400000");
  expect_one_line_error(cli({"doctor", "--timeout=99", "--", "true"}), 2,
                        "99 is not a number from 100 to 600000");
  // doctor's old spelling of --timeout still works (docs/cli.md)
  expect_one_line_error(cli({"doctor", "--deadline=99", "--", "true"}), 2,
                        "99 is not a number from 100 to 600000");
  expect_one_line_error(cli({"run", "--timeout=", "--", "true"}), 2, "--timeout=: empty value");
}

TEST(cli, unnamed_signals_are_named_as_kill_l_does) {
  auto j = run_json({"--", "/bin/sh", "-c", "kill -64 $$"});
  EXPECT_EQ(j["exit"]["signal"], "RTMAX");
  j = run_json({"--", "/bin/sh", "-c", "kill -40 $$"});
  EXPECT_EQ(j["exit"]["signal"], "RTMIN+6");
  auto r = cli({"run", "--kill=RTMIN+2@time:0", "--", "/bin/sleep", "5"});
  EXPECT_NE(r.out.find("exit:    killed by SIGRTMIN+2"), std::string::npos) << r.out;
}

TEST(cli, a_closed_stdout_is_a_harness_failure_not_a_lost_report) {
  run_options o;
  o.argv = {"/bin/sh", "-c", "exec \"$0\" run -- /bin/true >&-", FLUSHCHECK_TARGET_FLUSHCHECK};
  o.env = clean_environment();
  auto obs = run(o);
  EXPECT_EQ(obs.status, wait_status::exited(4));
  EXPECT_EQ(obs.err.data, std::string("flushcheck: the report could not be written to stdout: ") +
                              std::strerror(EBADF) + "\n");
}

/// Whether PID is a live process (not gone, not a zombie).
bool alive(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat;
  if (!std::getline(in, stat)) return false;
  auto close = stat.rfind(')');
  return close != std::string::npos && stat.size() > close + 2 && stat[close + 2] != 'Z';
}

bool gone_within_2s(pid_t pid) {
  for (int i = 0; i < 200 && alive(pid); ++i) ::usleep(10000);
  return !alive(pid);
}

TEST(cli, a_setsid_descendant_does_not_outlive_the_run) {
  // Once it did, in untraced runs, while the report said the group was killed.
  for (const char* trace : {"--stdout=pipe", "--trace"}) {
    auto r = cli({"run", "--json", trace, "--", "/bin/sh", "-c",
                  "setsid sleep 30 </dev/null >/dev/null 2>&1 & echo $!"});
    ASSERT_EQ(r.code, 0) << r.err;
    auto j = nlohmann::json::parse(r.out);
    pid_t pid = static_cast<pid_t>(std::stol(j["stdout"]["data"].get<std::string>()));
    bool was_gone = gone_within_2s(pid);
    if (!was_gone) ::kill(pid, SIGKILL);
    EXPECT_TRUE(was_gone) << trace;
    if (std::string(trace) == "--trace") continue;  // the tracer followed and killed it
    EXPECT_NE(j["notes"].dump().find("(pid " + std::to_string(pid) +
                                     ")"),  // sleep, or setsid before its exec
              std::string::npos)
        << trace << " " << j["notes"].dump();
  }
}

TEST(cli, interrupted_run_leaves_no_sink_file_and_no_child) {
  std::string dir = ::testing::TempDir() + "flushcheck_interrupt." + std::to_string(::getpid());
  ::mkdir(dir.c_str(), 0700);
  std::string pidfile = dir + "/pid";
  for (const char* sig : {"TERM", "INT", "HUP", "KILL"}) {
    run_options o;
    // the program writes its pid where the sink files are not
    o.argv = {
        "/bin/sh", "-c",
        R"(TMPDIR=$1/tmp "$0" run --stdout=file -- /bin/sh -c 'echo $$ > "$1"; exec sleep 30' )"
        R"(sh "$1/pid" & while [ ! -s "$1/pid" ]; do sleep 0.01; done; kill -)" +
            std::string(sig) + " $!; wait",
        FLUSHCHECK_TARGET_FLUSHCHECK, dir};
    o.env = clean_environment();
    o.timeout = std::chrono::milliseconds(20000);
    ::mkdir((dir + "/tmp").c_str(), 0700);
    run(o);
    std::ifstream in(pidfile);
    pid_t pid = 0;
    in >> pid;
    ASSERT_GT(pid, 0) << sig;
    EXPECT_TRUE(gone_within_2s(pid)) << "SIG" << sig << ": the child outlived the harness";
    if (alive(pid)) ::kill(pid, SIGKILL);
    std::remove(pidfile.c_str());
    if (std::string(sig) != "KILL")  // nothing can clean up after SIGKILL
      EXPECT_EQ(::rmdir((dir + "/tmp").c_str()), 0) << "SIG" << sig << ": a sink file is left";
    else
      std::system(("rm -rf '" + dir + "/tmp'").c_str());
  }
  ::rmdir(dir.c_str());
}

TEST(cli, script_errors_say_what_is_wrong) {
  for (const char* script : {"exit -1", "setvbuf full -1", "_exit +3"}) {
    run_options o;
    o.argv = {FLUSHCHECK_TARGET_STDIO_SCRIPT, script};
    o.env = clean_environment();
    auto obs = run(o);
    EXPECT_NE(obs.err.data.find("expects a count (0 to 1000000000)"), std::string::npos)
        << script << ": " << obs.err.data;
  }
}

TEST(cli, missing_program_exits_3_with_one_line) {
  expect_one_line_error(cli({"run", "--", "no-such-program-flushcheck"}), 3, "not found in PATH");
  std::string plain = ::testing::TempDir() + "flushcheck_plain_file";
  std::string garbage = ::testing::TempDir() + "flushcheck_garbage_exe";
  for (const auto& [path, mode] : {std::pair{plain, 0644}, std::pair{garbage, 0755}}) {
    std::FILE* f = std::fopen(path.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fputs("not a program\n", f);
    std::fclose(f);
    ::chmod(path.c_str(), static_cast<mode_t>(mode));
  }
  expect_one_line_error(cli({"run", "--", plain}), 3, "not executable");
  expect_one_line_error(cli({"run", "--", garbage}), 3, "Exec format error");
  // under the tracer the exec error cannot come back through Boost.Process's pipe
  expect_one_line_error(cli({"run", "--trace", "--", garbage}), 3, "Exec format error");
  expect_one_line_error(cli({"run", "--", ::testing::TempDir()}), 3, "is a directory");
}

// docs/cli.md "Reports": --json alone prints the report instead of the text,
// --json=FILE writes it to FILE beside the text; two reports cannot share stdout.
TEST(cli, a_report_goes_to_stdout_or_to_the_file_given_with_equals) {
  const std::string path = test_path("run-report.json");
  auto both = cli({"run", "--json=" + path, "--", "/bin/sh", "-c", "echo hi"});
  ASSERT_EQ(both.code, 0) << both.err;
  EXPECT_EQ(both.out.find("\"kind\""), std::string::npos) << "the text, not the JSON: " << both.out;
  std::ifstream in(path);
  auto j = nlohmann::json::parse(in);
  EXPECT_EQ(j["kind"], "run");
  EXPECT_EQ(j["stdout"]["data"], "hi\n");
  expect_one_line_error(cli({"run", "--json=/nonexistent-dir/x.json", "--", "true"}), 2,
                        "--json=/nonexistent-dir/x.json: cannot write it");
  expect_one_line_error(cli({"matrix", "--json", "--markdown"}), 2,
                        "--json and --markdown: both would print to stdout");
}

// Each verb's help lists its own options and its exit statuses, in one shape
// (not CLI11's wording: its "Usage" header changed case from 2.4 to 2.5).
TEST(cli, every_verb_has_help) {
  const std::pair<const char*, const char*> verbs[] = {
      {"run", "--kill"},         {"matrix", "--baseline"}, {"count", "--backend"},
      {"explore", "--max-cuts"}, {"doctor", "--timeout"},  {"gate", "--json"},
      {"bench", "--compare"},    {"model", "--cases"},     {"targets", "--sets"}};
  for (const auto& [verb, option] : verbs) {
    auto r = cli({verb, "--help"});
    EXPECT_EQ(r.code, 0) << verb;
    EXPECT_NE(r.out.find(option), std::string::npos) << r.out;
    const auto exit = r.out.find("Exit status: 0 ");  // usage.cpp's exit_footer, one shape
    ASSERT_NE(exit, std::string::npos) << "one shape: " << r.out;
    const bool usage = r.out.find(" 2 ", exit) != std::string::npos ||
                       r.out.find("\n2 ", exit) != std::string::npos;
    EXPECT_TRUE(usage) << "every verb has usage errors: " << r.out;
    for (char d = '0'; d <= '9'; ++d)  // a status never ends a line, apart from its meaning
      EXPECT_EQ(r.out.find(std::string(1, d) + "\n", exit), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("{-}"), std::string::npos) << "a report flag reads --json[=FILE]";
  }
}

TEST(cli, grandchild_holding_stdout_ends_at_the_deadline) {
  auto j = run_json({"--timeout=400", "--", "/bin/sh", "-c", "sleep 30 & echo started"});
  EXPECT_EQ(j["exit"]["status"], "exited");
  EXPECT_EQ(j["stdout"]["data"], "started\n");
  EXPECT_LT(j["duration_us"].get<long>(), 20000000);  // not sleep's 30 s
}

// Python (no one here wrote it) speaks the marker protocol through fd 3.
const std::string k_python =
    "import os; print('first line'); os.write(3, b'cut\\n'); os.read(3, 1); print('second')";

TEST(cli, python_print_survival_by_sink_and_environment) {
  struct row {
    const char* sink;
    bool unbuffered;
    const char* survived;
  };
  for (auto [sink, unbuffered, survived] :
       {row{"pipe", false, ""}, row{"file", false, ""}, row{"pty", false, "first line\n"},
        row{"pipe", true, "first line\n"}, row{"file", true, "first line\n"}}) {
    auto env = clean_environment();
    if (unbuffered) env.push_back("PYTHONUNBUFFERED=1");
    auto j = run_json({std::string("--stdout=") + sink, "--kill=KILL@marker:1", "--",
                       "/usr/bin/python3", "-c", k_python},
                      env);
    SCOPED_TRACE(std::string(sink) + (unbuffered ? " PYTHONUNBUFFERED=1" : ""));
    EXPECT_EQ(j["exit"]["status"], "signaled");
    EXPECT_EQ(j["kill"]["delivered"], true);
    EXPECT_EQ(j["stdout"]["data"], survived);
    bool noted = j["notes"].dump().find("PYTHONUNBUFFERED") != std::string::npos;
    EXPECT_EQ(noted, unbuffered);
  }
}

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

TEST(cli, shell_echo_is_unbuffered_everywhere) {
  for (const char* sink : {"pipe", "pty", "file"}) {
    auto j = run_json({std::string("--stdout=") + sink, "--kill=KILL@marker:1", "--", "/bin/sh",
                       "-c", "echo one; echo cut >&3; read x <&3; echo two"});
    EXPECT_EQ(j["stdout"]["data"], "one\n") << sink;
    EXPECT_EQ(j["markers"][0]["visible"]["stdout"], 4) << sink;
  }
}

TEST(cli, program_built_against_musl) {
  const std::string musl = FLUSHCHECK_MUSL_STDIO_SCRIPT;
  if (musl.empty()) GTEST_SKIP() << "musl-gcc not installed (ci/setup installs musl-tools)";
  // musl decides between line and full buffering at stdout's first write
  // (src/stdio/__stdout_write.c: lbf starts as '\n', becomes -1 when the
  // TIOCGWINSZ ioctl fails), so the first line reaches a pipe or file at
  // once and later lines wait. glibc decides before the first write: nothing.
  for (auto [sink, survived] :
       {std::pair{"pipe", "AAA\n"}, std::pair{"pty", "AAA\nBB\n"}, std::pair{"file", "AAA\n"}}) {
    auto j = run_json({std::string("--stdout=") + sink, "--kill=KILL@marker:1", "--", musl,
                       "line 3; line 2; write 2; marker cut; line 1"});
    EXPECT_EQ(j["exit"]["status"], "signaled") << sink;
    EXPECT_EQ(j["exit"]["signal"], "KILL") << sink;
    EXPECT_EQ(j["kill"]["delivered"], true) << sink;
    EXPECT_EQ(j["stdout"]["data"], survived) << sink;
    j = run_json({std::string("--stdout=") + sink, "--", musl, "line 3; write 2; exit 3"});
    EXPECT_EQ(j["exit"]["code"], 3) << sink;
    EXPECT_EQ(j["stdout"]["data"], "AAA\nBB") << sink;
  }
}

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

// docs/cli.md "JSON documents": each names its kind and that kind's schema,
// and stays valid JSON whatever bytes the program gave it.
TEST(cli, run_and_explore_json_name_their_kind_and_schema) {
  const std::string bad = "\xff\xfe";
  auto run = cli({"run", "--json", "--", "/bin/sh", "-c", "printf 'a\\377\\n'", bad});
  ASSERT_EQ(run.code, 0) << run.err;
  auto j = nlohmann::json::parse(run.out);
  EXPECT_EQ(j["kind"], "run");
  EXPECT_EQ(j["schema"], 2);
  auto explore = cli({"explore", "--json", "--stdout=pipe", "--", "/bin/sh", "-c", "echo a"});
  ASSERT_EQ(explore.code, 0) << explore.err;
  j = nlohmann::json::parse(explore.out);
  EXPECT_EQ(j["kind"], "explore");
  EXPECT_EQ(j["schema"], 2);
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

TEST(cli, summary_names_what_survived) {
  auto r = cli({"run", "--stdout=pty", "--kill=KILL@marker:1", "--", FLUSHCHECK_TARGET_STDIO_SCRIPT,
                "line 3; write 2; marker cut; line 1"});
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("exit:    killed by SIGKILL"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("survived: \"AAA\\n\""), std::string::npos) << r.out;
}

TEST(cli, matrix_all_puts_toolchains_side_by_side) {
  auto r = cli({"matrix", "--all", "--markdown"});
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("| property | tier | default |"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("### Differences between implementations"), std::string::npos);
  if (std::string(FLUSHCHECK_MUSL_STDIO_SCRIPT).empty()) GTEST_SKIP() << "musl not built";
  // musl sends the first line to a pipe at once; glibc holds it (each value
  // with the sets that saw it and a run that repeats it).
  const auto line = r.out.find("\n- stdout.first_line_early [C] pipe:\n  - `default`");
  ASSERT_NE(line, std::string::npos) << r.out;
  const auto glibc =
      r.out.find(": first line out at once: 0 of 4 bytes; after the second: 0 of 7.", line);
  const auto musl =
      r.out.find("`musl`: first line out at once: 4 of 4 bytes; after the second: 4 of 7.", line);
  const auto repro =
      r.out.find("targets/musl/stdio_script' 'line 3; marker first; line 2; marker second'`", line);
  EXPECT_LT(glibc, musl) << r.out.substr(line, 2000);
  EXPECT_LT(musl, repro) << r.out.substr(line, 2000);
  EXPECT_NE(repro, std::string::npos);
}

TEST(cli, matrix_html_page_loads_in_headless_chromium) {
  std::string page = ::testing::TempDir() + "flushcheck_matrix.html";
  auto r = cli({"matrix", "--all", "--html", page});
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  long rows = std::stol(r.out.substr(r.out.find(": ") + 2));  // "wrote F: N rows x M sets"
  auto loaded = headless_dom(page);
  if (!loaded) GTEST_SKIP() << "chromium not installed (ci/setup installs Debian's chromium)";
  const std::string& dom = *loaded;  // the DOM after the page loaded
  // for people: the summary, the FAILs and the differences before the lines
  const auto summary = dom.find("<section id=\"summary\">");
  const auto failures = dom.find("<section id=\"failures\">");
  const auto differences = dom.find("<section id=\"differences\">");
  const auto lines = dom.find("<section id=\"lines\">");
  ASSERT_NE(summary, std::string::npos) << dom.substr(0, 2000);
  EXPECT_LT(summary, failures);
  EXPECT_LT(failures, differences);
  EXPECT_LT(differences, lines);
  EXPECT_LT(lines, dom.find("<details class=\"group\""));
  // a line per row, in a collapsible section per group of the catalogue
  EXPECT_EQ(occurrences(dom, "<tr class=\"line\">"), static_cast<std::size_t>(rows));
  std::set<std::string> groups;
  for (const auto& p : catalogue()) groups.insert(p.group);
  EXPECT_EQ(occurrences(dom, "<details class=\"group\""), groups.size());
  EXPECT_NE(dom.find("<b>musl</b>"), std::string::npos);
  // self-contained: no script, nothing fetched
  EXPECT_EQ(dom.find("<script"), std::string::npos);
  EXPECT_EQ(dom.find("src="), std::string::npos);
  EXPECT_EQ(dom.find("http://"), std::string::npos);
  EXPECT_EQ(dom.find("https://"), std::string::npos);
}

/// A matrix record names the machine it was made on, as uname and
/// os-release say, and when.
void expect_this_machine(const nlohmann::json& m) {
  struct utsname u {};
  ASSERT_EQ(::uname(&u), 0);
  EXPECT_EQ(m["kernel"], u.release);
  EXPECT_EQ(m["arch"], u.machine);
  EXPECT_EQ(m["cpus"], ::sysconf(_SC_NPROCESSORS_ONLN));
  std::ifstream os("/etc/os-release");
  std::string text((std::istreambuf_iterator<char>(os)), std::istreambuf_iterator<char>());
  const std::string id = m["id"];
  EXPECT_NE(text.find("ID=" + id.substr(0, id.find(' '))), std::string::npos) << id;
  EXPECT_NE(text.find(m["distribution"].get<std::string>()), std::string::npos);
  EXPECT_EQ(m["flushcheck"], FLUSHCHECK_PROJECT_VERSION);
  EXPECT_TRUE(std::regex_match(m["time"].get<std::string>(),
                               std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)")));
}

TEST(cli, matrix_json_has_one_schema_for_one_set_and_for_all) {
  for (bool all : {false, true}) {
    auto r = all ? cli({"matrix", "--all", "--json"}) : cli({"matrix", "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["kind"], "matrix");
    EXPECT_EQ(j["schema"], 2);
    expect_this_machine(j["machine"]);
    ASSERT_TRUE(j["columns"].is_array());
    EXPECT_EQ(j["columns"][0]["name"], "default");
    // the libraries in words: "glibc 2.36, libstdc++ 12 (20220819)"
    const std::string libs = j["columns"][0]["version"];
    EXPECT_TRUE(std::regex_search(libs, std::regex(R"(^glibc 2\.\d+, libstdc\+\+ \d+ \(\d{8}\))")))
        << libs;
    if (!all) {
      EXPECT_EQ(j["columns"].size(), 1u);
    }
    EXPECT_EQ(j["failures"], 0);
    ASSERT_FALSE(j["rows"].empty());
    std::size_t cells = 0;
    for (const auto& row : j["rows"]) {
      EXPECT_TRUE(row["property"].is_string());
      for (const auto& cell : row["cells"]) {
        EXPECT_TRUE(cell["repro"].get<std::string>().find("flushcheck run") != std::string::npos);
        ++cells;
      }
    }
    std::size_t cases = 0;
    for (const auto& c : j["columns"]) cases += c["cases"].get<std::size_t>();
    EXPECT_EQ(cells, cases) << (all ? "--all" : "one set");
  }
}

/// A directory of its own for a test's files, removed with them.
struct scratch_dir {
  std::string path = [] {
    char name[] = "/tmp/flushcheck-test-XXXXXX";
    return std::string(::mkdtemp(name));
  }();
  ~scratch_dir() { std::filesystem::remove_all(path); }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(path + "/" + name) << text;
    return path + "/" + name;
  }
};

// --jobs: a set's cases run on workers and are taken in the catalogue's
// order. The same rows and cells in the same order as on one worker, and
// each asserted-tier cell with the same verdict and value (observed-tier
// values, threads tearing lines, may differ from any run to the next).
TEST(cli, matrix_on_four_workers_has_the_cells_of_one) {
  auto one = cli({"matrix", "--json", "--jobs", "1"});
  auto four = cli({"matrix", "--json", "--jobs", "4"});
  ASSERT_EQ(one.code, 0) << one.err;
  ASSERT_EQ(four.code, 0) << four.err;
  const auto cells = [](const std::string& out) {
    std::vector<std::string> v;
    const auto j = nlohmann::json::parse(out);
    for (const auto& row : j["rows"])
      for (const auto& cell : row["cells"])
        v.push_back(row["property"].get<std::string>() + "/" + row["language"].get<std::string>() +
                    "/" + cell["sink"].get<std::string>() + ": " +
                    (row["tier"] == "observed" ? std::string("observed") : cell_verdict(cell)));
    return v;
  };
  const auto by_one = cells(one.out), by_four = cells(four.out);
  EXPECT_EQ(by_one, by_four);
  EXPECT_GT(by_one.size(), 100U);
}

// --baseline, the regression gate between two records: each changed cell
// with both values and its repro, the libraries that changed, exit 1.
TEST(cli, matrix_baseline_lists_each_changed_cell_with_both_values_and_its_repro) {
  auto made = cli({"matrix", "--json"});
  ASSERT_EQ(made.code, 0) << made.err;
  scratch_dir dir;
  const std::string before = dir.write("before.json", made.out);
  auto same = cli({"matrix", "--baseline", before, "--record", before});
  EXPECT_EQ(same.code, 0) << same.out;
  auto record = nlohmann::json::parse(made.out);
  nlohmann::json *asserted = nullptr, *observed = nullptr;
  std::size_t cells = 0;
  for (auto& row : record["rows"])
    for (auto& cell : row["cells"]) {
      ++cells;
      if (cell["skipped"] != "") continue;
      if (cell["asserted"] == true && cell["pass"] == true && asserted == nullptr) asserted = &cell;
      if (cell["asserted"] == false && observed == nullptr) observed = &cell;
    }
  ASSERT_TRUE(asserted != nullptr && observed != nullptr);
  (*asserted)["pass"] = false;
  const std::string seen = (*observed)["observed"];
  (*observed)["observed"] = seen + " (edited)";
  const std::string libs = record["columns"][0]["version"];
  record["columns"][0]["version"] = "glibc 9.99";
  const std::string after = dir.write("after.json", record.dump());

  auto r = cli({"matrix", "--baseline", before, "--record", after});
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  const std::string id = (*asserted)["id"];
  EXPECT_NE(r.out.find("changed " + id + " [default]: pass, observed "), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find(" -> FAIL, observed "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  repro: " + (*asserted)["repro"].get<std::string>()), std::string::npos);
  EXPECT_NE(r.out.find(" -> not asserted, observed " + seen + " (edited)"), std::string::npos);
  EXPECT_NE(r.out.find("libraries of default: " + libs + " -> glibc 9.99"), std::string::npos);
  EXPECT_NE(r.out.find("2 of " + std::to_string(cells) + " cells changed"), std::string::npos);
  auto j =
      nlohmann::json::parse(cli({"matrix", "--json", "--baseline", before, "--record", after}).out);
  EXPECT_EQ(j["changes"].size(), 2u);
  EXPECT_EQ(j["compared"], cells);
  EXPECT_EQ(j["confirmed"], 2u);  // nothing re-run between two saved records

  // A set only one record has is listed, and not compared.
  for (auto& row : record["rows"])
    for (auto& cell : row["cells"]) cell["column"] = "other";
  auto renamed =
      cli({"matrix", "--baseline", before, "--record", dir.write("o.json", record.dump())});
  EXPECT_EQ(renamed.code, 6) << "nothing compared is no verdict: " << renamed.out;
  EXPECT_NE(renamed.out.find("only in the baseline: default: " + std::to_string(cells) + " cells"),
            std::string::npos)
      << renamed.out;
  EXPECT_NE(renamed.out.find("0 of 0 cells changed"), std::string::npos);
}

// Against this machine's run, a changed cell is run 4 times more: a change
// that repeats fails the gate; one that does not (a race the program runs)
// varies and does not.
TEST(cli, matrix_baseline_reruns_a_change_before_it_counts) {
  auto made = cli({"matrix", "--json"});
  ASSERT_EQ(made.code, 0) << made.err;
  auto record = nlohmann::json::parse(made.out);
  nlohmann::json* cell = nullptr;
  for (auto& row : record["rows"])
    if (row["property"] == "death.exit_flushes" && row["language"] == "c")
      cell = &row["cells"][0];  // deterministic: exit flushes stdio, every run
  ASSERT_NE(cell, nullptr);
  const std::string real = cell_verdict(*cell);
  (*cell)["observed"] = "edited";
  scratch_dir dir;
  auto r = cli({"matrix", "--baseline", dir.write("edited.json", record.dump())});
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("changed " + (*cell)["id"].get<std::string>()), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("re-run 4 times here:\n    " + real + "\n    " + real), std::string::npos)
      << r.out;

  // The same change, where re-runs disagree: it varies, and no cell changed for good.
  auto now = nlohmann::json::parse(made.out);
  auto flip = [&, n = 0](const cell_change&) mutable {
    return std::vector<std::string>{real, ++n % 2 ? "not asserted, observed x" : real};
  };
  auto c = compare_records(record, now, "test", flip);
  ASSERT_EQ(c.changes.size(), 1u);
  EXPECT_TRUE(c.changes[0].varies());
  EXPECT_EQ(c.confirmed(), 0u);
  EXPECT_NE(record_changes_text(c).find("varies "), std::string::npos);
}

// --merge: saved records side by side, a column per record and set, the
// differences between them listed, in every format.
TEST(cli, matrix_merge_puts_records_side_by_side) {
  auto made = cli({"matrix", "--json"});
  ASSERT_EQ(made.code, 0) << made.err;
  auto record = nlohmann::json::parse(made.out);
  std::string id;
  for (auto& row : record["rows"])
    for (auto& cell : row["cells"])
      if (id.empty() && cell["asserted"] == false && cell["skipped"] == "") {
        cell["observed"] = "edited";
        id = cell["id"];
      }
  ASSERT_FALSE(id.empty());
  scratch_dir dir;
  const std::string a = dir.write("bookworm.json", made.out);
  const std::string b = dir.write("other.json", record.dump());

  auto j = nlohmann::json::parse(cli({"matrix", "--json", "--merge", a, b}).out);
  ASSERT_EQ(j["columns"].size(), 2u);
  EXPECT_EQ(j["columns"][0]["name"], "bookworm/default");
  EXPECT_EQ(j["columns"][1]["name"], "other/default");
  EXPECT_EQ(j["records"][1]["label"], "other");
  EXPECT_EQ(j["records"][0]["machine"], record["machine"]);
  ASSERT_EQ(j["differences"].size(), 1u) << j["differences"];
  EXPECT_EQ(j["differences"][0]["id"], id);
  std::size_t cells = 0;
  for (const auto& row : j["rows"]) cells += row["cells"].size();
  std::size_t one = 0;
  for (const auto& row : record["rows"]) one += row["cells"].size();
  EXPECT_EQ(cells, 2 * one);  // every cell of both records

  auto text = cli({"matrix", "--merge", a, b});
  EXPECT_EQ(text.code, 0) << text.err;
  EXPECT_NE(text.out.find("bookworm/default"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("edited"), std::string::npos);
  auto md = cli({"matrix", "--markdown", "--merge", a, b});
  EXPECT_NE(md.out.find("| bookworm/default | other/default |"), std::string::npos) << md.out;
  expect_one_line_error(cli({"matrix", "--merge", a, dir.write("x.json", "[]")}), 2,
                        "x: not a matrix record");
}

/// The records ci/distro made in Debian roots (docs/distros/RELEASE.json.gz),
/// unpacked into DIR as RELEASE.json, in name order.
std::vector<std::string> stored_debian_records(const scratch_dir& dir) {
  std::vector<std::string> out;
  const std::filesystem::path stored = std::string(FLUSHCHECK_SOURCE_DIR) + "/docs/distros";
  if (!std::filesystem::is_directory(stored)) return out;
  for (const auto& f : std::filesystem::directory_iterator(stored)) {
    const std::string name = f.path().filename().string();
    if (!name.ends_with(".json.gz")) continue;
    run_options o;
    o.argv = {"/bin/gzip", "-dc", f.path().string()};
    o.env = clean_environment();
    auto obs = run(o);
    EXPECT_EQ(obs.status, wait_status::exited(0)) << name << ": " << obs.err.data;
    out.push_back(dir.write(name.substr(0, name.size() - 3), obs.out.data));
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Section 4 of the distro issue: merge and baseline on records made in real
// Debian roots, not only on this machine's.
TEST(cli, matrix_merge_and_baseline_on_the_stored_debian_records) {
  scratch_dir dir;
  const auto records = stored_debian_records(dir);
  if (records.size() < 2) GTEST_SKIP() << "fewer than 2 records in docs/distros (ci/distro)";
  std::vector<std::string> args = {"matrix", "--json", "--merge"};
  args.insert(args.end(), records.begin(), records.end());
  auto merged = cli(args);
  ASSERT_LE(merged.code, 1) << merged.err;
  auto j = nlohmann::json::parse(merged.out);
  std::size_t columns = 0;
  for (std::size_t i = 0; i < records.size(); ++i) {
    auto one = nlohmann::json::parse(std::ifstream(records[i]));
    columns += one["columns"].size();
    EXPECT_EQ(j["records"][i]["label"], std::filesystem::path(records[i]).stem().string());
    EXPECT_EQ(j["records"][i]["machine"], one["machine"]);
  }
  EXPECT_EQ(j["columns"].size(), columns);
  // glibc 2.37 staged printf in a buffer of its own: releases on each side of
  // it differ on the large printf's write calls
  bool printf_differs = false;
  for (const auto& d : j["differences"])
    printf_differs |= d["id"] == "stdout.large_printf_write_calls/c/pty";
  std::set<bool> staged;  // per default set: glibc 2.37 or later?
  std::smatch minor;
  for (const auto& c : j["columns"]) {
    const std::string version = c["version"];
    if (c["name"].get<std::string>().ends_with("/default") &&
        std::regex_search(version, minor, std::regex(R"(^glibc 2\.(\d+))")))
      staged.insert(std::stoi(minor[1]) >= 37);
  }
  if (staged.size() == 2) {
    EXPECT_TRUE(printf_differs) << j["differences"].dump(1);
  }

  // the differences before the lines, in Markdown too
  args[1] = "--markdown";
  auto md = cli(args).out;
  EXPECT_LT(md.find("### Differences between implementations"),
            md.find("### Every line, by section"));

  // a record against itself: nothing changed; with one value edited: that one
  auto edited = nlohmann::json::parse(std::ifstream(records.back()));
  std::string id;
  for (auto& row : edited["rows"])
    for (auto& cell : row["cells"])
      if (id.empty() && cell["asserted"] == false && cell["skipped"] == "") {
        cell["observed"] = "edited";
        id = cell["id"];
      }
  auto same = cli({"matrix", "--baseline", records.back(), "--record", records.back()});
  EXPECT_EQ(same.code, 0) << same.out;
  auto one = cli({"matrix", "--baseline", records.back(), "--record",
                  dir.write("edited.json", edited.dump())});
  EXPECT_EQ(one.code, 1) << one.out;
  EXPECT_NE(one.out.find("changed " + id + " ["), std::string::npos) << one.out;
  EXPECT_NE(one.out.find("\n1 of "), std::string::npos) << one.out;
}

TEST(cli, matrix_baseline_refuses_what_is_not_a_record) {
  scratch_dir dir;
  expect_one_line_error(cli({"matrix", "--baseline", dir.write("a.json", "{}")}), 2,
                        "not a matrix record");
  expect_one_line_error(cli({"matrix", "--baseline", dir.write("b.json", "no")}), 2, "not JSON");
  expect_one_line_error(cli({"matrix", "--baseline", dir.path + "/none.json"}), 2,
                        "none.json: cannot read it");
  expect_one_line_error(cli({"matrix", "--record", dir.write("c.json", "{}")}), 2,
                        "compared only with a --baseline");
}

TEST(cli, matrix_markdown_has_the_table) {
  auto r = cli({"matrix", "--markdown"});
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("| property | tier | pty | pipe | file | full |"), std::string::npos);
  EXPECT_NE(r.out.find("| death.exit_flushes [C] | required | pass | pass | pass | - |"),
            std::string::npos)
      << r.out;
}

}  // namespace
}  // namespace flushcheck

namespace flushcheck {
namespace {

std::string source_file(const std::string& path) {
  std::ifstream in(std::string(FLUSHCHECK_SOURCE_DIR) + "/" + path);
  std::stringstream doc;
  doc << in.rdbuf();
  return doc.str();
}

TEST(docs, semantics_lists_every_property_as_the_catalogue_says) {
  // Golden: docs/semantics.md ends with `flushcheck matrix --properties`
  // (ci/update-docs rewrites it).
  auto r = cli({"matrix", "--properties"});
  ASSERT_EQ(r.code, 0);
  std::string text = source_file("docs/semantics.md");
  ASSERT_GE(text.size(), r.out.size());
  EXPECT_EQ(text.substr(text.size() - r.out.size()), r.out)
      << "docs/semantics.md is out of date: run ci/update-docs";
}

/// Every property named PREFIX.* is listed in DOC (generated by ci/update-docs).
int check_section_page(const std::string& doc_path, std::vector<std::string> prefixes) {
  auto r = cli({"matrix", "--properties"});
  EXPECT_EQ(r.code, 0);
  std::string doc = source_file(doc_path);
  std::istringstream lines(r.out);
  int listed = 0;
  for (std::string line; std::getline(lines, line);)
    for (const auto& p : prefixes)
      if (line.starts_with("- `" + p + ".")) {
        ++listed;
        EXPECT_NE(doc.find(line + "\n"), std::string::npos)
            << line << "\n"
            << doc_path << " is out of date: run ci/update-docs";
      }
  return listed;
}

TEST(docs, faults_lists_every_fault_and_backpressure_property) {
  EXPECT_GE(check_section_page("docs/faults.md", {"fault", "backpressure"}), 11);
}

TEST(docs, kernel_lists_every_pipe_concurrency_and_file_property) {
  EXPECT_GE(check_section_page("docs/kernel.md", {"pipe", "concurrency", "file"}), 5);
}

}  // namespace
}  // namespace flushcheck

namespace flushcheck {
namespace {

/// The fenced blocks of LANG ("sh", "python") in the page TEXT.
std::vector<std::string> fenced_blocks(const std::string& text, const std::string& lang) {
  std::vector<std::string> out;
  const std::string open = "```" + lang + "\n";
  for (auto at = text.find(open); at != std::string::npos; at = text.find(open, at + 1)) {
    const auto begin = at + open.size();
    const auto end = text.find("```", begin);
    if (end == std::string::npos) break;
    out.push_back(text.substr(begin, end - begin));
  }
  return out;
}

/// ARGV run as a shell runs it, without flushcheck: no fd past 2, the clean
/// environment; its exit code (-1 when it did not exit).
int run_alone(const std::vector<std::string>& argv) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close_range(3, ~0U, 0);
    std::vector<std::string> env = clean_environment();
    std::vector<char*> a, e;
    for (const auto& s : argv) a.push_back(const_cast<char*>(s.c_str()));
    for (const auto& s : env) e.push_back(const_cast<char*>(s.c_str()));
    a.push_back(nullptr);
    e.push_back(nullptr);
    ::execvpe(a[0], a.data(), e.data());
    ::_exit(127);
  }
  int status = 0;
  if (pid < 0 || ::waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) return -1;
  return WEXITSTATUS(status);
}

// The README promised a marker is a no-op outside flushcheck, and its own
// snippets failed alone (OSError: [Errno 9], "3: Bad file descriptor").
TEST(docs, marker_snippets_run_alone_and_mark_under_flushcheck) {
  const std::string page = source_file("docs/markers.md");
  std::vector<std::vector<std::string>> programs;
  for (const auto& b : fenced_blocks(page, "sh")) programs.push_back({"/bin/sh", "-c", b});
  for (const auto& b : fenced_blocks(page, "python")) programs.push_back({"python3", "-c", b});
  ASSERT_EQ(programs.size(), 2u) << "docs/markers.md's sh and python snippets";
  for (const auto& argv : programs) {
    EXPECT_EQ(run_alone(argv), 0) << argv[2];
    std::vector<std::string> args = {"run", "--json", "--"};
    args.insert(args.end(), argv.begin(), argv.end());
    const auto j = nlohmann::json::parse(cli(args).out);
    ASSERT_EQ(j["markers"].size(), 1u) << argv[2];
    EXPECT_EQ(j["markers"][0]["label"], "cut");
  }
}

// ---- model: a time budget, --only, and a harness that cannot make its files (issue 54)

/// A targets' directory whose stdio_script answers --version as the real
/// one (so that the set probes as glibc's) and hangs on every script.
std::string hanging_targets() {
  const std::string dir = test_path("hanging-targets");
  std::filesystem::create_directories(dir);
  const std::string script = dir + "/stdio_script";
  std::ofstream(script) << "#!/bin/sh\nif [ \"$1\" = --version ]; then exec '"
                        << FLUSHCHECK_TARGET_STDIO_SCRIPT << "' --version; fi\nexec sleep 600\n";
  std::filesystem::permissions(script, std::filesystem::perms::owner_all);
  return dir;
}

// A target that hangs took 200 s with --cases 2: every shrink candidate
// waited its 20 s. --max-seconds bounds the search and each run in it, and a
// run the budget cut short is no verdict: never "falsified after 0 cases".
TEST(model_verb, max_seconds_stops_a_hanging_target_without_a_verdict) {
  const auto start = std::chrono::steady_clock::now();
  const auto r = cli({"model", "--cases", "2", "--seed", "1", "--only", "c_markers_and_endings",
                      "--max-seconds", "2", "--targets", hanging_targets()});
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(r.code, 6) << r.out << r.err;
  EXPECT_NE(r.out.find("default/c_markers_and_endings: stopped at --max-seconds after 0 cases, of "
                       "2: nothing checked (the case cut short: "),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("falsified"), std::string::npos) << r.out;
  EXPECT_LT(seconds, 15) << "the 2 s budget, and not a 20 s deadline per run";
}

TEST(model_verb, max_seconds_ends_a_long_search_with_the_cases_it_checked) {
  const auto r = cli({"model", "--cases", "1000000", "--seed", "3", "--only",
                      "c_markers_and_endings", "--max-seconds", "1"});
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_EQ(r.out.rfind("default/c_markers_and_endings: stopped at --max-seconds after ", 0), 0U)
      << r.out;
  EXPECT_NE(r.out.find(" cases, of 1000000; they agree with the model (seed 3, "),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("after 0 cases"), std::string::npos) << r.out;
}

TEST(model_verb, refuses_an_empty_only_and_a_bad_budget) {
  expect_one_line_error(cli({"model", "--only", ""}), 2, "--only='': not a model property (");
  const auto bad = cli({"model", "--max-seconds", "nan"});
  EXPECT_EQ(bad.code, 2) << bad.err;
}

// TMPDIR where nothing can be made (a path under a regular file, which even
// root cannot write; a directory that does not exist): every verb that makes
// a file of its own stops with exit 4 and one line; `model` once reported
// each property "falsified", mkostemp's error inside.
TEST(cli, a_harness_file_that_cannot_be_made_is_exit_4_never_a_verdict) {
  const std::string gate = file_with("true.toml",
                                     "[[case]]\nname = \"true\"\ncommand = [\"/bin/true\"]\n"
                                     "[[case.expect]]\nexit_code = 0\n");
  for (const std::string tmpdir : {"/etc/passwd/x", "/nonexistent-flushcheck-tmpdir"}) {
    auto env = clean_environment();
    env.push_back("TMPDIR=" + tmpdir);
    expect_one_line_error(cli({"run", "--stdout=file", "--", "/bin/true"}, env), 4, tmpdir);
    expect_one_line_error(cli({"gate", gate}, env), 4, tmpdir);
    const auto model =
        cli({"model", "--cases", "100", "--seed", "1", "--only", "c_write_cuts"}, env);
    expect_one_line_error(model, 4, tmpdir);
    EXPECT_EQ(model.out.find("falsified"), std::string::npos) << model.out;
  }
}

}  // namespace
}  // namespace flushcheck
