// The matrix for a terminal: columns aligned with spaces, notes indented.
#include "matrix_report.hpp"

#include <algorithm>
#include <sstream>

#include "escape.hpp"
#include "text_table.hpp"

namespace flushcheck {
namespace {

/// A table's columns: the line's label (W wide), its tier, then a cell of
/// each width in CW (its column's widest value or name), two spaces apart.
std::vector<text_column> columns(std::size_t w, const std::vector<std::size_t>& cw) {
  std::vector<text_column> c = {{.width = w}, {.width = 10}};
  for (std::size_t width : cw) c.push_back({.width = width, .gap = 2});
  return c;
}

/// The first line names no property: it carries the sinks over their columns.
void header_by_sink(std::ostream& out, const matrix& m, const std::vector<text_column>& cols) {
  std::vector<std::string> cells = {"", ""};
  for (sink_kind sink : m.sinks) cells.push_back(std::string(to_string(sink)));
  out << text_row("  ", cols, cells) << "\n";
}

/// COLUMN's table by sink: as wide as its widest label and values.
std::vector<text_column> columns_by_sink(const matrix& m, std::size_t column) {
  std::size_t w = 12;
  std::vector<std::size_t> cw(m.sinks.size(), 4);
  for (const auto& row : m.rows) {
    if (!row.ran_in(column)) continue;
    w = std::max(w, row.label().size());
    for (std::size_t k = 0; k < m.sinks.size(); ++k)
      cw[k] = std::max(cw[k], row.text(column, m.sinks[k]).size());
  }
  return columns(w, cw);
}

void table_by_sink(std::ostream& out, const matrix& m, std::size_t column) {
  const auto cols = columns_by_sink(m, column);
  header_by_sink(out, m, cols);
  std::string group;
  for (const auto& row : m.rows) {
    if (!row.ran_in(column)) continue;
    if (row.prop->group != group) out << "\n" << (group = row.prop->group) << "\n";
    std::vector<std::string> cells = {row.label(), to_string(row.prop->level)};
    for (sink_kind sink : m.sinks) cells.push_back(row.text(column, sink));
    out << text_row("  ", cols, cells) << "\n";
  }
}

void notes_of(std::ostream& out, const matrix& m, std::size_t column) {
  for (const cell_ref& note : m.notes) {
    if (note.column != column) continue;
    const case_result& r = m.at(note);
    out << "\n"
        << note_tag(r) << r.prop_case.id() << ": " << r.outcome.explanation << "\n    "
        << r.outcome.repro << "\n";
  }
}

/// The heading of set C's table: its name and toolchain.
void toolchain_heading(std::ostream& out, const matrix& m, std::size_t c) {
  out << "flushcheck matrix: toolchain " << m.columns[c].name << " (" << m.columns[c].summary()
      << ")\n\n";
}

std::string text_by_sink(const matrix& m) {
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

// The first line names no property: it carries the set names over their columns.
void header_by_column(std::ostream& out, const matrix& m, const std::vector<text_column>& cols) {
  std::vector<std::string> cells = {"", ""};
  for (const auto& col : m.columns) cells.push_back(col.name);
  out << text_row("  ", cols, cells) << "\n";
}

/// The table by set: as wide as its widest label and values.
std::vector<text_column> columns_by_set(const matrix& m) {
  std::size_t w = 12;
  std::vector<std::size_t> cw;  // a set's column is as wide as its widest value
  for (const auto& col : m.columns) cw.push_back(col.name.size());
  for (const auto& row : m.rows)
    for (sink_kind sink : row.sinks) {
      w = std::max(w, row.label(sink).size());
      for (std::size_t c = 0; c < m.columns.size(); ++c)
        cw[c] = std::max(cw[c], row.text(c, sink).size());
    }
  return columns(w, cw);
}

void table_by_column(std::ostream& out, const matrix& m) {
  const auto cols = columns_by_set(m);
  header_by_column(out, m, cols);
  std::string group;
  for (const auto& row : m.rows)
    for (sink_kind sink : row.sinks) {
      if (row.prop->group != group) out << "\n" << (group = row.prop->group) << "\n";
      std::vector<std::string> cells = {row.label(sink), to_string(row.prop->level)};
      for (std::size_t c = 0; c < m.columns.size(); ++c) cells.push_back(row.text(c, sink));
      out << text_row("  ", cols, cells) << "\n";
    }
}

/// A line where the sets differ: each value with the sets that saw it, what it
/// means, and the command that repeats it on the first of them.
void difference(std::ostream& out, const matrix& m, const matrix_difference& d) {
  out << "\n" << m.rows[d.row].label(d.sink) << ":\n";
  for (const auto& o : d.outcomes) {
    const case_result& r = m.at({d.row, d.sink, o.columns.front()});
    out << "  ";
    for (std::size_t i = 0; i < o.columns.size(); ++i)
      out << (i ? ", " : "") << m.columns[o.columns[i]].name;
    out << ": " << o.observed << "\n    " << r.outcome.explanation << "\n    " << r.outcome.repro
        << "\n";
  }
}

void failure(std::ostream& out, const matrix& m, const cell_ref& f) {
  const case_result& r = m.at(f);
  out << "\nFAIL " << m.columns[f.column].name << " " << r.prop_case.id() << ": "
      << r.outcome.explanation << "\n    " << r.outcome.repro << "\n";
}

/// Set C: its toolchain, and its cells by tier and outcome.
void set_summary(std::ostream& out, const matrix& m, std::size_t c) {
  const auto n = m.tally(c);
  out << "  " << m.columns[c].name << ": " << m.columns[c].summary() << "\n    required "
      << count_text(n[0], tier::required) << "; documented " << count_text(n[1], tier::documented)
      << "; observed " << count_text(n[2], tier::observed) << "; skipped " << skipped_count(n)
      << "\n";
}

std::string text_by_column(const matrix& m) {
  std::ostringstream out;
  out << "flushcheck matrix --all: " << m.columns.size() << " toolchain sets\n\n";
  for (std::size_t c = 0; c < m.columns.size(); ++c) set_summary(out, m, c);
  out << "\n" << m.failures.size() << " FAIL across " << m.columns.size() << " toolchain sets\n";
  for (const auto& f : m.failures) failure(out, m, f);
  out << "\nDifferences:\n";
  for (const auto& d : m.differences) difference(out, m, d);
  out << "\nEvery line, by section:\n";
  table_by_column(out, m);
  return out.str();
}

/// The table by language: the line's label as wide as the longest, then a
/// cell per language.
std::vector<text_column> columns_by_language(const std::vector<lang>& langs,
                                             const std::vector<language_line>& lines) {
  constexpr std::size_t cw = 24;
  std::size_t w = 12;
  for (const auto& line : lines) w = std::max(w, line.prop->name.size() + 5);
  // A cell is at most CW characters, cut with "..." (the whole value is in
  // the differences below the table).
  std::vector<text_column> cols = {{.width = w}};
  cols.insert(cols.end(), langs.size(), text_column{.width = cw, .cut = true});
  return cols;
}

void table_by_language(std::ostream& out, const std::vector<lang>& langs,
                       const std::vector<language_line>& lines) {
  const std::vector<text_column> cols = columns_by_language(langs, lines);
  std::vector<std::string> head = {""};
  for (lang l : langs) head.push_back(display_name(l));
  out << text_row("  ", cols, head) << "\n";
  for (const auto& line : lines) {
    std::vector<std::string> cells = {line.prop->name + " " + std::string(to_string(line.sink))};
    for (const case_result* r : line.cells) cells.push_back(r ? value_text(*r) : "-");
    out << text_row("  ", cols, cells) << "\n";
  }
}

void language_difference(std::ostream& out, const std::vector<lang>& langs,
                         const language_line& line) {
  out << "\n" << line.prop->name << " on " << to_string(line.sink) << ":\n";
  for (std::size_t i = 0; i < langs.size(); ++i)
    if (const case_result* r = line.cells[i])
      out << "    " << display_name(langs[i]) << ": " << value_text(*r) << "\n      "
          << r->outcome.repro << "\n";
}

std::string text_by_language(const matrix& m) {
  std::ostringstream out;
  const std::vector<lang> langs = m.languages();
  for (std::size_t c = 0; c < m.columns.size(); ++c) {
    toolchain_heading(out, m, c);
    const auto lines = m.by_language(c);
    table_by_language(out, langs, lines);
    out << "\n" << m.case_count(c) << " cases, " << m.failure_count(c) << " FAIL\n";
    out << "\nDifferences between languages:\n";
    for (const auto& line : lines)
      if (line.differs) language_difference(out, langs, line);
  }
  for (const auto& f : m.failures) failure(out, m, f);
  return out.str();
}

}  // namespace

std::string to_text(const matrix& m, matrix_layout layout) {
  switch (layout) {
    case matrix_layout::by_sink: return terminal_text(text_by_sink(m));
    case matrix_layout::by_column: return terminal_text(text_by_column(m));
    case matrix_layout::by_language: return terminal_text(text_by_language(m));
  }
  return "";
}

}  // namespace flushcheck
