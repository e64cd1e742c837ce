#pragma once
// The tracer's fd table: which destination each fd of each traced thread
// writes to, looked up once and cached until a call closes or replaces the
// fd (close, dup2, dup3, close_range) or an exec closes it. A destination is
// a file by identity ((st_dev, st_ino) and birth), so that fds of several
// processes and numbers reach one set of counters, and a file given a freed
// inode is a new one. rr keeps the same map in its FdTable.
#include <sys/types.h>
#include <sys/user.h>

#include <cstdint>
#include <map>
#include <unordered_map>
#include <vector>

#include "call_decoder.hpp"
#include "fd_lookup.hpp"
#include "trace.hpp"
#include "tracer.hpp"

namespace flushcheck::detail {

class fd_table {
 public:
  /// The sinks' files: a destination that is one of them gets its role.
  fd_table(file_id stdout_id, file_id stderr_id) : stdout_id_(stdout_id), stderr_id_(stderr_id) {}

  /// The destination of fd FD of thread P, an index in destinations(): a
  /// new one, last, for a file not seen before; -1 for a negative FD or one
  /// that is not open (the call will fail with EBADF).
  int destination(pid_t p, int fd);
  destination_counters& operator[](int d) { return destinations_[static_cast<std::size_t>(d)]; }
  const std::vector<destination_counters>& destinations() const { return destinations_; }
  /// The destinations, moved out: the table is done.
  std::vector<destination_counters> take() { return std::move(destinations_); }

  /// Call C (REGS at its entry) goes ahead: the fds it closes or replaces
  /// are looked up again at their next use, in every thread (a number's
  /// file may change under any of them).
  void on_call(const decoded_call& c, const user_regs_struct& regs);
  /// P exec'd: its close-on-exec fds are gone.
  void on_exec(pid_t p);
  /// P has ended.
  void on_exit(pid_t p) { look_up_.forget(p); }

 private:
  void add(fd_target& file);
  void forget(int lo, int hi);

  file_id stdout_id_, stderr_id_;
  std::vector<destination_counters> destinations_;
  std::unordered_map<std::uint64_t, int> cache_;           // (thread, fd) -> destination
  std::map<std::pair<file_id, std::int64_t>, int> index_;  // (file, birth) -> destination
  fd_lookup look_up_;
};

}  // namespace flushcheck::detail
