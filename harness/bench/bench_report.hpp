#pragma once
/// The reporters of a bench_report, one per format, and the comparison with a
/// saved report (`flushcheck bench --compare FILE`).
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench.hpp"

namespace flushcheck {

/// Per suite: the rows (min / median / max, throughput, ratio, writes), then
/// the seed's claims with what this machine says of them.
std::string to_text(const bench_report& r);

/// The report as JSON (kind "bench", schema in docs/bench.md); valid
/// whatever the strings hold.
nlohmann::json to_json(const bench_report& r);

/// A report read back from to_json's output (dumped), as far as --compare needs it:
/// the machine, sizes, and each suite's name, title, baseline, rows and claims
/// (strings as JSON holds them: bytes_as_code_points' form; no plots or notes).
/// Throws usage_error, with what is wrong, for anything else.
bench_report bench_from_json(const std::string& text);

/// One self-contained HTML page: the tables, the claims, and each plot as an
/// inline SVG drawn here (no script, no font or file fetched).
std::string to_html(const bench_report& r);

/// One plot as a standalone SVG document.
std::string to_svg(const bench_plot& p);

/// docs/bench.md's body: per suite, the claims, a table of the rows, and each
/// plot as an image `PLOT_DIR/SUITE-K.svg` (written by the caller with to_svg).
std::string to_markdown(const bench_report& r, const std::string& plot_dir);

/// A row of the saved report that moved: its ratio to the suite's baseline
/// by more than the threshold, or its write count at all.
struct bench_change {
  std::string suite, row;
  std::string what;  ///< "ratio 3.1 -> 4.2 (moved 35%, slower)", "write calls 2442 -> 4883", "not
                     ///< in this run"
};

struct bench_comparison {
  std::size_t compared = 0;  ///< measured rows of the saved report in a suite run now
  std::vector<bench_change> moved;
};

/// Rows of BEFORE and NOW with the same suite and name, compared. A ratio
/// moves when max(now / before, before / now) - 1 > THRESHOLD (0.2: 20%), so
/// that a row twice as fast moves as far as one twice as slow; a write count
/// moves when it differs or was not counted now. Suites not run now are not
/// compared. Throws usage_error when the two were run at different sizes
/// (one with --quick).
bench_comparison bench_compare(const bench_report& before, const bench_report& now,
                               double threshold);

}  // namespace flushcheck
