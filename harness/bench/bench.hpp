#pragma once
/// `flushcheck bench`: the seeds' measurements (docs/bench.md) as one value.
/// A row is one workload: a bench program (targets/bench/) run R times
/// untraced, each run timing its own measured part, and once more traced, for
/// its write-family calls, exactly. A suite is rows, the seed's claims with
/// what this machine says of them, and plots; the reporters of
/// bench_report.hpp turn the value into text, JSON, HTML and Markdown.
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "target_set.hpp"

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
  /// Cost per byte (per op, per run) over the suite's baseline row's; 1: as
  /// costly; the tracer's rows: over their own workload's plain run.
  double ratio = 0;
  /// What the program reported beside its time: "p50_ns", "resident_after", ...
  /// (the median over the repetitions, as for the time; where they differ,
  /// also "KEY.min" and "KEY.max", for the claims that must hold in each).
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
  /// "mechanism" (write counts, exact), "ordering" (times side by side),
  /// "memory" (peak RSS) or "latency" (how late against a set time)
  std::string kind;
  bool holds = false;
  std::string observed;  ///< what this run measured, in words and numbers
  /// false: its rows were not measured here (tmpfs, one CPU), so neither
  /// holds nor fails; observed says why.
  bool checked = true;
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
  std::string name;      ///< "stdio", "iostream", "pipe", "pagecache", "tracer", "program"
  std::string title;     ///< a line: what it measures
  std::string seed;      ///< which seed write-up: "SEED_CLAIMS A, B"
  std::string baseline;  ///< the row every ratio is to (tracer: each workload's plain run)
  /// Where the measured processes ran: "unpinned", "writer CPU 0, reader CPU 1".
  std::string placement;
  std::vector<bench_row> rows;
  std::vector<bench_claim> claims;
  std::vector<bench_plot> plots;
  std::vector<std::string> notes;  ///< the file system, a skipped part and why, ...
};

/// The median of V (the mean of the middle two for an even count); 0 if empty.
double median_of(std::vector<double> v);

/// The row of S named NAME, or nullptr.
const bench_row* find_row(const bench_suite& s, const std::string& name);

struct bench_report {
  std::string machine;  ///< "Linux 6.1.0 x86_64, 2 CPUs"
  int repeat = 0;
  bool quick = false;
  std::vector<bench_suite> suites;
};

struct bench_options {
  std::vector<std::string> suites;     ///< in the order run; empty: every suite
  std::vector<target_set> toolchains;  ///< stdio and iostream run per set
  /// The set whose programs pipe, pagecache, tracer and program run: what
  /// they measure is the kernel's (or the program's), not a C library's.
  target_set default_set;
  int repeat = 3;
  bool quick = false;  ///< small sizes: every suite in a few seconds
  /// Each run's deadline: a program still running then is killed, its row FAILED.
  std::chrono::milliseconds timeout{120000};
  /// The `program` suite's program and its arguments (it speaks the bench
  /// protocol of targets/bench/bench_line.h); empty: no such suite.
  std::vector<std::string> program;
  /// Called with a line before each row is run (a progress display).
  std::function<void(const std::string&)> progress;
};

/// Bench program PROGRAM ("bench_stdio", ...) of toolchain SET: the file
/// beside its stdio_script (targets/bench/ builds them there).
std::string bench_program(const target_set& set, const std::string& program);

/// "stdio", "iostream", "pipe", "pagecache", "tracer", "program", in that order.
const std::vector<std::string>& bench_suite_names();

/// Throws usage_error for what run_bench would refuse (an unknown suite,
/// `program` without a program, a repeat under 1), without running anything.
void check_bench_options(const bench_options& options);

/// The suites a run of OPTIONS runs, in order: those named (each once), or
/// the first five and `program` when there is a program.
std::vector<std::string> bench_suites_to_run(const bench_options& options);

/// Runs the suites asked for: with none named, the first five, and `program`
/// when options.program is set. Throws usage_error for an unknown suite name
/// or `program` without a program, spawn_error when a program cannot start.
bench_report run_bench(const bench_options& options);

}  // namespace flushcheck
