// A bench report for people at a terminal: per suite its rows, then the
// seed's claims and what this machine says of them.
#include <sstream>

#include "bench_report.hpp"
#include "escape.hpp"
#include "number_format.hpp"
#include "text_table.hpp"

namespace flushcheck {
namespace {

/// row, min, median, max, throughput, ratio, write().
const std::vector<text_column> k_columns = {{.width = 44},
                                            {.width = 10, .right = true},
                                            {.width = 10, .right = true},
                                            {.width = 10, .right = true},
                                            {.width = 14, .right = true},
                                            {.width = 9, .right = true},
                                            {.width = 11, .right = true}};

void header(std::ostream& o, const bench_suite& s) {
  o << "== " << s.name << ": " << s.title << "\n"
    << "   seed: " << s.seed << "\n   baseline: " << s.baseline << "\n   placement: " << s.placement
    << "\n";
  for (const auto& n : s.notes) o << "   note: " << n << "\n";
  o << "\n"
    << text_row("   ", k_columns, {"row", "min", "median", "max", "throughput", "ratio", "write()"})
    << "\n";
}

void row_line(std::ostream& o, const bench_row& r) {
  if (!r.measured()) {
    o << "   " << r.name << ": " << (r.failed ? "FAILED: " : "skipped: ") << r.skipped << "\n";
    return;
  }
  o << text_row(
           "   ", k_columns,
           {r.name, format_seconds(r.min()), format_seconds(r.median()), format_seconds(r.max()),
            format_throughput(r.throughput()), format_ratio(r.ratio), format_calls(r.write_calls)})
    << "\n";
  if (r.values.count("ns_per_op"))  // the program suite: per record
    o << "      per record: " << format_values(r.values) << "\n";
}

void claims(std::ostream& o, const bench_suite& s) {
  if (s.claims.empty()) return;
  o << "\n   seed claims on this machine:\n";
  for (const auto& c : s.claims)
    o << "   ["
      << (!c.checked ? "not checked"
          : c.holds  ? "holds"
                     : "DOES NOT HOLD")
      << ", " << c.kind << "] " << c.seed << "\n      observed: " << c.observed << "\n";
}

}  // namespace

std::string to_text(const bench_report& r) {
  std::ostringstream o;
  o << "flushcheck bench: " << r.machine << "; median of " << r.repeat << " runs per row"
    << (r.quick ? " (--quick sizes)" : "") << "\n";
  for (const auto& s : r.suites) {
    o << "\n";
    header(o, s);
    for (const auto& row : s.rows) row_line(o, row);
    claims(o, s);
  }
  return terminal_text(o.str());
}

}  // namespace flushcheck
