#pragma once
/// A started child that leads its own process group. Exactly one owner waits
/// for it; the destructor kills the whole group and reaps the child, so no
/// child outlives its handle (Boost.Process v2's terminate_if_running).
#include <sys/types.h>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "unique_fd.hpp"
#include "wait_status.hpp"

namespace flushcheck {

class child_process {
 public:
  child_process() noexcept = default;
  /// Takes ownership of PID (which leads process group PID).
  explicit child_process(pid_t pid);
  child_process(child_process&& o) noexcept;
  child_process& operator=(child_process&& o) noexcept;
  child_process(const child_process&) = delete;
  child_process& operator=(const child_process&) = delete;
  ~child_process();

  pid_t pid() const noexcept { return pid_; }
  /// A pidfd that polls readable when the child exits, or -1 (old kernel).
  int pidfd() const noexcept { return pidfd_.get(); }
  bool running() const noexcept { return pid_ > 0 && !status_; }
  /// Sends SIG to its whole process group (grandchildren included).
  void signal_group(int sig) noexcept;
  /// Reaps the child if it has ended; its status once reaped.
  std::optional<wait_status> try_reap() noexcept;
  /// Blocks until the child ends.
  wait_status reap() noexcept;
  const std::optional<wait_status>& status() const noexcept { return status_; }
  /// Once reaped: the peak resident set of the child, or of the largest of
  /// the descendants it waited for (wait4's ru_maxrss), in KiB; -1 before.
  long peak_rss_kib() const noexcept { return peak_rss_kib_; }
  /// Gives up ownership (another owner waits for it, e.g. the tracer).
  pid_t release() noexcept;

 private:
  void dispose() noexcept;
  pid_t pid_ = -1;
  unique_fd pidfd_;
  std::optional<wait_status> status_;
  long peak_rss_kib_ = -1;
};

/// When this process is a child subreaper (PR_SET_CHILD_SUBREAPER, as the
/// CLI is), the processes it adopted: descendants of a run that left its
/// process group (setsid) and outlived their parent. Kills and reaps them,
/// and their children as those are adopted in turn; "comm (pid N)" each.
/// Does nothing, and returns nothing, when this process is not a subreaper.
/// SPARE_OWNED: not the children a child_process still owns (the end of a
/// run: they were started here, beside it); without it, every child (an
/// interrupt: the run's child first).
std::vector<std::string> kill_adopted_orphans(bool spare_owned = false);

/// PID, a child this process made other than as a child_process (a worker,
/// workers.hpp), is owned until disown_child: the end of a run spares it
/// (kill_adopted_orphans(true)); an interrupt does not.
void own_child(pid_t pid);
void disown_child(pid_t pid);

}  // namespace flushcheck
