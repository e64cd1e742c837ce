// Two matrix records, cell by cell (matrix_baseline.hpp).
#include "matrix_baseline.hpp"

#include <algorithm>
#include <map>
#include <sstream>

#include "error.hpp"
#include "escape.hpp"
#include "json_document.hpp"
#include "record_cell.hpp"
#include "record_check.hpp"
#include "record_fields.hpp"

namespace flushcheck {

namespace {

using json = nlohmann::json;
using detail::record_text;
/// (set name, case id) -> the cell, read once.
using cell_index = std::map<std::pair<std::string, std::string>, record_cell>;

void require_record(const json& r, const std::string& what) {
  try {
    check_record(r);
  } catch (const usage_error& e) {
    throw usage_error(what + ": " + e.what());
  }
}

cell_index index_cells(const json& record) {
  cell_index cells;
  for (const auto& row : record["rows"]) {
    const auto it = row.find("cells");
    if (it == row.end() || !it->is_array()) continue;
    for (const auto& cell : *it) {
      if (!cell.is_object()) continue;
      record_cell c = read_cell(cell);
      auto key = std::make_pair(c.column, c.id);
      cells[std::move(key)] = std::move(c);
    }
  }
  return cells;
}

std::string machine_line(const json& record) {
  const json m = record.value("machine", json::object());
  if (m.empty()) return "a record without its machine (made before flushcheck 0.1.0 named it)";
  return record_text(m, "distribution") + ", kernel " + record_text(m, "kernel") + ", " +
         record_text(m, "time");
}

std::map<std::string, std::string> libraries_by_set(const json& record) {
  std::map<std::string, std::string> sets;
  for (const auto& c : record.value("columns", json::array()))
    sets[record_text(c, "name")] = record_text(c, "version");
  return sets;
}

/// Per set, the cells one index has and the other does not: "musl: 412 cells".
std::vector<std::string> missing_from(const cell_index& has, const cell_index& lacks) {
  std::map<std::string, std::size_t> per_set;
  for (const auto& [key, cell] : has)
    if (!lacks.count(key)) ++per_set[key.first];
  std::vector<std::string> lines;
  for (const auto& [set, n] : per_set)
    lines.push_back(set + ": " + std::to_string(n) + (n == 1 ? " cell" : " cells"));
  return lines;
}

void compare_libraries(const json& before, const json& now, record_changes& out) {
  const auto then = libraries_by_set(before);
  for (const auto& [set, libs] : libraries_by_set(now))
    if (auto it = then.find(set); it != then.end() && it->second != libs)
      out.libraries.push_back({set, it->second, libs});
}

/// The cell at KEY in both records, BEFORE and NOW: counted, and if its
/// verdict changed, the change (re-run with RERUN when given).
void compare_cell(const cell_index::key_type& key, const record_cell& before,
                  const record_cell& now, const rerun_cell& rerun, record_changes& out) {
  ++out.compared;
  const std::string a = verdict_text(before), b = verdict_text(now);
  if (a == b) return;
  const std::string& repro = now.outcome.repro;
  out.changes.push_back(
      {key.first, key.second, a, b, repro.empty() ? before.outcome.repro : repro, {}});
  if (rerun) out.changes.back().reruns = rerun(out.changes.back());
}

/// Each cell both indexes have, THEN's (the baseline's) against CELLS'.
void compare_cells(const cell_index& then, const cell_index& cells, const rerun_cell& rerun,
                   record_changes& out) {
  for (const auto& [key, cell] : cells) {
    const auto it = then.find(key);
    if (it == then.end()) continue;
    compare_cell(key, it->second, cell, rerun, out);
  }
}

/// A change for a terminal: both values, what re-runs gave, the repro.
void change_text(std::ostream& out, const cell_change& ch) {
  out << (ch.varies() ? "varies " : "changed ") << ch.id << " [" << ch.column << "]: " << ch.before
      << " -> " << ch.now << "\n";
  if (!ch.reruns.empty()) out << "  re-run " << ch.reruns.size() << " times here:";
  for (const auto& v : ch.reruns) out << "\n    " << v;
  if (!ch.reruns.empty())
    out << (ch.varies() ? "\n  (not the same every run: no regression)\n" : "\n");
  out << "  repro: " << ch.repro << "\n";
}

/// How many cells changed of those compared, and what was compared.
void summary_text(std::ostream& out, const record_changes& c) {
  out << c.confirmed() << " of " << c.compared << " cells changed";
  if (c.confirmed() != c.changes.size())
    out << ", " << c.changes.size() - c.confirmed() << " more vary from run to run";
  out << " (matched by toolchain set and case; compared: verdict and observed value; not "
         "compared: cells only one record has)\n";
}

/// Each change with both values and what re-runs gave.
json changes_json(const std::vector<cell_change>& changes) {
  json out = json::array();
  for (const auto& ch : changes)
    out.push_back({{"column", ch.column},
                   {"id", ch.id},
                   {"before", ch.before},
                   {"now", ch.now},
                   {"reruns", ch.reruns},
                   {"varies", ch.varies()},
                   {"repro", ch.repro}});
  return out;
}

/// Each toolchain set whose libraries differ, with both.
json libraries_json(const std::vector<library_change>& libraries) {
  json out = json::array();
  for (const auto& l : libraries)
    out.push_back({{"column", l.column}, {"before", l.before}, {"now", l.now}});
  return out;
}

}  // namespace

bool cell_change::varies() const {
  return std::any_of(reruns.begin(), reruns.end(), [&](const std::string& v) { return v != now; });
}

std::size_t record_changes::confirmed() const {
  return static_cast<std::size_t>(std::count_if(changes.begin(), changes.end(),
                                                [](const cell_change& c) { return !c.varies(); }));
}

record_changes compare_records(const json& before, const json& now, const std::string& what,
                               const rerun_cell& rerun) {
  require_record(before, what);
  require_record(now, "the record compared with " + what);
  record_changes out{machine_line(before), machine_line(now), 0, {}, {}, {}, {}};
  compare_libraries(before, now, out);
  const cell_index then = index_cells(before), cells = index_cells(now);
  compare_cells(then, cells, rerun, out);
  out.only_before = missing_from(then, cells);
  out.only_now = missing_from(cells, then);
  return out;
}

std::string record_changes_text(const record_changes& c) {
  std::ostringstream out;
  out << "baseline: " << c.before_machine << "\nnow:      " << c.now_machine << "\n";
  for (const auto& l : c.libraries)
    out << "libraries of " << l.column << ": " << l.before << " -> " << l.now << "\n";
  for (const auto& ch : c.changes) change_text(out, ch);
  for (const auto& s : c.only_before) out << "only in the baseline: " << s << "\n";
  for (const auto& s : c.only_now) out << "only now: " << s << "\n";
  summary_text(out, c);
  return terminal_text(out.str());
}

std::string record_changes_json(const record_changes& c) {
  json j = json_document(json_kind::matrix_changes);
  j.update(json{{"baseline", c.before_machine},
                {"now", c.now_machine},
                {"compared", c.compared},
                {"confirmed", c.confirmed()},
                {"changes", changes_json(c.changes)},
                {"libraries", libraries_json(c.libraries)},
                {"only_in_baseline", c.only_before},
                {"only_now", c.only_now}});
  return dump_json(j, 2);
}

}  // namespace flushcheck
