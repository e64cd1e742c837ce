#pragma once
// The seccomp-bpf program the traced child installs: SECCOMP_RET_TRACE on
// the traced calls, ALLOW for everything else. Built with libseccomp in the
// harness (not between fork and exec, where only async-signal-safe calls go).
#include <linux/filter.h>

#include <vector>

namespace flushcheck::detail {

std::vector<sock_filter> traced_calls_filter();

}  // namespace flushcheck::detail
