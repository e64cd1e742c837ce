#include "perf_counter.hpp"

#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <sstream>

#include "error.hpp"
#include "input_file.hpp"
#include "traced_calls.hpp"

namespace flushcheck {
namespace {

/// The write family, from the one table of traced calls.
std::vector<traced_call> write_family() {
  std::vector<traced_call> v;
  for (const auto& c : traced_calls)
    if (c.family == call_family::write) v.push_back(c.call);
  return v;
}

/// The tracepoint id of syscalls:sys_enter_CALL, or -1.
long tracepoint_id(traced_call call) {
  for (const char* root : {"/sys/kernel/tracing", "/sys/kernel/debug/tracing"}) {
    std::istringstream in(
        read_file(std::string(root) + "/events/syscalls/sys_enter_" + info(call).tracepoint + "/id")
            .value_or(""));
    long id = -1;
    if (in >> id) return id;
  }
  return -1;
}

int open_counter(long id, pid_t pid, bool inherit = true) {
  perf_event_attr attr{};
  attr.size = sizeof attr;
  attr.type = PERF_TYPE_TRACEPOINT;
  attr.config = static_cast<std::uint64_t>(id);
  attr.inherit = inherit ? 1 : 0;  // threads and children made from now on
  attr.disabled = 0;
  return static_cast<int>(::syscall(SYS_perf_event_open, &attr, pid, -1, -1, PERF_FLAG_FD_CLOEXEC));
}

/// Registering a syscall tracepoint's probe costs ~10 ms or more (the
/// kernel waits for an RCU grace period); unregistering when its last event
/// closes costs as much again. One counter per tracepoint on this thread,
/// open while any perf_attachment lives, keeps the probes registered, so
/// that each run opens and closes its own counters in microseconds. Not
/// for the process's life: registered, the probes put every syscall of the
/// machine on the slow path, plain runs' too.
struct registration {
  std::mutex lock;
  int holders = 0;
  std::vector<unique_fd> counters;
};

registration& the_registration() {
  static registration r;
  return r;
}

}  // namespace

perf_attachment::perf_attachment() {
  registration& r = the_registration();
  const std::lock_guard<std::mutex> hold(r.lock);
  if (r.holders++ > 0) return;
  for (traced_call call : write_family()) {
    long id = tracepoint_id(call);
    if (id >= 0) r.counters.emplace_back(open_counter(id, 0, false));  // not into our children
  }
}

perf_attachment::~perf_attachment() {
  registration& r = the_registration();
  const std::lock_guard<std::mutex> hold(r.lock);
  if (--r.holders == 0) r.counters.clear();
}

namespace {

/// Why syscalls:sys_enter_write's id could not be read under tracefs mount
/// point ROOT: not readable by us, or no syscall tracepoints; "" when
/// nothing is mounted there.
std::string tracepoint_missing_under(const char* root) {
  std::string id = std::string(root) + "/events/syscalls/sys_enter_write/id";
  std::string events = std::string(root) + "/events";
  if (::access(id.c_str(), R_OK) != 0 && errno != ENOENT)
    return "cannot read " + id + ": " + std::strerror(errno) +
           " (tracefs is mounted; reading it needs root or its group)";
  if (::access(events.c_str(), F_OK) == 0 && ::access(events.c_str(), R_OK | X_OK) != 0)
    return "cannot read " + events + ": " + std::strerror(errno);
  if (::access(events.c_str(), F_OK) == 0)
    return std::string("no syscalls:sys_enter_write tracepoint under ") + root +
           " (the kernel lacks CONFIG_FTRACE_SYSCALLS)";
  return "";
}

/// Why syscalls:sys_enter_write's id could not be read: tracefs not
/// mounted, mounted but not readable by us, or no syscall tracepoints.
std::string tracepoint_missing_reason() {
  for (const char* root : {"/sys/kernel/tracing", "/sys/kernel/debug/tracing"})
    if (std::string why = tracepoint_missing_under(root); !why.empty()) return why;
  return "tracefs is not mounted at /sys/kernel/tracing (mount -t tracefs nodev "
         "/sys/kernel/tracing)";
}

}  // namespace

/// Asked once per process: the probe opens a counter, which registers the
/// tracepoint and unregisters it at its close (two grace periods).
std::string perf_unavailable_reason() {
  static const std::string why = [] {
    long id = tracepoint_id(traced_call::write);
    if (id < 0) return tracepoint_missing_reason();
    int fd = open_counter(id, 0);
    if (fd < 0)
      return std::string("perf_event_open refused: ") + std::strerror(errno) +
             " (kernel.perf_event_paranoid, or no CAP_PERFMON)";
    ::close(fd);
    return std::string();
  }();
  return why;
}

perf_counters::perf_counters(pid_t pid) {
  for (traced_call call : write_family()) {
    long id = tracepoint_id(call);
    if (id < 0) continue;  // e.g. no pwritev2 tracepoint on an old kernel
    for (bool fd1 : {false, true}) {
      unique_fd fd(open_counter(id, pid));
      if (!fd) throw_errno(std::string("perf_event_open sys_enter_") + info(call).tracepoint);
      std::string filter = std::string(info(call).tracepoint_fd) + " == 1";
      if (fd1 && ::ioctl(fd.get(), PERF_EVENT_IOC_SET_FILTER, filter.c_str()) != 0)
        throw_errno("PERF_EVENT_IOC_SET_FILTER " + filter);
      counters_.push_back({call, fd1, std::move(fd)});
    }
  }
  if (counters_.empty()) throw harness_error({ENOENT, std::generic_category()}, "no tracepoints");
}

/// Each counter's calls: those on fd 1 into its destination, the rest
/// into the totals.
trace_summary perf_counters::read() const {
  trace_summary t;
  t.backend = "perf";
  destination_counters out;
  out.what = "fd 1";
  out.role = stream_role::out;
  out.fds = {1};
  for (const auto& c : counters_) {
    std::uint64_t raw = 0;
    if (::read(c.fd.get(), &raw, sizeof raw) != sizeof raw) continue;
    const auto value = static_cast<std::int64_t>(raw);
    const auto i = static_cast<std::size_t>(c.call);
    if (c.fd1) {
      out.calls[i] += value;
      out.write_calls += value;
    } else {
      t.totals[i] += value;
    }
  }
  t.destinations.push_back(std::move(out));
  return t;
}

}  // namespace flushcheck
