#pragma once
// The kernel's side of the model's write calls (docs/model.md): which
// destination each channel's calls reach, what an injected fault or
// /dev/full does to a call, where the cut falls, and SIGPIPE. It records
// every call and the bytes it delivered.
#include <array>
#include <bitset>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "model.hpp"
#include "script.h"

namespace flushcheck::detail {

/// The program ended inside a call or an op: the cut's signal, or SIGPIPE.
struct ended {
  wait_status status;
  bool cut = false;  ///< the cut point was reached
};

/// 2>&1: both channels' calls reach destination 0.
bool merged(const model_setup& s);
/// Destination 0 is stdout's sink, 1 stderr's.
int dest_of(const model_setup& s, channel c);
sink_kind dest_sink(const model_setup& s, int d);
/// Whether plan F counts and faults the calls to destination D.
bool reaches(const model_setup& s, const fault_plan& f, int d);
/// Whether any fault plan reaches destination D.
bool faults_reach(const model_setup& s, int d);

class model_kernel {
 public:
  model_kernel(const model_setup& setup, const kill_plan& cut) : setup_(setup), cut_(cut) {}

  /// One write-family call of channel CH's BYTES, made by op OP (REPORT: a
  /// target's error report): the cut at its entry, the kernel's result, the
  /// cut after it, SIGPIPE. Returns what the kernel returned; throws ended.
  long call(channel ch, std::string_view bytes, int op, bool report);

  /// signal(SIG, SIG_IGN): refused for SIGKILL and SIGSTOP (EINVAL).
  void ignore(long sig);
  bool ignored(long sig) const { return ignored_[static_cast<std::size_t>(sig)]; }

  const std::vector<model_call>& calls() const { return calls_; }
  /// What the calls of channel C delivered, in order.
  const std::string& delivered(channel c) const { return delivered_[static_cast<std::size_t>(c)]; }

 private:
  struct result {
    long bytes = 0;  ///< taken, or -1
    bool sigpipe = false;
  };
  result answer(int d, long nth, std::size_t n) const;
  void record(channel ch, std::string_view bytes, long taken, int op, bool report);
  void signals_after(bool sigpipe, bool cut_after) const;

  const model_setup& setup_;
  kill_plan cut_;
  std::array<std::string, channel_count> delivered_;
  std::vector<model_call> calls_;
  std::array<long, 2> calls_on_{};          ///< write-family calls per destination so far
  std::bitset<FC_MAX_SIGNAL + 1> ignored_;  ///< "ignore SIG": a later "raise SIG" does nothing
};

}  // namespace flushcheck::detail
