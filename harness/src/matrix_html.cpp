// The matrix as one self-contained HTML page: a column per set, the claim and
// source of a property and the repro of a cell as tooltips.
#include "flushcheck/matrix_report.hpp"

#include <sstream>

#include "flushcheck/escape.hpp"

namespace flushcheck {
namespace {

const char* css_class(const case_result& r) {
  if (!r.v.skipped.empty()) return "skip";
  if (!r.asserted) return "obs";
  return r.v.pass ? "pass" : "fail";
}

void head(std::ostream& h) {
  h << "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
    << "<title>flushcheck conformance matrix</title><style>"
    << "body{font-family:sans-serif;margin:1.5em}table{border-collapse:collapse}"
    << "td,th{border:1px solid #ccc;padding:2px 6px;font-size:13px;text-align:left}"
    << ".pass{background:#d9f2d9}.fail{background:#f7c6c6;font-weight:bold}"
    << ".obs{background:#eef}.skip{background:#eee;color:#555}code{font-size:12px}</style></"
       "head><body>\n"
    << "<h1>flushcheck conformance matrix</h1>\n";
}

void column_list(std::ostream& h, const matrix& m) {
  h << "<ul id=\"toolchains\">\n";
  for (const auto& col : m.columns)
    h << "<li><b>" << html_escape(col.name) << "</b>: " << html_escape(col.summary()) << "</li>\n";
  h << "</ul>\n<p>" << m.failures.size() << " FAIL. Green: pass; red: FAIL; blue: observed value "
    << "(observed tier, or documented for another implementation).</p>\n";
}

void line(std::ostream& h, const matrix& m, const matrix_row& row, sink_kind sink) {
  h << "<tr><td title=\"" << html_escape(row.prop->claim + " [" + row.prop->source + "]") << "\">"
    << html_escape(row.label(sink)) << "</td><td>" << to_string(row.prop->level) << "</td>";
  for (std::size_t c = 0; c < m.columns.size(); ++c) {
    const case_result* r = row.find(c, sink);
    if (!r)
      h << "<td>-</td>";
    else
      h << "<td class=\"" << css_class(*r) << "\" title=\"" << html_escape(r->v.repro) << "\">"
        << html_escape(cell_text(*r)) << "</td>";
  }
  h << "</tr>\n";
}

void table(std::ostream& h, const matrix& m) {
  h << "<table id=\"matrix\"><thead><tr><th>property</th><th>tier</th>";
  for (const auto& col : m.columns) h << "<th>" << html_escape(col.name) << "</th>";
  h << "</tr></thead><tbody>\n";
  for (const auto& row : m.rows)
    for (sink_kind sink : row.sinks) line(h, m, row, sink);
  h << "</tbody></table>\n";
}

}  // namespace

std::string matrix_html(const matrix& m) {
  std::ostringstream h;
  head(h);
  column_list(h, m);
  table(h, m);
  h << "</body></html>\n";
  return h.str();
}

}  // namespace flushcheck
