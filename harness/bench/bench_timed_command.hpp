#pragma once
// Commands timed from outside, as a user's shell times them: `flushcheck
// explore` against `flushcheck count`, `flushcheck gate --jobs 1` against
// `--jobs 4`. Round by round, so that a drift of the machine reaches every
// command alike.
#include <string>
#include <vector>

#include "bench_suites.hpp"
#include "run.hpp"

namespace flushcheck::detail {

struct timed_command {
  std::string name;      ///< its row's name
  run_options options;   ///< how it runs
  std::string must_say;  ///< what its stdout must hold, else its row fails ("" for nothing)
};

/// `flushcheck ARGS` (this very binary) in a clean environment, its output
/// kept at both ends (64 KiB), within 10 minutes.
run_options flushcheck_command(const std::vector<std::string>& args);

/// Each of COMMANDS run ctx.options.repeat times, round by round, into a row
/// each: SHAPE with the command's name and repro. A run that fails or does
/// not say what it must fails its row, which is then not run again.
std::vector<bench_row> time_commands(const bench_context& ctx,
                                     const std::vector<timed_command>& commands,
                                     const bench_row& shape);

}  // namespace flushcheck::detail
