#pragma once
/// The one table of the calls the tracer sees: number, name, family, where
/// the destination fd and the byte count come from, and the perf tracepoint.
/// The seccomp filter, the ptrace decoder, the perf backend and the reports
/// all read it (docs/tracing.md lists it). Not installed: the calls' names
/// and families are traced_call.hpp's, and a program that reads reports
/// needs no syscall numbers.
#include <sys/syscall.h>

#include <cstddef>
#include <optional>
#include <span>

#include "traced_call.hpp"

namespace flushcheck {

/// Where a write-family call's byte count comes from.
enum class byte_count {
  none,    ///< not a write
  arg,     ///< the count argument (write, pwrite64, sendto)
  iovec,   ///< the sum of an iovec array's lengths (writev, pwritev*)
  msghdr,  ///< the iovec of a struct msghdr (sendmsg)
  result,  ///< the call's result, read at its exit (sendfile, splice, tee, ...:
           ///< their count argument is an upper bound, often SSIZE_MAX)
};

struct traced_call_info {
  traced_call call;
  long nr;  ///< x86_64 syscall number (SYS_fcntl for fcntl_dupfd: F_DUPFD* only)
  const char* name;
  call_family family;
  int fd_arg;  ///< argument holding the destination fd, -1 for none (close_range)
  byte_count bytes;
  int bytes_arg;              ///< argument of the count or the iovec / msghdr pointer
  const char* tracepoint;     ///< syscalls:sys_enter_NAME
  const char* tracepoint_fd;  ///< its field holding the destination fd
};

// clang-format off
inline constexpr traced_call_info traced_calls[] = {
  {traced_call::write,           SYS_write,           "write",           call_family::write, 0, byte_count::arg,    2, "write",           "fd"},
  {traced_call::writev,          SYS_writev,          "writev",          call_family::write, 0, byte_count::iovec,  1, "writev",          "fd"},
  {traced_call::pwrite64,        SYS_pwrite64,        "pwrite64",        call_family::write, 0, byte_count::arg,    2, "pwrite64",        "fd"},
  {traced_call::pwritev,         SYS_pwritev,         "pwritev",         call_family::write, 0, byte_count::iovec,  1, "pwritev",         "fd"},
  {traced_call::pwritev2,        SYS_pwritev2,        "pwritev2",        call_family::write, 0, byte_count::iovec,  1, "pwritev2",        "fd"},
  {traced_call::sendto,          SYS_sendto,          "sendto",          call_family::write, 0, byte_count::arg,    2, "sendto",          "fd"},
  {traced_call::sendmsg,         SYS_sendmsg,         "sendmsg",         call_family::write, 0, byte_count::msghdr, 1, "sendmsg",         "fd"},
  {traced_call::sendfile,        SYS_sendfile,        "sendfile",        call_family::write, 0, byte_count::result, 0, "sendfile64",      "out_fd"},
  {traced_call::splice,          SYS_splice,          "splice",          call_family::write, 2, byte_count::result, 0, "splice",          "fd_out"},
  {traced_call::tee,             SYS_tee,             "tee",             call_family::write, 1, byte_count::result, 0, "tee",             "fdout"},
  {traced_call::copy_file_range, SYS_copy_file_range, "copy_file_range", call_family::write, 2, byte_count::result, 0, "copy_file_range", "fd_out"},
  {traced_call::vmsplice,        SYS_vmsplice,        "vmsplice",        call_family::write, 0, byte_count::result, 0, "vmsplice",        "fd"},
  {traced_call::fsync,           SYS_fsync,           "fsync",           call_family::sync,  0, byte_count::none,   0, "fsync",           "fd"},
  {traced_call::fdatasync,       SYS_fdatasync,       "fdatasync",       call_family::sync,  0, byte_count::none,   0, "fdatasync",       "fd"},
  {traced_call::sync_file_range, SYS_sync_file_range, "sync_file_range", call_family::sync,  0, byte_count::none,   0, "sync_file_range", "fd"},
  {traced_call::close,           SYS_close,           "close",           call_family::fd,    0, byte_count::none,   0, "close",           "fd"},
  {traced_call::close_range,     SYS_close_range,     "close_range",     call_family::fd,   -1, byte_count::none,   0, "close_range",     "fd"},
  {traced_call::dup,             SYS_dup,             "dup",             call_family::fd,    0, byte_count::none,   0, "dup",             "fildes"},
  {traced_call::dup2,            SYS_dup2,            "dup2",            call_family::fd,    0, byte_count::none,   0, "dup2",            "oldfd"},
  {traced_call::dup3,            SYS_dup3,            "dup3",            call_family::fd,    0, byte_count::none,   0, "dup3",            "oldfd"},
  {traced_call::fcntl_dupfd,     SYS_fcntl,           "fcntl_dupfd",     call_family::fd,    0, byte_count::none,   0, "fcntl",           "fd"},
  {traced_call::clone,           SYS_clone,           "clone",           call_family::process, -1, byte_count::none, 0, "clone",         "clone_flags"},
  {traced_call::clone3,          SYS_clone3,          "clone3",          call_family::process, -1, byte_count::none, 0, "clone3",        "uargs"},
};
// clang-format on

static_assert(std::size(traced_calls) == traced_call_count, "a row for every traced_call");

constexpr bool table_in_enum_order() {
  for (std::size_t i = 0; i < traced_call_count; ++i)
    if (static_cast<std::size_t>(traced_calls[i].call) != i) return false;
  return true;
}
static_assert(table_in_enum_order(), "traced_calls[] must list traced_call in order");

constexpr const traced_call_info& info(traced_call c) {
  return traced_calls[static_cast<std::size_t>(c)];
}

/// The traced call with syscall number NR (fcntl: F_DUPFD* is all the filter
/// stops on), or nullopt.
std::optional<traced_call> traced_call_of(long nr) noexcept;

}  // namespace flushcheck
