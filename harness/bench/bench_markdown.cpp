// The bench report as Markdown (docs/bench.md's body): per suite what it
// reproduces, the seed's claims, a pipe table of the rows, and its plots as
// images of the SVG files the caller writes.
#include <sstream>

#include "bench_report.hpp"
#include "escape.hpp"
#include "number_format.hpp"

namespace flushcheck {
namespace {

void about(std::ostream& out, const bench_suite& s) {
  out << "## " << markdown_text(s.name) << ": " << markdown_text(s.title) << "\n\n"
      << "seed: " << markdown_text(s.seed) << "; baseline: " << markdown_code(s.baseline)
      << "; placement: " << markdown_text(s.placement) << "\n";
  if (!s.notes.empty()) out << "\n";
  for (const auto& note : s.notes) out << "- " << markdown_text(note) << "\n";
}

void claims(std::ostream& out, const bench_suite& s) {
  out << "\n**Claims**\n\n| seed | kind | holds | observed |\n|---|---|---|---|\n";
  for (const auto& c : s.claims)
    out << "| " << markdown_text(c.seed) << " | " << markdown_text(c.kind) << " | "
        << (!c.checked ? "not checked"
            : c.holds  ? "yes"
                       : "**no**")
        << " | " << markdown_text(c.observed) << " |\n";
}

void row(std::ostream& out, const bench_row& r) {
  out << "| " << markdown_text(r.name) << " | "
      << markdown_text(r.toolchain.empty() ? "-" : r.toolchain) << " | " << markdown_text(r.sink)
      << " | ";
  if (!r.measured()) {
    out << (r.failed ? "**FAILED**: " : "skipped: ")
        << markdown_text(r.skipped.empty() ? "no times" : r.skipped) << " | | | | | |\n";
    return;
  }
  out << format_seconds(r.min()) << " | " << format_seconds(r.median()) << " | "
      << format_seconds(r.max()) << " | " << format_throughput(r.throughput()) << " | "
      << format_ratio(r.ratio) << " | " << format_calls(r.write_calls) << " |\n";
}

void rows(std::ostream& out, const bench_suite& s) {
  out << "\n**Rows**\n\n| row | toolchain | sink | min | median | max | throughput | ratio "
      << "| write calls |\n|---|---|---|---:|---:|---:|---:|---:|---:|\n";
  for (const auto& r : s.rows) row(out, r);
}

/// Each plot K as an image of PLOT_DIR/SUITE-K.svg.
void plots(std::ostream& out, const bench_suite& s, const std::string& plot_dir) {
  const std::string dir = plot_dir.empty() || plot_dir.back() == '/' ? plot_dir : plot_dir + "/";
  for (std::size_t k = 0; k < s.plots.size(); ++k)
    out << "\n![" << markdown_text(s.plots[k].title) << "](" << dir << s.name << "-" << k
        << ".svg)\n";
}

}  // namespace

std::string to_markdown(const bench_report& r, const std::string& plot_dir) {
  std::ostringstream out;
  for (std::size_t i = 0; i < r.suites.size(); ++i) {
    if (i > 0) out << "\n";
    about(out, r.suites[i]);
    claims(out, r.suites[i]);
    rows(out, r.suites[i]);
    plots(out, r.suites[i], plot_dir);
  }
  return out.str();
}

}  // namespace flushcheck
