// Worker processes (harness/process/workers.hpp) on real forks: results in
// the order of their tasks whatever order they ended in, a stop that starts
// nothing more, a task's error thrown as it was, a worker that dies said so,
// each worker a subreaper of its own (an orphan one run left is not another
// run's to end) with its own CPU, and an interrupt that leaves no process
// and no temporary behind.
#include <gtest/gtest.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "child.hpp"
#include "cpu_pin.hpp"
#include "error.hpp"
#include "temporary.hpp"
#include "workers.hpp"

namespace flushcheck {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

/// A fresh directory for one test's files, removed at its end.
struct scratch {
  temporary_directory dir{temp_dir() + "/flushcheck-workers-test-"};
  std::string path(const std::string& name) const { return dir.path() + "/" + name; }
};

/// Waits (at most 10 s) until PATH exists.
bool wait_for(const std::string& path) {
  for (int i = 0; i < 5000 && !fs::exists(path); ++i) std::this_thread::sleep_for(2ms);
  return fs::exists(path);
}

void touch(const std::string& path) { std::ofstream(path) << "x"; }

TEST(workers, results_come_in_the_order_of_their_tasks) {
  // Task i ends later the smaller i is: the workers end them out of order.
  // (Which worker runs how many is the scheduler's: not asserted.)
  std::vector<std::string> taken;
  std::set<std::string> pids;
  run_in_workers(
      3, 8,
      [](long i) {
        std::this_thread::sleep_for((8 - i) * 15ms);
        return std::to_string(i) + "@" + std::to_string(::getpid());
      },
      [&](long i, std::string r) {
        EXPECT_EQ(r.substr(0, r.find('@')), std::to_string(i));
        taken.push_back(r.substr(0, r.find('@')));
        pids.insert(r.substr(r.find('@') + 1));
        return true;
      });
  EXPECT_EQ(taken, (std::vector<std::string>{"0", "1", "2", "3", "4", "5", "6", "7"}));
  EXPECT_FALSE(pids.contains(std::to_string(::getpid()))) << "none ran in this process";
}

TEST(workers, one_job_runs_each_task_here_in_order) {
  std::vector<long> order;
  run_in_workers<long>(
      1, 4, [](long i) { return static_cast<long>(::getpid()) * 10 + i; },
      [&](long i, long r) {
        EXPECT_EQ(r, static_cast<long>(::getpid()) * 10 + i);
        order.push_back(i);
        return true;
      },
      [](long) -> std::string { throw std::logic_error("no encoding without workers"); },
      [](const std::string&) -> long { throw std::logic_error("no decoding without workers"); });
  EXPECT_EQ(order, (std::vector<long>{0, 1, 2, 3}));
}

TEST(workers, a_stop_starts_no_task_after_it) {
  // Tasks from 4 on take 3 s: the take says stop at task 3, long before a
  // worker ends its task past it and looks for the next.
  scratch s;
  const std::string started = s.path("started");
  long last_taken = -1;
  run_in_workers(
      2, 100,
      [&](long i) {
        std::ofstream(started, std::ios::app) << i << "\n";
        if (i >= 4) std::this_thread::sleep_for(3s);
        return std::string();
      },
      [&](long i, std::string) {
        last_taken = i;
        return i < 3;
      });
  EXPECT_EQ(last_taken, 3);
  std::ifstream in(started);
  long n = 0;
  for (std::string line; std::getline(in, line);) ++n;
  EXPECT_GE(n, 4);
  EXPECT_LE(n, 8) << "tasks started after the stop";
}

TEST(workers, a_task_error_is_thrown_as_it_was_in_its_turn) {
  // Task 3's usage error ends before task 2's spawn error: task 2's comes first.
  std::vector<long> taken;
  try {
    run_in_workers(
        2, 6,
        [](long i) -> std::string {
          if (i == 2) {
            std::this_thread::sleep_for(150ms);
            throw spawn_error("'/nonexistent': no such file");
          }
          if (i == 3) throw usage_error("--jobs=0: not from 1 to 1024");
          return "";
        },
        [&](long i, std::string) { return taken.push_back(i), true; });
    ADD_FAILURE() << "no error thrown";
  } catch (const spawn_error& e) {
    EXPECT_STREQ(e.what(), "'/nonexistent': no such file");
  }
  EXPECT_EQ(taken, (std::vector<long>{0, 1}));
  try {
    run_in_workers(
        2, 2,
        [](long) -> std::string {
          errno = ENOSPC;
          throw_errno("write (the sink)");
        },
        [](long, std::string) { return true; });
    ADD_FAILURE() << "no error thrown";
  } catch (const harness_error& e) {
    EXPECT_EQ(e.code().value(), ENOSPC);
    EXPECT_EQ(std::string(e.what()),
              "write (the sink): " + std::error_code(ENOSPC, std::generic_category()).message());
  }
}

TEST(workers, a_worker_that_dies_before_its_result_is_a_harness_failure) {
  std::vector<long> taken;
  try {
    run_in_workers(
        2, 4,
        [](long i) {
          if (i == 1) ::raise(SIGKILL);
          return std::string();
        },
        [&](long i, std::string) { return taken.push_back(i), true; });
    ADD_FAILURE() << "no error thrown";
  } catch (const harness_error& e) {
    EXPECT_NE(std::string(e.what()).find("before task 2"), std::string::npos) << e.what();
  }
  EXPECT_EQ(taken, std::vector<long>{0});
}

TEST(workers, each_worker_is_a_subreaper_on_a_cpu_of_its_own) {
  const int cpus = usable_cpus();
  if (cpus < 2) GTEST_SKIP() << "this process may use 1 CPU: no two workers to place";
  std::map<std::string, std::string> cpu_of_pid;
  run_in_workers(
      cpus, cpus * 4L,
      [](long) {
        int subreaper = 0;
        ::prctl(PR_GET_CHILD_SUBREAPER, &subreaper);
        std::this_thread::sleep_for(20ms);
        return std::to_string(::getpid()) + " " + std::to_string(subreaper) + " " +
               std::to_string(detail::preferred_cpu());
      },
      [&](long, std::string r) {
        std::istringstream in(r);
        std::string pid, cpu;
        int subreaper = 0;
        in >> pid >> subreaper >> cpu;
        EXPECT_EQ(subreaper, 1) << "not a subreaper: " << r;
        cpu_of_pid[pid] = cpu;
        return true;
      });
  std::set<std::string> distinct;
  for (const auto& [pid, cpu] : cpu_of_pid) distinct.insert(cpu);
  EXPECT_EQ(distinct.size(), cpu_of_pid.size()) << "two workers share a CPU";
}

/// Forks a process that leaves the group (setsid) and outlives its parent:
/// an orphan this process adopts. Its pid.
pid_t leave_an_orphan() {
  int fds[2];
  if (::pipe(fds) != 0) return -1;
  const pid_t middle = ::fork();
  if (middle == 0) {
    const pid_t orphan = ::fork();
    if (orphan == 0) {
      ::setsid();
      ::sleep(30);
      ::_exit(0);
    }
    (void)!::write(fds[1], &orphan, sizeof orphan);
    ::_exit(0);
  }
  pid_t orphan = -1;
  (void)!::read(fds[0], &orphan, sizeof orphan);
  ::close(fds[0]);
  ::close(fds[1]);
  ::waitpid(middle, nullptr, 0);
  return orphan;
}

TEST(workers, an_orphan_is_ended_by_its_own_run_not_by_another) {
  // Task 0 leaves an orphan, then waits while task 1, on the other worker,
  // ends its run as every run ends (kill_adopted_orphans): the orphan is not
  // that worker's, so it lives until task 0's own run ends it.
  scratch s;
  const std::string ended = s.path("task-1-ended");
  std::vector<std::string> results;
  run_in_workers(
      2, 2,
      [&](long i) -> std::string {
        if (i == 1) {
          const auto killed = kill_adopted_orphans(true);
          touch(ended);
          return std::to_string(killed.size());
        }
        const pid_t orphan = leave_an_orphan();
        if (orphan <= 0) return "no orphan";
        if (!wait_for(ended)) return "task 1 never ended";
        const bool alive = ::kill(orphan, 0) == 0;
        const auto killed = kill_adopted_orphans(true);
        return std::string(alive ? "alive" : "dead") + " " + std::to_string(killed.size());
      },
      [&](long, std::string r) { return results.push_back(r), true; });
  EXPECT_EQ(results, (std::vector<std::string>{"alive 1", "0"}));
}

TEST(workers, an_interrupt_ends_every_worker_with_its_runs_and_temporaries) {
  // Each task makes a listed temporary directory and starts a program that
  // would sleep 30 s, says so on READY, then waits; end_workers (the CLI's
  // interrupt) ends them. The interrupt thread waits in read(2) while the
  // workers are forked, as the CLI's waits in sigwait: a thread inside
  // malloc at a fork leaves ASan's allocator locked in the child (GCC 12's
  // libasan takes no fork locks).
  scratch s;
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  std::atomic<bool> waiting{false};
  std::thread interrupt([&] {
    char byte = 0;
    waiting = true;
    for (int i = 0; i < 2; ++i)
      if (::read(ready[0], &byte, 1) != 1) break;
    end_workers();
  });
  while (!waiting) std::this_thread::yield();
  EXPECT_THROW(run_in_workers(
                   2, 2,
                   [&](long i) {
                     temporary_directory dir(temp_dir() + "/flushcheck-workers-test-task-");
                     const pid_t sleeper = ::fork();
                     if (sleeper == 0) {
                       ::execl("/bin/sleep", "sleep", "30", nullptr);
                       ::_exit(127);
                     }
                     std::ofstream(s.path("task-" + std::to_string(i))) << dir.path() << "\n"
                                                                        << sleeper << "\n";
                     (void)!::write(ready[1], "x", 1);
                     ::sleep(30);
                     return std::string();
                   },
                   [](long, std::string) { return true; }),
               harness_error);
  interrupt.join();
  ::close(ready[0]);
  ::close(ready[1]);
  for (long i = 0; i < 2; ++i) {
    std::ifstream in(s.path("task-" + std::to_string(i)));
    std::string dir;
    pid_t sleeper = -1;
    in >> dir >> sleeper;
    ASSERT_GT(sleeper, 0);
    EXPECT_FALSE(fs::exists(dir)) << "a worker's temporary is left: " << dir;
    EXPECT_NE(::kill(sleeper, 0), 0) << "a worker's process is left: " << sleeper;
  }
}

}  // namespace
}  // namespace flushcheck
