#pragma once
// Decoding a stopped tracee's registers into the traced call it is making:
// which call, which destination fd, how many bytes (x86_64 calling
// convention; traced_calls.hpp says where each call keeps them).
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/user.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "traced_calls.hpp"

namespace flushcheck::detail {

struct decoded_call {
  traced_call call = traced_call::write;
  int fd = -1;             ///< destination fd, -1 for none
  std::int64_t bytes = 0;  ///< at entry; 0 until the exit for byte_count::result
};

/// Argument I (0-5) of the call REGS is stopped at.
unsigned long long syscall_arg(const user_regs_struct& regs, int i) noexcept;
/// Sets argument I (0-5) in REGS (to be written back with PTRACE_SETREGS).
void set_syscall_arg(user_regs_struct& regs, int i, unsigned long long v) noexcept;

/// The system call number REGS are stopped at (-1: skipped).
long syscall_nr(const user_regs_struct& regs) noexcept;
/// What the call returned (at its exit; or -errno).
long syscall_result(const user_regs_struct& regs) noexcept;
/// P's call's result, read alone at its exit stop; nullopt if P is gone.
std::optional<long> read_syscall_result(pid_t p) noexcept;

/// Where a call was made and with what: a call made again (after a
/// rewind_syscall) has the same site.
struct call_site {
  unsigned long long ip = 0, nr = 0, a0 = 0, a1 = 0, a2 = 0;
  bool operator==(const call_site&) const = default;
};
call_site site_of(const user_regs_struct& regs) noexcept;

/// At a call's entry: skip it (it returns RESULT, -errno for an error:
/// seccomp(2), SECCOMP_RET_TRACE).
void skip_syscall(user_regs_struct& regs, long result) noexcept;
/// At a call's entry: skip it now and step back onto its syscall
/// instruction, so that it is made again when the thread runs on (as a
/// call restarted after a signal's handler).
void rewind_syscall(user_regs_struct& regs) noexcept;

/// The traced call thread P is stopped at the entry of, or nullopt.
std::optional<decoded_call> decode_call(pid_t p, const user_regs_struct& regs);

/// The COUNT iovecs at IOV in P's memory (at most 1024; fewer if not all
/// could be read).
std::vector<iovec> remote_iovecs(pid_t p, unsigned long long iov, unsigned long long count);
/// The sum of their lengths.
std::int64_t remote_iov_bytes(pid_t p, unsigned long long iov, unsigned long long count);

}  // namespace flushcheck::detail
