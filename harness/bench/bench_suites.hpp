#pragma once
// The suites of `flushcheck bench`, one file each (bench_suite_NAME.cpp):
// each builds its cases, measures them (bench_run.hpp), and says what the
// seed claimed and whether this machine shows it.
#include "bench.hpp"
#include "bench_run.hpp"
#include "number_format.hpp"

namespace flushcheck::detail {

/// What a suite is given: the options and the sizes they imply.
struct bench_context {
  const bench_options& options;
  bench_sizes sizes;
  /// Measures C with options.repeat, announcing it to options.progress.
  bench_row measure(const bench_case& c) const;
};

bench_suite stdio_suite(const bench_context& ctx);
bench_suite iostream_suite(const bench_context& ctx);
bench_suite pipe_suite(const bench_context& ctx);
bench_suite pagecache_suite(const bench_context& ctx);
bench_suite tracer_suite(const bench_context& ctx);
bench_suite capture_suite(const bench_context& ctx);
bench_suite explore_suite(const bench_context& ctx);
bench_suite jobs_suite(const bench_context& ctx);
bench_suite program_suite(const bench_context& ctx);

/// A claim from a seed's words, whether it holds and what was seen.
bench_claim claim(std::string seed, std::string kind, bool holds, std::string observed);

/// A claim whose rows were not measured here: neither holds nor fails.
bench_claim not_checked(std::string seed, std::string kind, std::string why);

/// The row of S named NAME if it was measured, else nullptr.
const bench_row* measured_row(const bench_suite& s, const std::string& name);

/// SLOW's median over FAST's; 0 when either is missing or FAST took no time.
double time_ratio(const bench_row* slow, const bench_row* fast);

/// The throughput of S's row NAME (bytes per second); 0 when not measured.
double throughput_of(const bench_suite& s, const std::string& name);

/// A plot titled TITLE of Y_LABEL by X_LABEL, both axes logarithmic, without its series.
bench_plot log_log_plot(std::string title, std::string x_label, std::string y_label);

/// Series NAME of the plot: (x, y(row)) of every measured row in that series, by x.
bench_series series_of(const bench_suite& s, const std::string& name,
                       double (*y)(const bench_row&));

}  // namespace flushcheck::detail
