#pragma once
/// The eBPF counting backend (docs/tracing.md): every traced call of the
/// program and its descendants counted in the kernel, per destination, with
/// no stop: calls, bytes and write sizes as the tracer gives them, no event
/// log, no cut, no fault. Needs root (CAP_BPF and CAP_PERFMON) and the
/// kernel's BTF; one BPF object is loaded per flushcheck process and serves
/// each run after the first.
#include <sys/types.h>

#include <cstdint>
#include <string>

#include "trace.hpp"
#include "tracer.hpp"

namespace flushcheck {

/// Why the eBPF backend cannot count here ("" if it can): built without it,
/// no BTF, or the kernel refused to load or attach it (and why). Loads the
/// object the first time.
std::string bpf_unavailable_reason();

/// How the loaded object reads the kernel's structures at each call:
/// "plain loads" (bpf_rdonly_cast, kernel 6.2 and later) or "helper calls"
/// (bpf_probe_read_kernel: older kernels, or FLUSHCHECK_BPF_COMPAT=1); ""
/// when it is unavailable.
std::string bpf_reads_by();

/// Keeps the object attached while it lives, so that the runs a command
/// makes one after another (and counts with it) skip the attach and detach
/// that each run pays alone: under 1 ms to 30 ms of RCU grace periods
/// (docs/tracing.md). Attached, it taxes every syscall on the machine: hold
/// it across a batch of counted runs only. Throws as bpf_counters does.
class bpf_attachment {
 public:
  bpf_attachment();
  ~bpf_attachment();
  bpf_attachment(const bpf_attachment&) = delete;
  bpf_attachment& operator=(const bpf_attachment&) = delete;
};

/// The floor of the backend's cost (bench's tracer suite): empty programs
/// on the same attach points (sys_enter, sys_exit, process fork and exit),
/// attached while it lives, in an object of their own. What the counters
/// cost is measured against it. Throws as bpf_attachment does.
class bpf_floor_attachment {
 public:
  bpf_floor_attachment();
  ~bpf_floor_attachment();
  bpf_floor_attachment(const bpf_floor_attachment&) = delete;
  bpf_floor_attachment& operator=(const bpf_floor_attachment&) = delete;

 private:
  void* skel_ = nullptr;  // write_counter_bpf*, whose header stays out of this one
};

/// One run's counts: from the construction (the program stopped before its
/// first instruction) to read().
class bpf_counters {
 public:
  /// Starts counting for PID and every process it makes; OUT and ERR name
  /// the sinks (their roles in the summary). Throws harness_error when the
  /// backend is unavailable (bpf_unavailable_reason says why).
  bpf_counters(pid_t pid, file_id out, file_id err);
  ~bpf_counters();
  bpf_counters(const bpf_counters&) = delete;
  bpf_counters& operator=(const bpf_counters&) = delete;
  /// The counts so far, per destination in first-seen order of (device,
  /// inode), and per call; calls no map had room for make it throw.
  trace_summary read() const;

 private:
  bpf_attachment attached_;
  std::uint32_t run_;
  file_id out_, err_;
  std::uint64_t lost_at_start_ = 0;  ///< the object's count of calls no map had room for
};

}  // namespace flushcheck
