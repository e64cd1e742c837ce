// The process stage (harness/process) on real programs: spawn with the
// environment it is given and nothing else, the child's wait status and its
// group's kill, and the traced start (trace_me, wait_exec_stop). The kill
// plan's grammar is the vocabulary's (tests/vocabulary).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/ptrace.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "child.hpp"
#include "clean_environment.hpp"
#include "error.hpp"
#include "spawn.hpp"
#include "temporary.hpp"
#include "unique_fd.hpp"
#include "wait_status.hpp"

namespace flushcheck {
namespace {

namespace fs = std::filesystem;

/// /dev/null, the stdio of the programs these tests start.
int dev_null() {
  static const unique_fd null(::open("/dev/null", O_RDWR | O_CLOEXEC));
  return null.get();
}

/// A request to run ARGV with ENV as its whole environment, stdio on /dev/null.
spawn_request request(std::vector<std::string> argv,
                      std::vector<std::string> env = clean_environment()) {
  spawn_request r;
  r.argv = std::move(argv);
  r.env = std::move(env);
  r.stdin_fd = r.stdout_fd = r.stderr_fd = dev_null();
  return r;
}

/// What resolve_program says of NAME when it throws spawn_error, or "".
std::string why_not(const std::string& name) {
  try {
    resolve_program(name, clean_environment());
  } catch (const spawn_error& e) {
    return e.what();
  }
  return "";
}

/// Whether E, from a traced spawn of /bin/true, is this machine refusing
/// ptrace (the child's PTRACE_TRACEME failed) and not a failure of spawn.
bool refuses_ptrace(const spawn_error& e) {
  const std::string what = e.what();
  for (int code : {EPERM, EACCES, ENOSYS})  // as spawn words them: strerror
    if (what.find(std::strerror(code)) != std::string::npos) return true;
  return false;
}

// ---- spawn and the child

TEST(spawn, runs_a_program_found_in_the_path_and_gives_its_exit_status) {
  child_process c = spawn(request({"sh", "-c", "exit 5"}));
  EXPECT_GT(c.pid(), 0);
  EXPECT_EQ(c.peak_rss_kib(), -1) << "not reaped yet";
  EXPECT_EQ(c.reap(), wait_status::exited(5));
  EXPECT_FALSE(c.running());
  EXPECT_EQ(c.status(), wait_status::exited(5));
  EXPECT_GT(c.peak_rss_kib(), 0);
}

// The request's environment is the program's whole environment: nothing of
// this process's leaks in.
TEST(spawn, the_program_gets_exactly_the_environment_it_is_given) {
  ASSERT_EQ(::setenv("FLUSHCHECK_PROCESS_TEST_LEAK", "1", 1), 0);
  child_process c =
      spawn(request({"sh", "-c", "test -z \"$FLUSHCHECK_PROCESS_TEST_LEAK\" && exit ${#MINE}"},
                    {"PATH=/usr/bin:/bin", "MINE=abcd"}));
  ::unsetenv("FLUSHCHECK_PROCESS_TEST_LEAK");
  EXPECT_EQ(c.reap(), wait_status::exited(4));
}

TEST(spawn, a_missing_program_is_a_spawn_error) {
  EXPECT_THROW(spawn(request({"flushcheck-no-such-program"})), spawn_error);
  EXPECT_THROW(spawn(request({"/nonexistent/flushcheck-program"})), spawn_error);
  EXPECT_THROW(spawn(request({})), spawn_error) << "no argv at all";
}

// An exec failure in the child (vfork: it reaches the parent) is a
// spawn_error too, not a child that exits 1.
TEST(spawn, a_file_execve_refuses_is_a_spawn_error) {
  const temporary_directory dir(temp_dir() + "/flushcheck-process-test-");
  const std::string script = dir.path() + "/no-interpreter";
  std::ofstream(script) << "exit 0\n";  // no #! line: execve fails with ENOEXEC
  fs::permissions(script, fs::perms::owner_all);
  EXPECT_THROW(spawn(request({script})), spawn_error);
}

TEST(resolve_program, finds_sh_in_the_clean_environment_s_path_and_only_there) {
  const std::string sh = resolve_program("sh", clean_environment());
  EXPECT_TRUE(sh.starts_with("/") && sh.ends_with("/sh")) << sh;
  EXPECT_EQ(::access(sh.c_str(), X_OK), 0) << sh;
  EXPECT_THROW(resolve_program("sh", {"PATH=/nonexistent-flushcheck"}), spawn_error);
  EXPECT_EQ(resolve_program("/bin/sh", {}), "/bin/sh") << "a path is taken as it is";
}

TEST(resolve_program, says_why_a_path_cannot_run) {
  const temporary_directory dir(temp_dir() + "/flushcheck-process-test-");
  const std::string plain = dir.path() + "/plain";
  std::ofstream(plain) << "data\n";
  fs::permissions(plain, fs::perms::owner_read | fs::perms::owner_write);
  EXPECT_NE(why_not(dir.path()).find("is a directory"), std::string::npos);
  EXPECT_NE(why_not(plain).find("not executable"), std::string::npos) << why_not(plain);
  EXPECT_NE(why_not("flushcheck-no-such-program").find("not found"), std::string::npos);
  EXPECT_NE(why_not(""), "");
}

TEST(child_process, signal_group_ends_a_running_program) {
  child_process c = spawn(request({"sleep", "100"}));
  EXPECT_TRUE(c.running());
  EXPECT_EQ(c.try_reap(), std::nullopt);
  c.signal_group(SIGTERM);
  EXPECT_EQ(c.reap(), wait_status::signaled(SIGTERM));
  EXPECT_FALSE(c.running());
  EXPECT_EQ(c.try_reap(), wait_status::signaled(SIGTERM)) << "reaped once, kept";
}

// No child outlives its handle: the destructor kills and reaps it.
TEST(child_process, its_end_kills_and_reaps_the_child) {
  pid_t pid = -1;
  {
    const child_process c = spawn(request({"sleep", "100"}));
    pid = c.pid();
  }
  const pid_t r = ::waitpid(pid, nullptr, WNOHANG);
  const int err = errno;
  EXPECT_EQ(r, -1) << "still a child of this process, not reaped";
  EXPECT_EQ(err, ECHILD);
}

// ---- the traced start

TEST(wait_exec_stop, a_traced_spawn_stops_at_its_exec_before_the_program_runs) {
  spawn_request r = request({"/bin/true"});
  r.trace_me = true;
  child_process c;
  try {
    c = spawn(r);
  } catch (const spawn_error& e) {
    if (refuses_ptrace(e)) GTEST_SKIP() << "ptrace is not permitted here: " << e.what();
    throw;
  }
  ASSERT_NO_THROW(wait_exec_stop(c.pid(), "/bin/true"));
  EXPECT_EQ(c.try_reap(), std::nullopt) << "stopped, not ended";
  ASSERT_EQ(::ptrace(PTRACE_CONT, c.pid(), nullptr, nullptr), 0);
  EXPECT_EQ(c.reap(), wait_status::exited(0)) << "and it runs on when the tracer resumes it";
}

// A child that ends instead of stopping never ran the program: a
// spawn_error that names it and says how the child ended. (Untraced here,
// so that it surely ends; the tracer takes the pid over as wait_exec_stop's
// caller does.)
TEST(wait_exec_stop, a_child_that_ended_instead_is_a_spawn_error_naming_the_program) {
  const pid_t pid = spawn(request({"sh", "-c", "exit 4"})).release();
  try {
    wait_exec_stop(pid, "my-program");
    FAIL() << "no spawn_error";
  } catch (const spawn_error& e) {
    const std::string what = e.what();
    EXPECT_TRUE(what.starts_with("my-program: ")) << what;
    EXPECT_NE(what.find("exited 4"), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace flushcheck
