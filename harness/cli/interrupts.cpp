// The CLI's interrupt thread (interrupts.hpp). A thread of its own, not a
// signal handler: the clean-up reads /proc and waits for what it killed,
// which a handler may not do, and a run's descendants that left its process
// group are found only once their parent is dead and reaped.
#include "interrupts.hpp"

#include <fcntl.h>
#include <pthread.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <thread>

#include "child.hpp"
#include "signals.hpp"
#include "temporary.hpp"
#include "workers.hpp"

namespace flushcheck::cli {

namespace {

std::atomic<int> g_child_group{0};
std::atomic<bool> g_interrupted{false};

/// What the CLI's other threads print from now on (a run the kill below
/// ended, reported as if it had ended so) goes nowhere: an interrupted CLI
/// prints no report.
void silence_reports() {
  const int null = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (null < 0) return;
  ::dup2(null, 1);
  ::dup2(null, 2);
  ::close(null);
}

/// Kills the running child's group and every process this one has adopted,
/// then removes the temporary paths: a few rounds, for a program the main
/// thread started meanwhile may write into a listed directory while it goes.
void kill_and_remove() {
  for (int round = 0; round < 3; ++round) {
    if (const int group = g_child_group.load(); group > 0) ::kill(-group, SIGKILL);
    end_workers();           // each ends its own runs and temporaries (workers.hpp)
    kill_adopted_orphans();  // the child, then what it left behind, generation by generation
    if (remove_temporary_files()) return;
  }
}

[[noreturn]] void clean_up_and_die(int sig) {
  g_interrupted.store(true);  // before g_child_group is read: see remember_child
  silence_reports();
  // New work stops first: a thread that makes a temporary from now on
  // waits for the end (temporary.hpp), so what is removed below is all.
  close_temporary_files();
  kill_and_remove();
  ::signal(sig, SIG_DFL);
  sigset_t just;
  ::sigemptyset(&just);
  ::sigaddset(&just, sig);
  ::pthread_sigmask(SIG_UNBLOCK, &just, nullptr);
  ::raise(sig);
  ::_exit(128 + sig);  // not reached: the signal's default action ends the process
}

}  // namespace

void guard_interrupts() {
  ::prctl(PR_SET_CHILD_SUBREAPER, 1);  // kill_adopted_orphans finds what left the group
  const sigset_t set = interrupt_signals();
  ::pthread_sigmask(SIG_BLOCK, &set, nullptr);
  std::thread([set] {
    int sig = 0;
    while (::sigwait(&set, &sig) != 0) {
    }
    clean_up_and_die(sig);
  }).detach();
}

void remember_child(int pid) {
  g_child_group.store(pid);
  // Started while an interrupt is handled, perhaps after the interrupt
  // thread read g_child_group: killed here (both atomics are seq_cst, so
  // one of the two threads sees the other's store).
  if (pid > 0 && g_interrupted.load()) ::kill(-pid, SIGKILL);
}

int unless_interrupted(int code) {
  // The run the interrupt ended looks like one that ended by itself: its
  // code is not the CLI's. Wait for the interrupt thread to end the process.
  while (g_interrupted.load()) ::pause();
  return code;
}

}  // namespace flushcheck::cli
