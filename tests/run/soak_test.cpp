// Robustness proved, not claimed (label soak, not in the default run):
// 10,000 runs through the library across sinks, kills and the tracer, then
// the same open fds, no zombie, the same /dev/pts entries and nothing in the
// runs' own $TMPDIR (a fresh directory: other processes write to /tmp too).
// FLUSHCHECK_SOAK_RUNS=N changes the count.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <string>

#include "conformance.hpp"
#include "run.hpp"

namespace flushcheck {
namespace {

namespace fs = std::filesystem;

std::set<std::string> entries(const fs::path& dir) {
  std::set<std::string> names;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) names.insert(e.path().filename());
  return names;
}

fs::path temp_dir() {
  const char* t = std::getenv("TMPDIR");
  return t != nullptr && *t != '\0' ? t : "/tmp";
}

/// Children of this process that are zombies (ended, never reaped).
int zombies() {
  int n = 0;
  for (const auto& task : entries("/proc/self/task")) {
    std::ifstream in("/proc/self/task/" + task + "/children");
    for (pid_t pid; in >> pid;) {
      std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
      std::string line;
      std::getline(stat, line);
      auto close = line.rfind(')');
      n += close != std::string::npos && line.size() > close + 2 && line[close + 2] == 'Z';
    }
  }
  return n;
}

run_options soak_case(long i) {
  static const sink_kind sinks[] = {sink_kind::pipe, sink_kind::pty, sink_kind::file,
                                    sink_kind::null, sink_kind::full};
  static const char* const kills[] = {"never", "KILL@marker:1", "TERM@time:2", "KILL@write:2",
                                      "TERM@after-write:1"};
  run_options o;
  o.argv = {FLUSHCHECK_TARGET_STDIO_SCRIPT,
            "line 3; marker m; setvbuf none; line 2; write 5; exit 0"};
  o.env = clean_environment();
  o.stdout_sink = sinks[i % 5];
  o.kill = kill_plan::parse(kills[(i / 5) % 5]);
  o.trace = (i / 25) % 2 == 1;
  o.timeout = std::chrono::milliseconds(20000);
  return o;
}

TEST(soak, ten_thousand_runs_leave_nothing_behind) {
  const char* env = std::getenv("FLUSHCHECK_SOAK_RUNS");
  const long runs = env != nullptr ? std::atol(env) : 10000;
  std::string dir = (temp_dir() / "flushcheck-soak-XXXXXX").string();
  ASSERT_NE(::mkdtemp(dir.data()), nullptr);
  const char* old_tmpdir = std::getenv("TMPDIR");
  std::string saved = old_tmpdir != nullptr ? old_tmpdir : "";
  ::setenv("TMPDIR", dir.c_str(), 1);  // where the file sinks go
  auto fds = entries("/proc/self/fd").size();
  auto pts = entries("/dev/pts");
  long timeouts = 0;
  for (long i = 0; i < runs; ++i) {
    auto obs = run(soak_case(i));
    timeouts += obs.status.type() == wait_status::kind::timeout;
    if ((i + 1) % 1000 == 0) std::cout << (i + 1) << " runs\n" << std::flush;
  }
  EXPECT_EQ(timeouts, 0);
  EXPECT_EQ(entries("/proc/self/fd").size(), fds) << "open fds";
  EXPECT_EQ(zombies(), 0);
  EXPECT_EQ(entries("/dev/pts"), pts) << "pty pairs left open";
  EXPECT_EQ(entries(dir), std::set<std::string>{}) << "files left in $TMPDIR";
  if (old_tmpdir != nullptr)
    ::setenv("TMPDIR", saved.c_str(), 1);
  else
    ::unsetenv("TMPDIR");
  fs::remove_all(dir);
}

}  // namespace
}  // namespace flushcheck
