// The matrix as one self-contained HTML page, for people: the summary first
// (per set, counts by tier and outcome), then the FAILs and the differences,
// each with the command that repeats it, then every line in a collapsible
// section per group under a sticky header. No script; nothing is fetched; it
// fits a 1366 px screen with 10 sets.
#include "matrix_report.hpp"

#include <sstream>

#include "escape.hpp"

namespace flushcheck {
namespace {

/// A column's name for a narrow header: may break after "/" ("trixie/<wbr>musl").
std::string header_name(const std::string& name) {
  std::string out;
  for (char c : markup_escape(name)) out += c == '/' ? std::string("/<wbr>") : std::string(1, c);
  return out;
}

const char* css_class(const case_result& r) {
  if (r.outcome.skipped) return "skip";
  if (!r.asserted) return "obs";
  return r.outcome.pass ? "pass" : "fail";
}

/// The page's style sheet.
constexpr const char* k_style =
    "body{font-family:sans-serif;margin:0 1em 2em;font-size:13px;max-width:1340px}\n"
    "h1{font-size:20px}h2{font-size:16px;margin-top:1.5em}\n"
    "table{border-collapse:collapse;width:100%;table-layout:fixed}\n"
    "td,th{border:1px solid #ccc;padding:2px 4px;text-align:left;vertical-align:top;"
    "overflow-wrap:anywhere}\n"
    "thead th{position:sticky;top:0;background:#f4f4f4;z-index:1}\n"
    "table.lines th:first-child{width:16em}table.lines th:nth-child(2){width:7.5em}\n"
    "table.summary th:first-child{width:12em}table.summary th:nth-child(2){width:24em}\n"
    ".pass{background:#d9f2d9}.fail{background:#f7c6c6;font-weight:bold}\n"
    ".obs{background:#eef}.skip{background:#eee;color:#555}\n"
    "code{font-size:11px;overflow-wrap:anywhere}li{margin:.3em 0}\n"
    "details{margin:.4em 0}summary{cursor:pointer;font-weight:bold;padding:2px 0}\n";

void head(std::ostream& h) {
  h << "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
    << "<meta name=\"viewport\" content=\"width=device-width\">"
    << "<title>flushcheck conformance matrix</title><style>\n"
    << k_style << "</style></head><body>\n";
}

void title(std::ostream& h, const matrix& m) {
  h << "<h1>flushcheck conformance matrix</h1>\n<p id=\"counts\">" << m.columns.size() << " sets, "
    << m.line_count() << " lines, " << m.failures.size() << " FAIL, " << m.differences.size()
    << " lines where sets differ. Green: pass; red: FAIL; blue: a "
    << "value seen (observed tier, or documented for another implementation); grey: skipped "
    << "here.</p>\n";
}

void summary_row(std::ostream& h, const matrix& m, std::size_t c) {
  const auto n = m.tally(c);
  const std::size_t fails = m.failure_count(c);
  h << "<tr><td><b>" << markup_escape(m.columns[c].name) << "</b></td><td>"
    << markup_escape(m.columns[c].summary()) << "</td>";
  for (tier t : {tier::required, tier::documented, tier::observed})
    h << "<td>" << count_text(n.at(static_cast<std::size_t>(t)), t) << "</td>";
  h << "<td>" << skipped_count(n) << "</td><td class=\"" << (fails > 0 ? "fail" : "pass") << "\">"
    << fails << "</td></tr>\n";
}

void summary(std::ostream& h, const matrix& m) {
  h << "<section id=\"summary\"><h2>Summary</h2>\n<table class=\"summary\"><thead><tr>"
    << "<th>set</th><th>libraries</th><th>required</th><th>documented</th><th>observed</th>"
    << "<th>skipped</th><th>FAIL</th></tr></thead><tbody>\n";
  for (std::size_t c = 0; c < m.columns.size(); ++c) summary_row(h, m, c);
  h << "</tbody></table></section>\n";
}

void failures(std::ostream& h, const matrix& m) {
  h << "<section id=\"failures\"><h2>FAIL (" << m.failures.size() << ")</h2>\n";
  if (m.failures.empty())
    h << "<p>None: every asserted cell passes.</p>\n";
  else
    h << "<ul>\n";
  for (const cell_ref& f : m.failures) {
    const case_result& r = m.at(f);
    h << "<li><b>" << markup_escape(m.columns[f.column].name) << "</b> "
      << markup_escape(r.prop_case.id()) << ": " << markup_escape(r.outcome.explanation)
      << "<br><code>" << markup_escape(r.outcome.repro) << "</code></li>\n";
  }
  if (!m.failures.empty()) h << "</ul>\n";
  h << "</section>\n";
}

/// One line where the sets differ: each value with the sets that saw it,
/// what it means, and the command that repeats it on the first of them.
void difference(std::ostream& h, const matrix& m, const matrix_difference& d) {
  h << "<li><b>" << markup_escape(m.rows[d.row].label(d.sink)) << "</b><ul>\n";
  for (const auto& o : d.outcomes) {
    const case_result& r = m.at({d.row, d.sink, o.columns.front()});
    h << "<li>";
    for (std::size_t i = 0; i < o.columns.size(); ++i)
      h << (i ? ", " : "") << markup_escape(m.columns[o.columns[i]].name);
    h << ": <span class=\"" << css_class(r) << "\">" << markup_escape(o.observed) << "</span>. "
      << markup_escape(r.outcome.explanation) << "<br><code>" << markup_escape(r.outcome.repro)
      << "</code></li>\n";
  }
  h << "</ul></li>\n";
}

void differences(std::ostream& h, const matrix& m) {
  h << "<section id=\"differences\"><h2>Where the sets differ (" << m.differences.size()
    << ")</h2>\n";
  if (m.differences.empty())
    h << "<p>None: every set saw the same on every line.</p>\n";
  else
    h << "<ul>\n";
  for (const auto& d : m.differences) difference(h, m, d);
  if (!m.differences.empty()) h << "</ul>\n";
  h << "</section>\n";
}

void line(std::ostream& h, const matrix& m, const matrix_row& row, sink_kind sink) {
  h << "<tr class=\"line\"><td title=\""
    << markup_escape(row.prop->claim + " [" + row.prop->source + "]") << "\">"
    << markup_escape(row.label(sink)) << "</td><td>" << to_string(row.prop->level) << "</td>";
  for (std::size_t c = 0; c < m.columns.size(); ++c) {
    const case_result* r = row.find(c, sink);
    if (!r)
      h << "<td>-</td>";
    else
      h << "<td class=\"" << css_class(*r) << "\" title=\"" << markup_escape(r->outcome.repro)
        << "\">" << markup_escape(cell_text(*r)) << "</td>";
  }
  h << "</tr>\n";
}

/// A group's lines, and of them the FAILs and the lines where sets differ.
struct group_count {
  std::size_t lines = 0, fails = 0, differ = 0;
};

group_count count_group(const matrix& m, const std::string& group) {
  group_count n;
  for (const auto& row : m.rows)
    if (row.prop->group == group) n.lines += row.sinks.size();
  for (const auto& f : m.failures) n.fails += m.rows[f.row].prop->group == group;
  for (const auto& d : m.differences) n.differ += m.rows[d.row].prop->group == group;
  return n;
}

/// GROUP's lines in a <details>, open where a line fails or differs.
void group_section(std::ostream& h, const matrix& m, const std::string& group) {
  const group_count n = count_group(m, group);
  h << "<details class=\"group\"" << (n.fails + n.differ > 0 ? " open" : "") << "><summary>"
    << markup_escape(group) << " <small>(" << n.lines << " lines, " << n.fails << " FAIL, "
    << n.differ << " differ)</small></summary>\n<table class=\"lines\"><thead><tr>"
    << "<th>property</th><th>tier</th>";
  for (const auto& col : m.columns) h << "<th>" << header_name(col.name) << "</th>";
  h << "</tr></thead><tbody>\n";
  for (const auto& row : m.rows)
    if (row.prop->group == group)
      for (sink_kind sink : row.sinks) line(h, m, row, sink);
  h << "</tbody></table></details>\n";
}

}  // namespace

std::string to_html(const matrix& m) {
  std::ostringstream h;
  head(h);
  title(h, m);
  summary(h, m);
  failures(h, m);
  differences(h, m);
  h << "<section id=\"lines\"><h2>Every line, by section</h2>\n";
  for (const auto& group : m.groups()) group_section(h, m, group);
  h << "</section></body></html>\n";
  return h.str();
}

}  // namespace flushcheck
