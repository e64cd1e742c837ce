// The matrix value: cases of each column placed in catalogue order, then the
// notes, failures and differences computed once for every reporter.
#include "matrix.hpp"

#include <algorithm>
#include <optional>
#include <set>
#include <utility>

namespace flushcheck {

const case_result* matrix_row::find(std::size_t column, sink_kind sink) const {
  const auto& by_sink = cells.at(column);
  auto it = by_sink.find(sink);
  return it == by_sink.end() ? nullptr : &it->second;
}

std::string matrix_row::text(std::size_t column, sink_kind sink) const {
  const case_result* r = find(column, sink);
  return r ? cell_text(*r) : "-";
}

std::string matrix_column::summary() const {
  std::string out = profile.version;
  for (std::size_t i = 0; i < runtimes.size(); ++i)
    out += (i == 0 ? "; runtimes: " : ", ") + runtimes[i];
  return out;
}

matrix_column matrix_column::of(const target_set& set) {
  matrix_column c{set.name, set.profile, {}};
  for (const auto& r : set.runtimes)
    c.runtimes.push_back(r.missing.empty() ? r.version
                                           : std::string(to_string(r.language)) + ": " + r.missing);
  return c;
}

std::string matrix_row::label() const { return prop->name + " [" + display_name(language) + "]"; }

std::string matrix_row::label(sink_kind sink) const {
  return label() + " " + std::string(to_string(sink));
}

const case_result& matrix::at(const cell_ref& cell) const {
  return rows.at(cell.row).cells.at(cell.column).at(cell.sink);
}

std::vector<cell_ref> matrix::cells_of(std::size_t column) const {
  std::vector<cell_ref> out;
  for (std::size_t row = 0; row < rows.size(); ++row)
    for (sink_kind sink : rows[row].sinks)
      if (rows[row].find(column, sink)) out.push_back({row, sink, column});
  return out;
}

std::size_t matrix::case_count(std::size_t column) const { return cells_of(column).size(); }

std::size_t matrix::failure_count(std::size_t column) const {
  return static_cast<std::size_t>(std::count_if(
      failures.begin(), failures.end(), [&](const cell_ref& f) { return f.column == column; }));
}

std::array<verdict_count, 3> matrix::tally(std::size_t column) const {
  std::array<verdict_count, 3> out{};
  for (const cell_ref& cell : cells_of(column)) {
    const case_result& r = at(cell);
    verdict_count& n = out.at(static_cast<std::size_t>(r.prop_case.prop->level));
    if (r.outcome.skipped)
      ++n.skipped;
    else if (!r.asserted)
      ++n.observed;
    else
      ++(r.outcome.pass ? n.pass : n.fail);
  }
  return out;
}

std::vector<std::string> matrix::groups() const {
  std::vector<std::string> out;
  for (const auto& row : rows)
    if (std::find(out.begin(), out.end(), row.prop->group) == out.end())
      out.push_back(row.prop->group);
  return out;
}

std::size_t matrix::line_count() const {
  std::size_t n = 0;
  for (const auto& row : rows) n += row.sinks.size();
  return n;
}

std::vector<lang> matrix::languages() const {
  std::vector<lang> out;
  for (const auto& row : rows)
    if (std::find(out.begin(), out.end(), row.language) == out.end()) out.push_back(row.language);
  return out;
}

namespace {

/// The line of PROP on SINK in LINES, added with a cell for each of
/// LANGUAGES languages if there is none yet.
language_line& language_line_of(std::vector<language_line>& lines, const property* prop,
                                sink_kind sink, std::size_t languages) {
  auto it = std::find_if(lines.begin(), lines.end(),
                         [&](const language_line& l) { return l.prop == prop && l.sink == sink; });
  if (it == lines.end())
    it = lines.insert(lines.end(), {prop, sink, std::vector<const case_result*>(languages)});
  return *it;
}

/// The languages saw more than one value on LINE (skipped cells left out).
bool values_differ(const language_line& line) {
  std::set<std::string> seen;
  for (const case_result* r : line.cells)
    if (r && !r->outcome.skipped) seen.insert(r->outcome.observed);
  return seen.size() > 1;
}

}  // namespace

std::vector<language_line> matrix::by_language(std::size_t column) const {
  const std::vector<lang> langs = languages();
  std::vector<language_line> out;
  for (const auto& row : rows)
    for (sink_kind sink : row.sinks) {
      const case_result* r = row.find(column, sink);
      if (!r) continue;
      language_line& line = language_line_of(out, row.prop, sink, langs.size());
      line.cells[std::find(langs.begin(), langs.end(), row.language) - langs.begin()] = r;
    }
  for (auto& line : out) line.differs = values_differ(line);
  return out;
}

std::string value_text(const case_result& r) {
  if (r.outcome.skipped) return "skipped: " + *r.outcome.skipped;
  return (r.asserted && !r.outcome.pass ? "FAIL: " : "") + r.outcome.observed;
}

std::size_t skipped_count(const std::array<verdict_count, 3>& tally) noexcept {
  return tally[0].skipped + tally[1].skipped + tally[2].skipped;
}

std::string count_text(const verdict_count& n, tier level) {
  if (level == tier::observed) return std::to_string(n.observed + n.pass + n.fail) + " values";
  std::string out = std::to_string(n.pass) + " pass";
  if (n.fail > 0) out += ", " + std::to_string(n.fail) + " FAIL";
  if (n.observed > 0) out += ", " + std::to_string(n.observed) + " not asserted";
  return out;
}

std::string cell_text(const case_result& r) {
  if (r.outcome.skipped) return "skipped: " + *r.outcome.skipped;
  if (!r.asserted)
    return r.prop_case.prop->level == tier::observed ? r.outcome.observed
                                                     : "(" + r.outcome.observed + ")";
  return r.outcome.pass ? "pass" : "FAIL";
}

const char* note_tag(const case_result& r) {
  if (r.outcome.skipped) return "skipped here: ";
  if (r.outcome.pass) return "";
  return r.asserted ? "FAIL " : "not asserted for this profile: ";
}

namespace {

using case_index = std::map<std::string, case_result>;

std::vector<case_index> index_by_id(std::vector<column_results>& ran) {
  std::vector<case_index> index(ran.size());
  for (std::size_t c = 0; c < ran.size(); ++c)
    for (auto& r : ran[c].results) index[c].emplace(r.prop_case.id(), std::move(r));
  return index;
}

// Takes the cells out of INDEX, so that a case lands in one row only.
matrix_row take_row(const property& p, lang l, std::vector<case_index>& index) {
  matrix_row row{&p, l, {}, std::vector<std::map<sink_kind, case_result>>(index.size())};
  for (sink_kind sink : p.sinks) {
    const std::string id = property_case{&p, l, sink}.id();
    bool ran = false;
    for (std::size_t c = 0; c < index.size(); ++c)
      if (auto node = index[c].extract(id)) {
        row.cells[c].emplace(sink, std::move(node.mapped()));
        ran = true;
      }
    if (ran) row.sinks.push_back(sink);
  }
  return row;
}

std::vector<matrix_row> rows_in_order(const std::vector<property>& properties,
                                      std::vector<case_index>& index) {
  std::vector<matrix_row> rows;
  for (const auto& p : properties)
    for (lang l : p.langs)
      if (auto row = take_row(p, l, index); !row.sinks.empty()) rows.push_back(std::move(row));
  return rows;
}

std::vector<sink_kind> table_sinks(const std::vector<matrix_row>& rows) {
  // The four of today's catalogue always, so that a set without one keeps the column.
  std::set<sink_kind> used{sink_kind::pty, sink_kind::pipe, sink_kind::file, sink_kind::full};
  for (const auto& row : rows) used.insert(row.sinks.begin(), row.sinks.end());
  return {used.begin(), used.end()};  // enum order: pty, pipe, file, full
}

bool worth_a_note(const case_result& r) {
  return !r.outcome.pass || r.outcome.skipped || r.prop_case.prop->level == tier::observed;
}

void add_notes_and_failures(matrix& m) {
  for (std::size_t c = 0; c < m.columns.size(); ++c) {
    std::vector<cell_ref> failed;
    for (const cell_ref& cell : m.cells_of(c)) {
      const case_result& r = m.at(cell);
      if (worth_a_note(r)) m.notes.push_back(cell);
      if (r.asserted && !r.outcome.pass) failed.push_back(cell);
    }
    // By case id: the order the --all list has always had.
    std::stable_sort(failed.begin(), failed.end(), [&](const cell_ref& a, const cell_ref& b) {
      return m.at(a).prop_case.id() < m.at(b).prop_case.id();
    });
    m.failures.insert(m.failures.end(), failed.begin(), failed.end());
  }
}

// Required properties are left out: there a difference is a FAIL, listed as such.
std::optional<matrix_difference> difference_at(const matrix& m, std::size_t row, sink_kind sink) {
  if (m.rows[row].prop->level == tier::required) return std::nullopt;
  std::map<std::string, std::vector<std::size_t>> by_value;
  for (std::size_t c = 0; c < m.columns.size(); ++c)
    if (const case_result* r = m.rows[row].find(c, sink))
      by_value[r->outcome.observed].push_back(c);
  if (by_value.size() < 2) return std::nullopt;
  matrix_difference d{row, sink, {}};
  for (auto& [value, columns] : by_value) d.outcomes.push_back({value, std::move(columns)});
  return d;
}

void add_differences(matrix& m) {
  for (std::size_t row = 0; row < m.rows.size(); ++row)
    for (sink_kind sink : m.rows[row].sinks)
      if (auto d = difference_at(m, row, sink)) m.differences.push_back(std::move(*d));
}

}  // namespace

matrix make_matrix(std::vector<column_results> ran, const std::vector<property>& properties) {
  matrix m;
  auto index = index_by_id(ran);
  for (auto& r : ran) m.columns.push_back(std::move(r.column));
  m.rows = rows_in_order(properties, index);
  m.sinks = table_sinks(m.rows);
  add_notes_and_failures(m);
  add_differences(m);
  return m;
}

}  // namespace flushcheck
