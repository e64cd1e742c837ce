#pragma once
// The write:N / after-write:N cut as a state machine, exact in the tracer's
// global order of call entries: with several threads, the observed writes
// that entered before the N-th have returned when the signal is sent, and
// those that enter after it wait until then (for good, when the signal ends
// their process: they never happen). It decides; the tracer stops, resumes,
// rewinds and signals the threads as it says.
//
// write:N stops the N-th call at its entry and skips it, stepping back onto
// its syscall instruction: a fatal signal ends the process before the write;
// a caught one runs its handler, and the write is then made as if restarted
// (SA_RESTART). after-write:N lets the N-th call return, then signals.
#include <sys/types.h>
#include <sys/user.h>

#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "call_decoder.hpp"
#include "kill_plan.hpp"

namespace flushcheck::detail {

class write_cut {
 public:
  explicit write_cut(const kill_plan& plan) : plan_(plan) {}

  /// Whether there is a cut to make: the plan is write:N or after-write:N.
  bool armed() const { return plan_.needs_tracer(); }

  /// Whether the next observed write is the write:N cut's call: it is
  /// stopped at its entry and never counted (unless made after all, rerun).
  bool next_is_cut_call() const {
    return plan_.when == kill_plan::when_kind::write && at_ == phase::before &&
           observed_ + 1 == plan_.n;
  }

  /// What the thread that entered an observed write does next.
  enum class step {
    run,          ///< on, as for any call
    run_to_exit,  ///< on, and stop at its exit: it returns before the cut
    reached,      ///< it made the N-th: the cut is under way (ready)
  };
  /// Thread P entered an observed write, with REGS; OTHERS: other threads
  /// or processes are followed.
  step on_write(pid_t p, const user_regs_struct& regs, bool others);

  /// Whether an observed write that P enters now must wait: while the cut
  /// is under way, and for good once the signal is sent where ENDS(P,
  /// signal) says it ends P's process.
  template <class EndsProcess>
  bool holds(pid_t p, EndsProcess ends) const {
    return at_ == phase::waiting || (at_ == phase::sent && ends(p, plan_.signal));
  }
  /// P waits at the entry of C.
  void hold(pid_t p, const decoded_call& c) { held_.emplace_back(p, c); }
  /// The writes that waited, to be released or held again (after the signal).
  std::vector<std::pair<pid_t, decoded_call>> take_held() { return std::exchange(held_, {}); }
  /// A released write was made: it counts.
  void released() { ++observed_; }

  /// P's observed write returned. True when P stays stopped: it made the
  /// after-write:N call, and the signal comes first.
  bool on_return(pid_t p);
  /// P has ended: it holds nothing up any more.
  void on_exit(pid_t p);

  /// Whether the signal goes now: the N-th call was made (after-write: and
  /// returned) and every observed write that entered before it has returned.
  bool ready() const;
  /// The thread to signal, stopped at the N-th call's entry or exit.
  pid_t thread() const { return thread_; }
  /// write:N: the N-th call's registers, stepped back onto its syscall
  /// instruction, for the thread to be set to; after-write:N: nullopt.
  /// Its re-run, after a caught signal's handler, is known by its site (is_rerun).
  std::optional<user_regs_struct> rewind();
  /// The signal is sent.
  void sent() { at_ = phase::sent; }

  /// Whether P's call, at REGS, is the rewound N-th call made again.
  bool is_rerun(pid_t p, const user_regs_struct& regs);

 private:
  enum class phase { before, waiting, sent };

  kill_plan plan_;
  phase at_ = phase::before;
  long observed_ = 0;                                 // observed writes entered (the N-th included)
  pid_t thread_ = -1;                                 // made the N-th call
  user_regs_struct regs_{};                           // its registers at that entry
  bool returned_ = false;                             // after-write:N: the N-th call has returned
  std::unordered_set<pid_t> in_flight_;               // entered before the N-th, not yet returned
  std::vector<std::pair<pid_t, decoded_call>> held_;  // entered after it
  std::unordered_map<pid_t, call_site> rewound_;      // write:N with a caught signal
};

}  // namespace flushcheck::detail
