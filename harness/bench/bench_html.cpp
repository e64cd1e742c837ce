// The bench report as one self-contained HTML page: per suite its rows, the
// seed's claims with what this machine says of them, and its plots as inline
// SVG (no script, no font or file fetched).
#include <sstream>

#include "bench_report.hpp"
#include "escape.hpp"
#include "html_page.hpp"
#include "number_format.hpp"

namespace flushcheck {
namespace {

void head(std::ostream& h, const bench_report& r) {
  h << html_head("flushcheck bench",
                 "td.values{font-size:11px;color:#444}"
                 "tr.baseline td:first-child{font-weight:bold}tr.skipped td{background:#eee;"
                 "color:#666}tr.failed td{background:#f7c6c6;font-weight:bold}"
                 ".yes{background:#d9f2d9;color:#060}.no{background:#f7c6c6;color:#900;"
                 "font-weight:bold}")
    << "<p id=\"machine\">" << markup_escape(r.machine) << "; repeat: " << r.repeat
    << "; quick: " << (r.quick ? "yes" : "no") << "</p>\n";
}

void about(std::ostream& h, const bench_suite& s) {
  h << "<h2>" << markup_escape(s.name) << ": " << markup_escape(s.title) << "</h2>\n"
    << "<p class=\"about\">reproduces: " << markup_escape(s.seed) << "<br>baseline: <code>"
    << markup_escape(s.baseline) << "</code>; placement: " << markup_escape(s.placement)
    << "</p>\n";
  if (s.notes.empty()) return;
  h << "<ul class=\"notes\">\n";
  for (const auto& note : s.notes) h << "<li>" << markup_escape(note) << "</li>\n";
  h << "</ul>\n";
}

/// The first cells of a row: its name (its repro line as a tooltip), toolchain and sink.
void row_start(std::ostream& h, const bench_row& row, const char* css) {
  h << "<tr class=\"" << css << "\"><td title=\"" << markup_escape(row.repro) << "\">"
    << markup_escape(row.name) << "</td><td>"
    << markup_escape(row.toolchain.empty() ? "-" : row.toolchain) << "</td><td>"
    << markup_escape(row.sink) << "</td>";
}

void number(std::ostream& h, const std::string& text) {
  h << "<td class=\"num\">" << markup_escape(text) << "</td>";
}

/// A row without times: FAILED or skipped, and why.
void unmeasured_row(std::ostream& h, const bench_row& row) {
  row_start(h, row, row.failed ? "failed" : "skipped");
  h << "<td colspan=\"7\">" << (row.failed ? "FAILED: " : "skipped: ")
    << markup_escape(row.skipped.empty() ? "no times" : row.skipped) << "</td></tr>\n";
}

void row(std::ostream& h, const bench_suite& s, const bench_row& row) {
  if (!row.measured()) {
    unmeasured_row(h, row);
    return;
  }
  row_start(h, row, row.name == s.baseline ? "baseline" : "measured");
  number(h, format_seconds(row.min()));
  number(h, format_seconds(row.median()));
  number(h, format_seconds(row.max()));
  number(h, format_throughput(row.throughput()));
  number(h, format_ratio(row.ratio));
  number(h, format_calls(row.write_calls));
  h << "<td class=\"values\">" << markup_escape(format_values(row.values)) << "</td></tr>\n";
}

void rows(std::ostream& h, const bench_suite& s) {
  h << "<table class=\"rows\"><thead><tr><th>row</th><th>toolchain</th><th>sink</th>"
    << "<th>min</th><th>median</th><th>max</th><th>throughput</th><th>ratio</th>"
    << "<th>write calls</th><th>values</th></tr></thead><tbody>\n";
  for (const auto& r : s.rows) row(h, s, r);
  h << "</tbody></table>\n";
}

void claims(std::ostream& h, const bench_suite& s) {
  h << "<table class=\"claims\"><thead><tr><th>seed</th><th>kind</th><th>holds</th>"
    << "<th>observed</th></tr></thead><tbody>\n";
  for (const auto& c : s.claims)
    h << "<tr><td>" << markup_escape(c.seed) << "</td><td>" << markup_escape(c.kind) << "</td>"
      << (!c.checked ? "<td>not checked</td>"
          : c.holds  ? "<td class=\"yes\">yes</td>"
                     : "<td class=\"no\">no</td>")
      << "<td>" << markup_escape(c.observed) << "</td></tr>\n";
  h << "</tbody></table>\n";
}

/// Each plot as an inline <svg> (from its opening tag: no XML prolog in HTML).
void plots(std::ostream& h, const bench_suite& s) {
  for (const auto& p : s.plots) {
    h << "<figure>\n"
      << inline_svg(to_svg(p)) << "<figcaption>" << markup_escape(p.title)
      << "</figcaption></figure>\n";
  }
}

void suite(std::ostream& h, const bench_suite& s) {
  h << "<section id=\"suite-" << markup_escape(s.name) << "\">\n";
  about(h, s);
  rows(h, s);
  claims(h, s);
  plots(h, s);
  h << "</section>\n";
}

}  // namespace

std::string to_html(const bench_report& r) {
  std::ostringstream h;
  head(h, r);
  for (const auto& s : r.suites) suite(h, s);
  h << html_end();
  return h.str();
}

}  // namespace flushcheck
