#pragma once
// How a bench row is measured: its program run R times untraced, each run
// timing its own measured part (the `bench ns=...` line of targets/bench/),
// then once traced for the write-family calls. Used by the suites only.
#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "bench.hpp"
#include "sink_kind.hpp"

namespace flushcheck::detail {

/// One workload to measure: the row as far as it is known before it runs.
struct bench_case {
  bench_row row;  ///< name, series, toolchain, sink, x, bytes, ops
  std::vector<std::string> argv;
  sink_kind sink = sink_kind::file;
  std::string input;         ///< bytes on a pipe stdin ("" : /dev/null)
  bool count_writes = true;  ///< false: the measured part writes nothing worth counting
  /// The traced run's program and arguments when they must differ from argv:
  /// the tracer keeps a traced program on one CPU (cpu_pin.hpp), so a row
  /// that needs two is counted with its one-CPU twin (same calls).
  std::vector<std::string> count_argv;
};

/// The sizes of one run of the suites: the defaults, or --quick's.
struct bench_sizes {
  bool quick = false;
  long scale(long full, long quick_value) const { return quick ? quick_value : full; }
};

/// The `bench ...` line of a program's stderr: its key=value pairs, or
/// SKIP set to the reason of a `bench skip: REASON` line (and no pairs);
/// nullopt when there is neither.
std::optional<std::map<std::string, double>> parse_bench_line(const std::string& err,
                                                              std::string& skip);

/// C's row, measured REPEAT times (and counted once when C says so).
/// Throws spawn_error when the program cannot start.
bench_row measure(const bench_case& c, int repeat, std::chrono::milliseconds timeout);

/// Sets each measured row's ratio to the suite's baseline row: its cost per
/// byte over the baseline's (per op where a row moves no bytes, per run where
/// neither counts), so that rows of different sizes compare.
void set_ratios(bench_suite& s);

/// "4 KiB", "1 MiB", "16 B": a size in bytes for row names.
std::string size_name(long bytes);

}  // namespace flushcheck::detail
