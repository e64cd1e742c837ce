#pragma once
/// The command line that repeats a run: every verdict carries one.
#include <string>

#include "flushcheck/run.hpp"

namespace flushcheck {

/// The one `env -i ... flushcheck run ...` command line that repeats a run
/// with options O (its environment, sinks, stdin, kill, trace, program).
std::string repro_command(const run_options& o);

}  // namespace flushcheck
