// Every verb, --version and --help, run as `env -i flushcheck ...` (no HOME,
// no PATH, no TMPDIR) and as `env -i flushcheck ... >&-` (stdout closed),
// ends with one of the CLI's exit statuses (0 to 6), never a signal or a
// core dump: the portable flushcheck's --version once died in std::terminate
// without HOME (issue 54). On the build tree's binary, and on the portable
// one when it is built (ci/portable), which has no targets without a cache
// directory: the verbs that run them say so in one line.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "cli_runner.hpp"

namespace flushcheck {
namespace {

using namespace std::chrono_literals;

/// How BINARY ARGS ended, and what it wrote.
struct ending {
  int status = 0;    ///< waitpid's; -1 when it did not end in 60 s (then killed)
  std::string out;   ///< stdout ("" when it was closed)
  std::string err;   ///< stderr
  std::string line;  ///< the command, for messages
  bool exited() const { return status >= 0 && WIFEXITED(status); }
  int code() const { return WEXITSTATUS(status); }
};

std::string contents(const std::string& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// Waits for PID, 60 s at most (then kills it); its waitpid status, or -1.
int wait_for(pid_t pid) {
  int status = 0;
  for (int i = 0; i < 6000; ++i) {
    if (::waitpid(pid, &status, WNOHANG) == pid) return status;
    std::this_thread::sleep_for(10ms);
  }
  ::kill(pid, SIGKILL);
  ::waitpid(pid, &status, 0);
  return -1;
}

/// BINARY ARGS with an empty environment, stdout into a file or CLOSED.
ending run_bare(const std::string& binary, const std::vector<std::string>& args, bool closed) {
  std::vector<std::string> argv = {binary};
  argv.insert(argv.end(), args.begin(), args.end());
  ending e;
  for (const auto& a : argv) e.line += (e.line.empty() ? "" : " ") + a;
  e.line = "env -i " + e.line + (closed ? " >&-" : "");
  std::vector<char*> a;
  for (const auto& s : argv) a.push_back(const_cast<char*>(s.c_str()));
  a.push_back(nullptr);
  char* no_env[] = {nullptr};
  const std::string out = test_path("out"), err = test_path("err");
  posix_spawn_file_actions_t actions;
  ::posix_spawn_file_actions_init(&actions);
  if (closed)
    ::posix_spawn_file_actions_addclose(&actions, 1);
  else
    ::posix_spawn_file_actions_addopen(&actions, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                       0644);
  ::posix_spawn_file_actions_addopen(&actions, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid = -1;
  const int started = ::posix_spawn(&pid, a[0], &actions, nullptr, a.data(), no_env);
  ::posix_spawn_file_actions_destroy(&actions);
  EXPECT_EQ(started, 0) << e.line;
  if (started != 0) return e;
  e.status = wait_for(pid);
  e.out = closed ? "" : contents(out);
  e.err = contents(err);
  return e;
}

/// Every verb with arguments that make it quick: ARGS each.
std::vector<std::vector<std::string>> every_verb() {
  const std::string gate = file_with("true.toml",
                                     "[[case]]\nname = \"true\"\ncommand = [\"/bin/true\"]\n"
                                     "[[case.expect]]\nexit_code = 0\n");
  return {{"--version"},
          {"--help"},
          {"run", "--", "/bin/true"},
          {"count", "--", "/bin/true"},
          {"explore", "--", "/bin/true"},
          {"doctor", "--", "/bin/true"},
          {"matrix", "--properties"},
          {"gate", gate},
          {"bench", "--help"},
          {"model", "--cases", "1", "--only", "c_markers_and_endings", "--seed", "1"},
          {"targets", "--help"},
          {"workload", "check", "--", "/bin/true"},
          {"durability", "--cases", "1", "--max-seconds", "1", gate}};
}

/// How E ended, in words: "exited 2", "killed by Aborted (core)".
std::string described(const ending& e) {
  if (e.exited()) return "exited " + std::to_string(e.code());
  if (WIFSIGNALED(e.status))
    return std::string("killed by ") + ::strsignal(WTERMSIG(e.status)) +
           (WCOREDUMP(e.status) ? " (core)" : "");
  return "status " + std::to_string(e.status);
}

/// E ended with an exit status of the CLI (0 to 6), no signal, no core.
void expect_an_exit_status(const ending& e) {
  ASSERT_NE(e.status, -1) << e.line << ": still running after 60 s";
  EXPECT_TRUE(e.exited() && e.code() <= 6) << e.line << ": " << described(e) << "\n" << e.err;
  EXPECT_EQ(e.err.find("terminate called"), std::string::npos) << e.line << "\n" << e.err;
}

/// Every verb of BINARY, with stdout open and closed.
void check_every_verb(const std::string& binary) {
  const struct rlimit no_core { 0, 0 };
  ::setrlimit(RLIMIT_CORE, &no_core);  // a crash is seen in its status, not in a core file
  for (const auto& args : every_verb())
    for (bool closed : {false, true}) expect_an_exit_status(run_bare(binary, args, closed));
}

TEST(empty_environment, every_verb_of_the_build_trees_flushcheck_ends_with_an_exit_status) {
  check_every_verb(FLUSHCHECK_TARGET_FLUSHCHECK);
  const ending version = run_bare(FLUSHCHECK_TARGET_FLUSHCHECK, {"--version"}, false);
  EXPECT_EQ(version.status, 0) << version.err;
  EXPECT_EQ(version.out.rfind("flushcheck ", 0), 0u) << version.out;
  // A report that cannot reach stdout is a harness failure, not a run.
  const ending lost = run_bare(FLUSHCHECK_TARGET_FLUSHCHECK, {"run", "--", "/bin/true"}, true);
  EXPECT_TRUE(lost.exited() && lost.code() == 4) << described(lost) << "\n" << lost.err;
}

/// The portable flushcheck: FLUSHCHECK_PORTABLE_BINARY, else where
/// ci/portable builds it (build/portable/harness/flushcheck); "" if neither is.
std::string portable_binary() {
  if (const char* named = std::getenv("FLUSHCHECK_PORTABLE_BINARY")) return named;
  const std::string built =
      std::string(FLUSHCHECK_SOURCE_DIR) + "/build/portable/harness/flushcheck";
  return ::access(built.c_str(), X_OK) == 0 ? built : "";
}

TEST(empty_environment, every_verb_of_the_portable_flushcheck_ends_with_an_exit_status) {
  const std::string binary = portable_binary();
  if (binary.empty())
    GTEST_SKIP() << "no portable flushcheck: ci/portable builds one in build/portable, or "
                    "FLUSHCHECK_PORTABLE_BINARY names one; this half is not checked";
  check_every_verb(binary);
  // No HOME: --version still works, and says where the sets would be.
  const ending version = run_bare(binary, {"--version"}, false);
  EXPECT_EQ(version.status, 0) << version.err;
  EXPECT_EQ(version.out.rfind("flushcheck ", 0), 0u) << version.out;
  EXPECT_NE(version.out.find("HOME"), std::string::npos) << version.out;
  // A verb that runs the targets needs the cache directory: one line, exit 2.
  const ending model =
      run_bare(binary, {"model", "--cases", "1", "--only", "c_markers_and_endings"}, false);
  EXPECT_TRUE(model.exited() && model.code() == 2) << described(model) << "\n" << model.err;
  EXPECT_EQ(std::count(model.err.begin(), model.err.end(), '\n'), 1) << model.err;
  EXPECT_NE(model.err.find("HOME"), std::string::npos) << model.err;
}

}  // namespace
}  // namespace flushcheck
