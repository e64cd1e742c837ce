#include "cpu_pin.hpp"

namespace flushcheck::detail {

cpu_pin::cpu_pin(int cpu) noexcept {
  if (cpu < 0 || cpu >= CPU_SETSIZE || ::sched_getaffinity(0, sizeof before_, &before_) != 0)
    return;
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(cpu, &one);
  pinned_ = ::sched_setaffinity(0, sizeof one, &one) == 0;
}

cpu_pin::~cpu_pin() {
  if (pinned_) ::sched_setaffinity(0, sizeof before_, &before_);
}

}  // namespace flushcheck::detail
