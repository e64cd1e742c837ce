#pragma once
/// The calls the tracer counts, by name and family: what a trace_event and a
/// destination's counters speak of. Their numbers, arguments and tracepoints
/// are the tracer's own table (traced_calls.hpp, not installed).
#include <cstddef>

namespace flushcheck {

/// In the order of the tracer's table. The write family first: their calls to stdout's sink are
/// what write:N counts.
enum class traced_call {
  write,
  writev,
  pwrite64,
  pwritev,
  pwritev2,
  sendto,
  sendmsg,
  sendfile,
  splice,
  tee,
  copy_file_range,
  vmsplice,
  fsync,
  fdatasync,
  sync_file_range,
  close,
  close_range,
  dup,
  dup2,
  dup3,
  fcntl_dupfd,
  clone,
  clone3,
};

enum class call_family {
  write,    ///< hands bytes to its destination fd
  sync,     ///< fsync and friends: counted per destination
  fd,       ///< changes what an fd number names (close, dup*): keeps the fd map right
  process,  ///< makes a process or thread: CLONE_UNTRACED is cleared at entry, so that the
            ///< child is traced rather than meeting the filter with no tracer (ENOSYS)
};

/// How many calls the tracer counts: a destination keeps a counter for each.
inline constexpr std::size_t traced_call_count = static_cast<std::size_t>(traced_call::clone3) + 1;

/// "write", "fcntl_dupfd", ...: the call's name in reports and JSON.
const char* to_string(traced_call c) noexcept;
call_family family_of(traced_call c) noexcept;
inline bool is_write_family(traced_call c) noexcept { return family_of(c) == call_family::write; }

}  // namespace flushcheck
