#include "write_cut.hpp"

#include <algorithm>

namespace flushcheck::detail {

write_cut::step write_cut::on_write(pid_t p, const user_regs_struct& regs, bool others) {
  const long k = ++observed_;
  if (k == plan_.n) {
    at_ = phase::waiting;
    thread_ = p;
    regs_ = regs;
    return step::reached;
  }
  // One thread alone: its write returns before its next.
  if (k > plan_.n || !others) return step::run;
  in_flight_.insert(p);
  return step::run_to_exit;
}

bool write_cut::on_return(pid_t p) {
  in_flight_.erase(p);
  if (p != thread_ || at_ != phase::waiting) return false;
  returned_ = true;
  return true;
}

void write_cut::on_exit(pid_t p) {
  std::erase_if(held_, [p](const auto& h) { return h.first == p; });
  in_flight_.erase(p);
}

bool write_cut::ready() const {
  if (at_ != phase::waiting || !in_flight_.empty()) return false;
  return plan_.when == kill_plan::when_kind::write || returned_;
}

std::optional<user_regs_struct> write_cut::rewind() {
  if (plan_.when != kill_plan::when_kind::write) return std::nullopt;
  rewound_[thread_] = site_of(regs_);  // as its re-run will stop
  user_regs_struct regs = regs_;
  rewind_syscall(regs);
  return regs;
}

bool write_cut::is_rerun(pid_t p, const user_regs_struct& regs) {
  auto it = rewound_.find(p);
  if (it == rewound_.end()) return false;
  const bool same = it->second == site_of(regs);
  if (same) rewound_.erase(it);
  return same;
}

}  // namespace flushcheck::detail
