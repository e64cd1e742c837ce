#include "call_decoder.hpp"

#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdint>

namespace flushcheck::detail {

unsigned long long syscall_arg(const user_regs_struct& regs, int i) noexcept {
  switch (i) {
    case 0: return regs.rdi;
    case 1: return regs.rsi;
    case 2: return regs.rdx;
    case 3: return regs.r10;
    case 4: return regs.r8;
    default: return regs.r9;
  }
}

void set_syscall_arg(user_regs_struct& regs, int i, unsigned long long v) noexcept {
  switch (i) {
    case 0: regs.rdi = v; break;
    case 1: regs.rsi = v; break;
    case 2: regs.rdx = v; break;
    case 3: regs.r10 = v; break;
    case 4: regs.r8 = v; break;
    default: regs.r9 = v; break;
  }
}

long syscall_nr(const user_regs_struct& regs) noexcept { return static_cast<long>(regs.orig_rax); }

long syscall_result(const user_regs_struct& regs) noexcept { return static_cast<long>(regs.rax); }

std::optional<long> read_syscall_result(pid_t p) noexcept {
  errno = 0;  // the result may be -1: only errno tells
  const long rax = ::ptrace(PTRACE_PEEKUSER, p, offsetof(user_regs_struct, rax), nullptr);
  if (errno != 0) return std::nullopt;
  return rax;
}

call_site site_of(const user_regs_struct& regs) noexcept {
  return {regs.rip, regs.orig_rax, regs.rdi, regs.rsi, regs.rdx};
}

void skip_syscall(user_regs_struct& regs, long result) noexcept {
  regs.orig_rax = static_cast<unsigned long long>(-1);
  regs.rax = static_cast<unsigned long long>(result);
}

void rewind_syscall(user_regs_struct& regs) noexcept {
  regs.rax = regs.orig_rax;  // the number goes back where the syscall instruction reads it
  regs.orig_rax = static_cast<unsigned long long>(-1);
  regs.rip -= 2;  // syscall (0f 05) is two bytes long
}

std::vector<iovec> remote_iovecs(pid_t p, unsigned long long iov, unsigned long long count) {
  std::vector<iovec> vec(std::min<unsigned long long>(count, 1024));
  iovec local{vec.data(), vec.size() * sizeof(iovec)};
  iovec remote{reinterpret_cast<void*>(iov), vec.size() * sizeof(iovec)};
  ssize_t n = ::process_vm_readv(p, &local, 1, &remote, 1, 0);
  vec.resize(n < 0 ? 0 : static_cast<std::size_t>(n) / sizeof(iovec));
  return vec;
}

std::int64_t remote_iov_bytes(pid_t p, unsigned long long iov, unsigned long long count) {
  std::int64_t total = 0;
  for (const auto& v : remote_iovecs(p, iov, count)) total += static_cast<std::int64_t>(v.iov_len);
  return total;
}

namespace {

std::int64_t msghdr_bytes(pid_t p, unsigned long long addr) {
  msghdr m{};
  iovec local{&m, sizeof m};
  iovec remote{reinterpret_cast<void*>(addr), sizeof m};
  if (::process_vm_readv(p, &local, 1, &remote, 1, 0) != sizeof m) return 0;
  return remote_iov_bytes(p, reinterpret_cast<unsigned long long>(m.msg_iov), m.msg_iovlen);
}

std::int64_t entry_bytes(pid_t p, const traced_call_info& c, const user_regs_struct& regs) {
  unsigned long long a = syscall_arg(regs, c.bytes_arg);
  switch (c.bytes) {
    case byte_count::arg: return static_cast<std::int64_t>(a);
    case byte_count::iovec: return remote_iov_bytes(p, a, syscall_arg(regs, c.bytes_arg + 1));
    case byte_count::msghdr: return msghdr_bytes(p, a);
    default: return 0;  // none, or result: known at the exit
  }
}

}  // namespace

std::optional<decoded_call> decode_call(pid_t p, const user_regs_struct& regs) {
  auto call = traced_call_of(syscall_nr(regs));
  if (!call) return std::nullopt;
  const auto& c = info(*call);
  int fd = c.fd_arg < 0 ? -1 : static_cast<int>(syscall_arg(regs, c.fd_arg));
  return decoded_call{*call, fd, entry_bytes(p, c, regs)};
}

}  // namespace flushcheck::detail
