#include "fault_injector.hpp"

#include <signal.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <string>

#include "file_target.hpp"
#include "proc_status.hpp"
#include "tracee.hpp"

namespace flushcheck::detail {
namespace {

/// Whether the kernel would raise SIGPIPE with this call's EPIPE: not for
/// sendto / sendmsg with MSG_NOSIGNAL (send(2)).
bool epipe_raises_sigpipe(const decoded_call& c, const user_regs_struct& regs) {
  if (c.call == traced_call::sendto) return (syscall_arg(regs, 3) & MSG_NOSIGNAL) == 0;
  if (c.call == traced_call::sendmsg) return (syscall_arg(regs, 2) & MSG_NOSIGNAL) == 0;
  return true;
}

/// The kernel's ERESTARTSYS, ERESTARTNOINTR, ERESTARTNOHAND and
/// ERESTART_RESTARTBLOCK (include/linux/errno.h, not exported to user space):
/// a call's result at its exit stop when a signal interrupts it to be restarted.
bool to_be_restarted(long result) {
  return result == -512 || result == -513 || result == -514 || result == -516;
}

/// Why plan F cannot shorten call C ("not applied: ..."), or "" when it can.
std::string cannot_shorten(const fault_plan& f, const decoded_call& c) {
  const auto& info_ = info(c.call);
  if (info_.bytes != byte_count::arg && info_.bytes != byte_count::iovec)
    return std::string(
               "not applied: the tracer shortens write, writev, pwrite64, pwritev, "
               "pwritev2 and sendto, not ") +
           info_.name;
  if (f.short_bytes >= c.bytes)
    return "not applied: short:" + std::to_string(f.short_bytes) + " is not shorter than the " +
           std::to_string(c.bytes) + " bytes asked for";
  return "";
}

/// Where the first K bytes of a program's iovecs end.
struct iovec_cut {
  std::size_t index;            // in which iovec
  unsigned long long len_addr;  // the address of its iov_len in the program's memory
  unsigned long long len;       // the length that ends it there
};

/// The cut after K bytes of the iovecs VEC, at BASE in the program's
/// memory; the last iovec takes what the others do not.
iovec_cut iovec_cut_at(const std::vector<iovec>& vec, unsigned long long base, std::int64_t k) {
  std::size_t j = 0, before = 0;
  while (before + vec[j].iov_len <= static_cast<std::size_t>(k) && j + 1 < vec.size())
    before += vec[j++].iov_len;
  return {j, base + j * sizeof(iovec) + offsetof(iovec, iov_len),
          static_cast<unsigned long long>(k) - before};
}

}  // namespace

fault_injector::fault_injector(std::vector<fault_plan> plans) : plans_(std::move(plans)) {
  for (const auto& f : plans_) results_.push_back({f.text(), {}});
}

bool fault_injector::targets(const fault_plan& f, const destination_counters& d) const {
  switch (f.where) {
    case fault_plan::target::stdout_sink: return has(d.role, stream_role::out);
    case fault_plan::target::stderr_sink: return has(d.role, stream_role::err);
    case fault_plan::target::file: return file_target_matches(f.path, d.what);
  }
  return false;
}

bool fault_injector::at_entry(pid_t p, const destination_counters& dest, std::int64_t call,
                              decoded_call& c, user_regs_struct& regs, std::int64_t t_us) {
  for (std::size_t i = 0; i < plans_.size(); ++i) {
    const auto& f = plans_[i];
    if (!targets(f, dest) || !f.selects(call)) continue;
    fault_event e{call, t_us, p, to_string(c.call), c.bytes, false, ""};
    e.result = f.error != 0 ? fail_call(p, f, c, regs) : shorten(p, f, c, regs);
    e.applied = f.error != 0 || c.bytes != e.requested;
    return record(i, p, std::move(e));  // the first plan that selects a call has it
  }
  return false;
}

/// Keeps event E of plan I, made at thread P's call, with the iovec to put
/// back at its exit if any; returns whether it was applied.
bool fault_injector::record(std::size_t i, pid_t p, fault_event e) {
  if (results_[i].events.size() >= max_events) {  // "every" on a program that retries forever
    ++results_[i].events_dropped;
    return e.applied;
  }
  results_[i].events.push_back(std::move(e));
  if (auto r = restores_.find(p); r != restores_.end() && r->second.plan == SIZE_MAX)
    r->second.plan = i, r->second.event = results_[i].events.size() - 1;
  return results_[i].events.back().applied;
}

/// Skipped at its entry, the call returns -errno (seccomp(2),
/// SECCOMP_RET_TRACE). EPIPE also raises SIGPIPE, as the kernel does.
std::string fault_injector::fail_call(pid_t p, const fault_plan& f, decoded_call& c,
                                      user_regs_struct& regs) {
  bool sigpipe = f.error == EPIPE && epipe_raises_sigpipe(c, regs);
  skip_syscall(regs, -static_cast<long>(f.error));
  set_regs(p, regs);
  if (sigpipe) ::syscall(SYS_tgkill, tgid_of(p), p, SIGPIPE);
  c.bytes = 0;
  return errno_name(f.error) + (sigpipe ? " and SIGPIPE" : "");
}

std::string fault_injector::shorten(pid_t p, const fault_plan& f, decoded_call& c,
                                    user_regs_struct& regs) {
  const auto& info_ = info(c.call);
  if (std::string why = cannot_shorten(f, c); !why.empty()) return why;
  if (info_.bytes == byte_count::iovec) return shorten_iovec(p, f, c, regs);
  set_syscall_arg(regs, info_.bytes_arg, static_cast<unsigned long long>(f.short_bytes));
  set_regs(p, regs);
  return shortened(f, c);
}

/// "short: K of N bytes"; C now asks for the K bytes.
std::string fault_injector::shortened(const fault_plan& f, decoded_call& c) {
  std::string out = "short: " + std::to_string(f.short_bytes) + " of " + std::to_string(c.bytes);
  c.bytes = f.short_bytes;
  return out + " bytes";
}

/// Keeps the iovecs that hold the first K bytes: the count register drops
/// the rest, and the last one's length is cut in the program's memory for
/// the call, then put back at its exit (the program never sees it).
std::string fault_injector::shorten_iovec(pid_t p, const fault_plan& f, decoded_call& c,
                                          user_regs_struct& regs) {
  const auto& info_ = info(c.call);
  auto base = syscall_arg(regs, info_.bytes_arg);
  auto count = std::min<unsigned long long>(syscall_arg(regs, info_.bytes_arg + 1), 1024);
  auto vec = remote_iovecs(p, base, count);
  if (vec.size() != count || count == 0) return "not applied: the iovec could not be read";
  const iovec_cut cut = iovec_cut_at(vec, base, f.short_bytes);
  if (!poke_word(p, cut.len_addr, cut.len)) return "not applied: the iovec could not be written";
  restores_[p] = {cut.len_addr, vec[cut.index].iov_len, info_.bytes_arg + 1,
                  syscall_arg(regs, info_.bytes_arg + 1)};
  set_syscall_arg(regs, info_.bytes_arg + 1, cut.index + 1);
  set_regs(p, regs);
  return shortened(f, c);
}

void fault_injector::at_exit(pid_t p) {
  auto it = restores_.find(p);
  if (it == restores_.end()) return;
  const auto& r = it->second;
  poke_word(p, r.addr, r.len);  // the program's iovec as it was (P gone: nothing to restore)
  restart_whole_if_interrupted(p, r);
  restores_.erase(it);
}

/// P's shortened call R, interrupted by a signal to be restarted: it gets
/// its own iovec count back, and its event says the fault was not applied.
void fault_injector::restart_whole_if_interrupted(pid_t p, const restore& r) {
  user_regs_struct regs{};
  if (!get_regs(p, regs) || !to_be_restarted(syscall_result(regs))) return;
  set_syscall_arg(regs, r.count_arg, r.count);
  set_regs(p, regs);
  if (r.plan < results_.size() && r.event < results_[r.plan].events.size()) {
    auto& e = results_[r.plan].events[r.event];
    e.applied = false;
    e.result = "not applied: interrupted by a signal, the call is restarted whole";
  }
}

}  // namespace flushcheck::detail
