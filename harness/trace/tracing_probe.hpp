#pragma once
// Whether the tracer can work here: ptrace and seccomp permitted, x86_64.
#include <string>

namespace flushcheck {

/// Why tracing is not possible here, or "" if it is (probed once a process).
std::string tracing_unavailable_reason();

}  // namespace flushcheck
