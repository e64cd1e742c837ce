#pragma once
// The tracer's side of --fault: counts each plan's calls on its destination
// and rewrites, at a call's entry, the calls a plan selects: an errno (the
// call is skipped and returns -errno) or a short write (the kernel is asked
// for the first K bytes only; nothing is invented or lost by the injection).
#include <sys/types.h>
#include <sys/user.h>

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "call_decoder.hpp"
#include "fault_plan.hpp"
#include "trace.hpp"

namespace flushcheck::detail {

class fault_injector {
 public:
  /// Events kept per plan; more are only counted (fault_result::events_dropped).
  static constexpr std::size_t max_events = 100000;

  explicit fault_injector(std::vector<fault_plan> plans);

  bool empty() const noexcept { return plans_.empty(); }
  /// At the entry of write-family call C of thread P, the CALL-th to
  /// destination DEST: rewrites REGS (and C.bytes: what the kernel is asked
  /// for) when a plan selects it. Returns whether it did.
  bool at_entry(pid_t p, const destination_counters& dest, std::int64_t call, decoded_call& c,
                user_regs_struct& regs, std::int64_t t_us);
  /// Whether P's call must stop at its exit (an iovec length to put back).
  bool needs_exit(pid_t p) const { return restores_.count(p) != 0; }
  /// At the exit of P's shortened iovec call: the program's iovec as it was.
  /// Interrupted by a signal to be restarted (ERESTART*), the call gets its
  /// own iovec count back too: the kernel restarts the program's call whole.
  void at_exit(pid_t p);
  /// P has ended.
  void forget(pid_t p) { restores_.erase(p); }
  std::vector<fault_result> results() const { return results_; }

 private:
  bool targets(const fault_plan& f, const destination_counters& d) const;
  bool record(std::size_t i, pid_t p, fault_event e);
  std::string fail_call(pid_t p, const fault_plan& f, decoded_call& c, user_regs_struct& regs);
  std::string shorten(pid_t p, const fault_plan& f, decoded_call& c, user_regs_struct& regs);
  std::string shorten_iovec(pid_t p, const fault_plan& f, decoded_call& c, user_regs_struct& regs);
  static std::string shortened(const fault_plan& f, decoded_call& c);

  struct restore {
    unsigned long long addr;                 // an iov_len in the program's memory
    unsigned long long len;                  // its value
    int count_arg;                           // the argument holding the iovec count
    unsigned long long count;                // its value
    std::size_t plan = SIZE_MAX, event = 0;  // the fault_event it belongs to
  };
  void restart_whole_if_interrupted(pid_t p, const restore& r);

  std::vector<fault_plan> plans_;
  std::vector<fault_result> results_;
  std::unordered_map<pid_t, restore> restores_;
};

}  // namespace flushcheck::detail
