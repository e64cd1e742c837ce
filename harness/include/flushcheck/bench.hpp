#pragma once
/// `flushcheck bench`: the seeds' measurements (docs/bench.md) as one value.
/// A row is one workload: a bench program (targets/bench/) run R times
/// untraced, each run timing its own measured part, and once more traced, for
/// its write-family calls, exactly. A suite is rows, the seed's claims with
/// what this machine says of them, and plots; the reporters of
/// bench_report.hpp turn the value into text, JSON and HTML.
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "flushcheck/target_set.hpp"

namespace flushcheck {

struct bench_row {
  std::string name;             ///< unique in its suite: "putc none file [default]"
  std::string series;           ///< the plot line it belongs to: "default _IOFBF"
  std::string toolchain;        ///< "default", "musl", ...; "" where the C library does not matter
  std::string sink;             ///< "file", "pipe", "null", or "-" (the program's own pipe or file)
  double x = 0;                 ///< the swept value (block or buffer size in bytes, ...); 0: none
  std::int64_t bytes = 0;       ///< bytes the measured part moves
  std::int64_t ops = 0;         ///< calls it makes (putc, lines, round trips, blocks)
  std::vector<double> seconds;  ///< the measured part, per repetition
  std::int64_t write_calls = -1;  ///< write-family calls of the traced run; -1: not counted
  double ratio = 0;               ///< median / the suite's baseline median
  /// What the program reported beside its time: "p50_ns", "resident_after", ...
  std::map<std::string, double> values;
  std::string skipped;  ///< why it was not measured; "" when it was
  bool failed = false;  ///< the program failed (skipped says how): a bench that must be mended
  std::string repro;    ///< a shell line that runs it once: "flushcheck run ... -- PROG ARGS"

  double min() const;
  double median() const;
  double max() const;
  /// bytes / median second; 0 without bytes or times.
  double throughput() const;
  bool measured() const { return skipped.empty() && !seconds.empty(); }
};

/// One figure or claim of a seed write-up, and whether this machine shows it.
struct bench_claim {
  std::string seed;  ///< "10,000,000 putc to a file: _IONBF ~10,000,000 write()" (SEED_CLAIMS A)
  std::string kind;  ///< "mechanism" (write counts, exact) or "ordering" (times)
  bool holds = false;
  std::string observed;  ///< what this run measured, in words and numbers
};

struct bench_point {
  double x = 0, y = 0;
};

struct bench_series {
  std::string name;
  std::vector<bench_point> points;  ///< in order of x
};

/// A line plot, computed from the rows once they are measured.
struct bench_plot {
  std::string title;
  std::string x_label;  ///< with its unit: "block size (bytes)"
  std::string y_label;  ///< "throughput (MB/s)"
  bool log_x = true, log_y = true;
  std::vector<bench_series> series;
};

struct bench_suite {
  std::string name;      ///< "stdio", "iostream", "pipe", "pagecache", "tracer"
  std::string title;     ///< a line: what it measures
  std::string seed;      ///< which seed write-up: "SEED_CLAIMS A, B"
  std::string baseline;  ///< the row every ratio is to
  std::string
      placement;  ///< where the measured processes ran: "unpinned", "writer CPU 0, reader CPU 1"
  std::vector<bench_row> rows;
  std::vector<bench_claim> claims;
  std::vector<bench_plot> plots;
  std::vector<std::string> notes;  ///< the file system, a skipped part and why, ...
};

struct bench_report {
  int schema = 1;
  std::string machine;  ///< "Linux 6.1.0 x86_64, 2 CPUs"
  int repeat = 0;
  bool quick = false;
  std::vector<bench_suite> suites;
};

struct bench_options {
  std::vector<std::string> suites;     ///< in the order run; empty: every suite
  std::vector<target_set> toolchains;  ///< stdio and iostream run per set; the first is the default
  int repeat = 3;
  bool quick = false;  ///< small sizes: every suite in a few seconds
  /// Called with a line before each row is run (a progress display).
  std::function<void(const std::string&)> progress;
};

/// "stdio", "iostream", "pipe", "pagecache", "tracer", in that order.
const std::vector<std::string>& bench_suite_names();

/// Runs the suites asked for. Throws usage_error for an unknown suite name,
/// spawn_error when a bench program cannot start.
bench_report run_bench(const bench_options& options);

}  // namespace flushcheck
