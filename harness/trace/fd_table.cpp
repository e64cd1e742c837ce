#include "fd_table.hpp"

#include <algorithm>
#include <cstdint>

namespace flushcheck::detail {
namespace {

std::uint64_t key(pid_t pid, int fd) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(pid)) << 32) |
         static_cast<std::uint32_t>(fd);
}

pid_t pid_of_key(std::uint64_t k) { return static_cast<pid_t>(k >> 32); }
int fd_of_key(std::uint64_t k) { return static_cast<int>(static_cast<std::uint32_t>(k)); }

}  // namespace

int fd_table::destination(pid_t p, int fd) {
  if (fd < 0) return -1;
  auto it = cache_.find(key(p, fd));
  if (it != cache_.end()) return it->second;
  auto file = look_up_(p, fd);
  if (!file) return -1;
  auto [pos, fresh] =
      index_.emplace(std::pair{file->id, file->born}, static_cast<int>(destinations_.size()));
  if (fresh) add(*file);
  auto& fds = (*this)[pos->second].fds;
  if (std::find(fds.begin(), fds.end(), fd) == fds.end()) fds.push_back(fd);
  cache_.emplace(key(p, fd), pos->second);
  return pos->second;
}

/// FILE's destination, new: last, its name moved out of FILE.
void fd_table::add(fd_target& file) {
  destination_counters d;
  d.what = std::move(file.what);
  d.role = role_of(file.id == stdout_id_, file.id == stderr_id_);
  destinations_.push_back(std::move(d));
}

void fd_table::on_call(const decoded_call& c, const user_regs_struct& regs) {
  if (c.call == traced_call::close) forget(c.fd, c.fd);
  if (c.call == traced_call::dup2 || c.call == traced_call::dup3) {
    const int to = static_cast<int>(syscall_arg(regs, 1));
    forget(to, to);
  }
  if (c.call == traced_call::close_range)
    forget(static_cast<int>(syscall_arg(regs, 0)),
           static_cast<int>(std::min<unsigned long long>(syscall_arg(regs, 1), 1U << 30)));
}

void fd_table::on_exec(pid_t p) {
  std::erase_if(cache_, [p](const auto& e) { return pid_of_key(e.first) == p; });
}

void fd_table::forget(int lo, int hi) {
  std::erase_if(cache_, [lo, hi](const auto& e) {
    const int fd = fd_of_key(e.first);
    return fd >= lo && fd <= hi;
  });
}

}  // namespace flushcheck::detail
