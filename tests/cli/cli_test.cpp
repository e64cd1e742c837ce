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
#include "cli_checks.hpp"
#include "cli_runner.hpp"
#include "conformance.hpp"
#include "matrix_baseline.hpp"
#include "run.hpp"
#include "run_report.hpp"

namespace flushcheck {
namespace {

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

TEST(cli, summary_names_what_survived) {
  auto r = cli({"run", "--stdout=pty", "--kill=KILL@marker:1", "--", FLUSHCHECK_TARGET_STDIO_SCRIPT,
                "line 3; write 2; marker cut; line 1"});
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("exit:    killed by SIGKILL"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("survived: \"AAA\\n\""), std::string::npos) << r.out;
}

}  // namespace
}  // namespace flushcheck
