#include "cpu_pin.hpp"

#include <atomic>

namespace flushcheck::detail {

namespace {
std::atomic<int> g_preferred{-1};
}  // namespace

int preferred_cpu() noexcept {
  const int cpu = g_preferred.load();
  return cpu >= 0 ? cpu : ::sched_getcpu();
}

void prefer_cpu(int cpu) noexcept { g_preferred.store(cpu); }

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
