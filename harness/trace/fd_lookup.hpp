#pragma once
// What file a traced process's fd is: its (st_dev, st_ino) and birth time,
// which key the tracer's counters, and a name for the report ("pipe:[123]",
// a path).
#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>

#include "tracer.hpp"
#include "unique_fd.hpp"

namespace flushcheck::detail {

struct fd_target {
  file_id id;
  /// When the file was made (statx's btime, in ns), 0 where its file system
  /// does not say. With id it tells a file from a later one that was given
  /// the inode of an unlinked one (ext4 hands a freed inode out again at
  /// once: a JVM's start-up unlinks stale hsperfdata files).
  std::int64_t born = 0;
  std::string what;
};

/// Looks fds up through a copy of each (pidfd_getfd, Linux 5.6), which costs
/// ~17 us where the first /proc/PID/fd/FD lookup of a new process costs ~60 us
/// (its /proc entries are cold); /proc is the fallback (a thread's id, which
/// pidfd_open refuses before Linux 6.9; older kernels).
class fd_lookup {
 public:
  /// The file behind fd FD of process (or thread) P; nullopt if it is not open.
  std::optional<fd_target> operator()(pid_t p, int fd);
  /// P has ended: its pidfd goes.
  void forget(pid_t p) { pidfds_.erase(p); }

 private:
  int pidfd(pid_t p);
  std::unordered_map<pid_t, unique_fd> pidfds_;  // -1: pidfd_open refused P
};

}  // namespace flushcheck::detail
