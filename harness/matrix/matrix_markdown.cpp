// The matrix as Markdown (docs/matrix.md): pipe tables, notes as list items
// with the repro command in backticks.
#include "matrix_report.hpp"

#include <sstream>

#include "escape.hpp"

namespace flushcheck {
namespace {

void table_by_sink(std::ostream& out, const matrix& m, std::size_t column) {
  out << "| property | tier |";
  for (sink_kind sink : m.sinks) out << " " << to_string(sink) << " |";
  out << "\n|---|---|";
  for (std::size_t i = 0; i < m.sinks.size(); ++i) out << "---|";
  out << "\n";
  for (const auto& row : m.rows) {
    if (!row.ran_in(column)) continue;
    out << "| " << markdown_text(row.label()) << " | " << to_string(row.prop->level) << " |";
    for (sink_kind sink : m.sinks) out << " " << markdown_text(row.text(column, sink)) << " |";
    out << "\n";
  }
}

void notes_of(std::ostream& out, const matrix& m, std::size_t column) {
  for (const cell_ref& note : m.notes) {
    if (note.column != column) continue;
    const case_result& r = m.at(note);
    out << "\n- " << note_tag(r) << markdown_text(r.prop_case.id()) << ": "
        << markdown_text(r.outcome.explanation) << "\n  " << markdown_code(r.outcome.repro) << "\n";
  }
}

/// The heading of set C's table: its name and toolchain.
void toolchain_heading(std::ostream& out, const matrix& m, std::size_t c) {
  out << "toolchain " << markdown_text(m.columns[c].name) << " ("
      << markdown_text(m.columns[c].summary()) << ")\n\n";
}

std::string markdown_by_sink(const matrix& m) {
  std::ostringstream out;
  for (std::size_t c = 0; c < m.columns.size(); ++c) {
    if (c > 0) out << "\n";
    toolchain_heading(out, m, c);
    table_by_sink(out, m, c);
    out << "\n" << m.case_count(c) << " cases, " << m.failure_count(c) << " FAIL\n";
    notes_of(out, m, c);
  }
  return out.str();
}

/// ROW's line on SINK: a cell per set.
void line_by_column(std::ostream& out, const matrix& m, const matrix_row& row, sink_kind sink) {
  out << "| " << markdown_text(row.label(sink)) << " | " << to_string(row.prop->level) << " |";
  for (std::size_t c = 0; c < m.columns.size(); ++c)
    out << " " << markdown_text(row.text(c, sink)) << " |";
  out << "\n";
}

/// GROUP's lines as a table with a column per set.
void table_by_column(std::ostream& out, const matrix& m, const std::string& group) {
  out << "\n#### " << markdown_text(group) << "\n\n| property | tier |";
  for (const auto& col : m.columns) out << " " << markdown_text(col.name) << " |";
  out << "\n|---|---|";
  for (std::size_t i = 0; i < m.columns.size(); ++i) out << "---|";
  out << "\n";
  for (const auto& row : m.rows)
    if (row.prop->group == group)
      for (sink_kind sink : row.sinks) line_by_column(out, m, row, sink);
}

/// Per set, its cells by tier and outcome, and its FAILs.
void summary(std::ostream& out, const matrix& m) {
  out << "| set | required | documented | observed | skipped | FAIL |\n|---|---|---|---|---|---|\n";
  for (std::size_t c = 0; c < m.columns.size(); ++c) {
    const auto n = m.tally(c);
    out << "| " << markdown_text(m.columns[c].name) << " |";
    for (tier t : {tier::required, tier::documented, tier::observed})
      out << " " << count_text(n.at(static_cast<std::size_t>(t)), t) << " |";
    out << " " << skipped_count(n) << " | " << m.failure_count(c) << " |\n";
  }
}

/// A line where the sets differ: each value with the sets that saw it, what it
/// means, and the command that repeats it on the first of them.
void difference(std::ostream& out, const matrix& m, const matrix_difference& d) {
  out << "\n- " << markdown_text(m.rows[d.row].label(d.sink)) << ":\n";
  for (const auto& o : d.outcomes) {
    const case_result& r = m.at({d.row, d.sink, o.columns.front()});
    out << "  -";
    for (std::size_t i = 0; i < o.columns.size(); ++i)
      out << (i ? ", " : " ") << markdown_code(m.columns[o.columns[i]].name);
    out << ": " << markdown_text(o.observed) << ". " << markdown_text(r.outcome.explanation)
        << "\n    " << markdown_code(r.outcome.repro) << "\n";
  }
}

void failure(std::ostream& out, const matrix& m, const cell_ref& f) {
  const case_result& r = m.at(f);
  out << "\n- FAIL " << markdown_text(m.columns[f.column].name) << " "
      << markdown_text(r.prop_case.id()) << ": " << markdown_text(r.outcome.explanation) << "\n  "
      << markdown_code(r.outcome.repro) << "\n";
}

std::string markdown_by_column(const matrix& m) {
  std::ostringstream out;
  out << m.columns.size() << " toolchain sets\n\n";
  for (const auto& col : m.columns)
    out << "- " << markdown_code(col.name) << ": " << markdown_text(col.summary()) << "\n";
  out << "\n";
  summary(out, m);
  out << "\n" << m.failures.size() << " FAIL across " << m.columns.size() << " toolchain sets\n";
  for (const auto& f : m.failures) failure(out, m, f);
  out << "\n### Differences between implementations\n";
  for (const auto& d : m.differences) difference(out, m, d);
  out << "\n### Every line, by section\n";
  for (const auto& group : m.groups()) table_by_column(out, m, group);
  return out.str();
}

void table_by_language(std::ostream& out, const std::vector<lang>& langs,
                       const std::vector<language_line>& lines) {
  out << "| property | sink |";
  for (lang l : langs) out << " " << display_name(l) << " |";
  out << "\n|---|---|";
  for (std::size_t i = 0; i < langs.size(); ++i) out << "---|";
  out << "\n";
  for (const auto& line : lines) {
    out << "| " << line.prop->name << " | " << to_string(line.sink) << " |";
    for (const case_result* r : line.cells)
      out << " " << (r ? markdown_text(value_text(*r)) : "-") << " |";
    out << "\n";
  }
}

void language_difference(std::ostream& out, const std::vector<lang>& langs,
                         const language_line& line) {
  out << "\n- " << line.prop->name << " on " << to_string(line.sink) << ":\n";
  for (std::size_t i = 0; i < langs.size(); ++i)
    if (const case_result* r = line.cells[i])
      out << "  - " << display_name(langs[i]) << ": " << markdown_text(value_text(*r)) << ". "
          << markdown_code(r->outcome.repro) << "\n";
}

std::string markdown_by_language(const matrix& m) {
  std::ostringstream out;
  const std::vector<lang> langs = m.languages();
  for (std::size_t c = 0; c < m.columns.size(); ++c) {
    toolchain_heading(out, m, c);
    const auto lines = m.by_language(c);
    table_by_language(out, langs, lines);
    out << "\n" << m.case_count(c) << " cases, " << m.failure_count(c) << " FAIL\n";
    out << "\n### Differences between languages\n";
    for (const auto& line : lines)
      if (line.differs) language_difference(out, langs, line);
  }
  for (const auto& f : m.failures) failure(out, m, f);
  return out.str();
}

}  // namespace

std::string to_markdown(const matrix& m, matrix_layout layout) {
  switch (layout) {
    case matrix_layout::by_sink: return markdown_by_sink(m);
    case matrix_layout::by_column: return markdown_by_column(m);
    case matrix_layout::by_language: return markdown_by_language(m);
  }
  return "";
}

}  // namespace flushcheck
