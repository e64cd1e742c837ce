// Ctrl-C, Ctrl-\, a kill of the CLI or a hang-up (SIGINT, SIGQUIT, SIGTERM, SIGHUP) leaves
// nothing behind: not the program, not a descendant that left its process
// group (setsid), not a temporary file or a gate's log directory.
#include <dirent.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <iostream>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "cli_runner.hpp"

extern char** environ;

namespace flushcheck {
namespace {

using namespace std::chrono_literals;

/// Starts ARGV with ENV ("NAME=value" each), as a shell starts a command,
/// its stdout into the file OUT (and its stderr into ERR, if not "").
pid_t start(const std::vector<std::string>& argv, const std::vector<std::string>& env,
            const std::string& out, const std::string& err = "") {
  std::vector<char*> a, e;
  for (const auto& s : argv) a.push_back(const_cast<char*>(s.c_str()));
  for (const auto& s : env) e.push_back(const_cast<char*>(s.c_str()));
  a.push_back(nullptr);
  e.push_back(nullptr);
  // SIGQUIT's default action dumps core: none here, in ctest's directory.
  const struct rlimit no_core { 0, 0 };
  ::setrlimit(RLIMIT_CORE, &no_core);
  posix_spawn_file_actions_t actions;
  ::posix_spawn_file_actions_init(&actions);
  ::posix_spawn_file_actions_addopen(&actions, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (!err.empty())
    ::posix_spawn_file_actions_addopen(&actions, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                       0644);
  pid_t pid = -1;
  EXPECT_EQ(::posix_spawn(&pid, a[0], &actions, nullptr, a.data(), e.data()), 0);
  ::posix_spawn_file_actions_destroy(&actions);
  return pid;
}

/// The bytes of PATH: "" when it cannot be opened, what came before the error
/// when a read fails. /proc/PID/cmdline of a process that ends while it is
/// read fails with ESRCH, which std::filebuf turns into an exception (it
/// failed CI once): a process that ended is simply not the one looked for.
std::string contents(const std::string& path) {
  std::string out;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return out;
  char buf[4096];
  for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0;) out.append(buf, static_cast<size_t>(n));
  ::close(fd);
  return out;
}

/// What is in DIR, a level down too: "flushcheck-gate-Ab12Cd/ app.log".
std::string listing(const std::string& dir) {
  std::string out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir))
    out += " " + e.path().lexically_relative(dir).string() + (e.is_directory() ? "/" : "");
  return out;
}

/// Waits (10 s at most) until DONE holds.
bool eventually(const std::function<bool()>& done) {
  for (int i = 0; i < 200; ++i) {
    if (done()) return true;
    std::this_thread::sleep_for(50ms);
  }
  return done();
}

/// A live (not zombie) process whose command line is exactly ARGV, or 0.
pid_t process_with(const std::vector<std::string>& argv) {
  std::string want;
  for (const auto& a : argv) want += a + '\0';
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    const std::string pid = entry.path().filename();
    if (pid.find_first_not_of("0123456789") != std::string::npos) continue;
    if (contents(entry.path() / "cmdline") != want) continue;
    const std::string text = contents(entry.path() / "stat");
    const auto close = text.rfind(')');
    if (close != std::string::npos && text.size() > close + 2 && text[close + 2] != 'Z')
      return std::stoi(pid);
  }
  return 0;
}

struct interrupt_case {
  int sig;
  const char* sink;
  bool traced;
};

void PrintTo(const interrupt_case& c, std::ostream* os) {
  *os << ::strsignal(c.sig) << " " << c.sink << (c.traced ? " traced" : "");
}

class interrupted_run : public ::testing::TestWithParam<interrupt_case> {};

TEST_P(interrupted_run, leaves_no_process_that_left_the_group) {
  const auto [sig, sink, traced] = GetParam();
  // A seconds value no other process has: the grandchild is found by it.
  const std::string seconds = std::to_string(3000 + sig) + "." + std::to_string(::getpid());
  std::vector<std::string> argv = {FLUSHCHECK_TARGET_FLUSHCHECK, "run",
                                   std::string("--stdout=") + sink, "--timeout=60000"};
  if (traced) argv.push_back("--trace");
  argv.insert(argv.end(),
              {"--", "/bin/sh", "-c",
               "setsid sleep " + seconds + " & echo m >&3; read x <&3; while :; do echo x; done"});
  const std::string tmp = test_path("tmp");
  std::filesystem::create_directory(tmp);
  auto env = clean_environment();
  env.push_back("TMPDIR=" + tmp);
  const pid_t cli = start(argv, env, test_path("run.out"));
  ASSERT_GT(cli, 0);
  ASSERT_TRUE(eventually([&] {
    return process_with({"sleep", seconds}) != 0;
  })) << "the setsid grandchild never started";
  ASSERT_EQ(::kill(cli, sig), 0);
  int status = 0;
  ASSERT_EQ(::waitpid(cli, &status, 0), cli);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == sig) << "status " << status;
  const bool gone = eventually([&] { return process_with({"sleep", seconds}) == 0; });
  if (pid_t left = process_with({"sleep", seconds})) ::kill(left, SIGKILL);
  EXPECT_TRUE(gone) << "sleep " << seconds << " outlived the interrupted CLI";
  EXPECT_TRUE(std::filesystem::is_empty(tmp))
      << "a temporary file was left in " << tmp << ":" << listing(tmp);
  EXPECT_EQ(contents(test_path("run.out")), "") << "an interrupted run reports nothing";
}

std::string case_name(const ::testing::TestParamInfo<interrupt_case>& p) {
  return std::string(::sigabbrev_np(p.param.sig)) + "_" + p.param.sink +
         (p.param.traced ? "_traced" : "");
}

INSTANTIATE_TEST_SUITE_P(cli, interrupted_run,
                         ::testing::Values(interrupt_case{SIGINT, "file", false},
                                           interrupt_case{SIGTERM, "pty", false},
                                           interrupt_case{SIGHUP, "pipe", false},
                                           interrupt_case{SIGQUIT, "pipe", false},
                                           interrupt_case{SIGINT, "file", true}),
                         case_name);

/// Whether PID has a child now: any thread's (a traced run's program is its
/// tracer thread's child), /proc/PID/task/TID/children.
bool has_child(pid_t pid) {
  std::error_code ec;
  const std::string tasks = "/proc/" + std::to_string(pid) + "/task";
  for (const auto& t : std::filesystem::directory_iterator(tasks, ec))
    if (!contents(t.path().string() + "/children").empty()) return true;
  return false;
}

// A verb interrupted while it writes a report to a file (--json=FILE) leaves
// neither FILE nor a temporary beside it (output_file.hpp).
TEST(cli, an_interrupted_report_leaves_no_file) {
  const std::string dir = test_path("reports");
  std::filesystem::create_directory(dir);
  const std::string json = dir + "/matrix.json";
  const pid_t cli = start({FLUSHCHECK_TARGET_FLUSHCHECK, "matrix", "--json=" + json},
                          clean_environment(), test_path("matrix.out"));
  ASSERT_GT(cli, 0);
  ASSERT_TRUE(eventually([&] { return has_child(cli); })) << "matrix never ran a case";
  ASSERT_EQ(::kill(cli, SIGINT), 0);
  int status = 0;
  ASSERT_EQ(::waitpid(cli, &status, 0), cli);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT) << "status " << status;
  EXPECT_TRUE(std::filesystem::is_empty(dir)) << "left in " << dir << ":" << listing(dir);
}

// SIGKILL of flushcheck leaves no thread to clean up: the sink's file and
// the report's temporary must be anonymous already (docs/cli.md).
TEST(cli, a_killed_traced_run_leaves_no_sink_file_and_no_report_temporary) {
  const std::string tmp = test_path("killed-tmp"), reports = test_path("killed-reports");
  std::filesystem::create_directory(tmp);
  std::filesystem::create_directory(reports);
  auto env = clean_environment();
  env.push_back("TMPDIR=" + tmp);
  const pid_t cli =
      start({FLUSHCHECK_TARGET_FLUSHCHECK, "run", "--stdout=file", "--trace", "--timeout=60000",
             "--json=" + reports + "/r.json", "--", "/bin/sh", "-c", "echo x; exec sleep 60"},
            env, test_path("killed.out"));
  ASSERT_GT(cli, 0);
  ASSERT_TRUE(eventually([&] { return has_child(cli); })) << "the program never started";
  ASSERT_EQ(::kill(cli, SIGKILL), 0);
  int status = 0;
  ASSERT_EQ(::waitpid(cli, &status, 0), cli);
  EXPECT_TRUE(std::filesystem::is_empty(tmp)) << "left in " << tmp << ":" << listing(tmp);
  EXPECT_TRUE(std::filesystem::is_empty(reports))
      << "left in " << reports << ":" << listing(reports);
}

// A gate interrupted while its case runs removes the case's log directory.
TEST(cli, an_interrupted_gate_leaves_no_log_directory) {
  for (int sig : {SIGINT, SIGTERM, SIGQUIT}) {
    const std::string tmp = test_path("tmp" + std::to_string(sig));
    std::filesystem::create_directory(tmp);
    const std::string file = test_path("slow" + std::to_string(sig) + ".toml");
    std::ofstream(file) << "[[case]]\nname = \"slow\"\ncommand = [\"sh\", \"-c\", "
                           "\"echo rec 0 > \\\"$FLUSHCHECK_LOG_DIR/app.log\\\"; sleep 60\"]\n"
                           "[[case.expect]]\nexit_code = 0\n";
    auto env = clean_environment();
    env.push_back("TMPDIR=" + tmp);
    const std::string out = test_path("gate" + std::to_string(sig) + ".out");
    const pid_t cli = start({FLUSHCHECK_TARGET_FLUSHCHECK, "gate", file}, env, out);
    ASSERT_GT(cli, 0);
    auto log_written = [&] {
      for (const auto& d : std::filesystem::directory_iterator(tmp))
        if (std::filesystem::exists(d.path() / "app.log")) return true;
      return false;
    };
    ASSERT_TRUE(eventually(log_written)) << "the case never wrote its log";
    ASSERT_EQ(::kill(cli, sig), 0);
    int status = 0;
    ASSERT_EQ(::waitpid(cli, &status, 0), cli);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == sig) << "status " << status;
    EXPECT_TRUE(std::filesystem::is_empty(tmp)) << "left in " << tmp << ":" << listing(tmp);
    EXPECT_EQ(contents(out), "") << "an interrupted gate reports no case";
  }
}

/// The interrupts of a property search: FLUSHCHECK_INTERRUPTS, else 100.
int interrupt_rounds() {
  const char* v = std::getenv("FLUSHCHECK_INTERRUPTS");
  return v != nullptr ? std::atoi(v) : 100;
}

/// The seed of their times: FLUSHCHECK_INTERRUPT_SEED, else a fresh one.
std::uint64_t interrupt_seed() {
  if (const char* v = std::getenv("FLUSHCHECK_INTERRUPT_SEED"))
    return std::strtoull(v, nullptr, 10);
  return std::random_device{}();
}

/// Waits (10 s at most, looking every millisecond) until DONE holds.
bool soon(const std::function<bool()>& done) {
  for (int i = 0; i < 10000; ++i) {
    if (done()) return true;
    std::this_thread::sleep_for(1ms);
  }
  return done();
}

/// Removes what DIR holds, not DIR.
void empty(const std::string& dir) {
  for (const auto& e : std::filesystem::directory_iterator(dir)) std::filesystem::remove_all(e);
}

// An interrupt at any moment of a property search (a gate's [[property]]:
// each case makes its log directory, flushcheck-gate-XXXXXX) leaves nothing
// in TMPDIR. The clean-up once ran while the main thread made the next
// case's directory, which stayed: 5 to 13% of interrupts (issue 54).
TEST(cli, interrupts_at_random_times_in_a_property_search_leave_nothing) {
  const int rounds = interrupt_rounds();
  const std::uint64_t seed = interrupt_seed();
  const std::string test =
      ::testing::UnitTest::GetInstance()->current_test_info()->test_suite_name() +
      std::string(".") + ::testing::UnitTest::GetInstance()->current_test_info()->name();
  std::cout << rounds << " interrupts, seed " << seed
            << "; repeat: FLUSHCHECK_INTERRUPT_SEED=" << seed << " FLUSHCHECK_INTERRUPTS=" << rounds
            << " interrupt_test --gtest_filter=" << test << std::endl;
  const std::string file = file_with("search.toml", std::string(R"([[property]]
name = "exit_keeps_all"
command = [")") + FLUSHCHECK_TARGET_STDIO_DRIVER + R"("]
stdout = ["pipe"]
[property.promise]
exit = "all"
return = "all"
)");
  const std::string tmp = test_path("search-tmp"), err = test_path("search.err");
  std::filesystem::create_directory(tmp);
  auto env = clean_environment();
  env.push_back("TMPDIR=" + tmp);
  std::mt19937_64 random(seed);
  int left = 0;
  for (int i = 1; i <= rounds; ++i) {
    const auto search_seed = std::to_string(random() % 1000000);
    const auto delay = std::chrono::microseconds(random() % 100000);  // up to 0.1 s in
    const std::vector<std::string> argv = {
        FLUSHCHECK_TARGET_FLUSHCHECK, "gate", file, "--cases", "1000000", "--seed", search_seed};
    const pid_t cli = start(argv, env, test_path("search.out"), err);
    ASSERT_GT(cli, 0);
    const bool searching =
        soon([&] { return contents(err).find("property exit_keeps_all") != std::string::npos; });
    std::this_thread::sleep_for(delay);
    ASSERT_EQ(::kill(cli, SIGINT), 0);
    int status = 0;
    ASSERT_EQ(::waitpid(cli, &status, 0), cli);
    ASSERT_TRUE(searching) << "the search never started: " << contents(err);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT) << "status " << status;
    if (std::filesystem::is_empty(tmp)) continue;
    ++left;
    ADD_FAILURE() << "interrupt " << i << " of " << rounds << ", " << delay.count()
                  << " us into the search, left in TMPDIR:" << listing(tmp)
                  << "\nrepeat: FLUSHCHECK_INTERRUPT_SEED=" << seed
                  << " interrupt_test --gtest_filter=" << test << "; the run: TMPDIR=" << tmp
                  << " flushcheck gate " << file << " --cases 1000000 --seed " << search_seed
                  << ", SIGINT " << delay.count() << " us after it printed its seed";
    empty(tmp);
  }
  EXPECT_EQ(left, 0) << left << " of " << rounds << " interrupts left a path behind (seed " << seed
                     << ")";
}

}  // namespace
}  // namespace flushcheck
