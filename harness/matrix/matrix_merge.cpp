// Saved matrix records back into one matrix value (matrix_merge.hpp).
#include "matrix_merge.hpp"

#include <map>

#include "error.hpp"
#include "json_document.hpp"
#include "record_cell.hpp"
#include "record_check.hpp"
#include "record_fields.hpp"

namespace flushcheck {

namespace {

using json = nlohmann::json;
using detail::record_text;

const property* find_property(const std::string& name) {
  for (const auto& p : catalogue())
    if (p.name == name) return &p;
  return nullptr;
}

matrix_column column_of(const std::string& label, const json& c) {
  matrix_column col;
  col.name = label + "/" + record_text(c, "name");
  col.profile.libc = parse_libc(record_text(c, "libc"));
  col.profile.cxxlib = parse_cxxlib(record_text(c, "cxxlib"));
  col.profile.version = record_text(c, "version");
  for (const auto& r : c.value("runtimes", json::array()))
    if (r.is_string()) col.runtimes.push_back(r.get<std::string>());
  return col;
}

/// CELL of the row of PROP and LANGUAGE into its column (by set name) at
/// BY_SET; false when it is no cell, or of nothing this flushcheck knows.
bool add_cell(const json& cell, const property* prop, const std::optional<lang>& language,
              std::map<std::string, column_results*>& by_set) {
  if (!cell.is_object()) return false;
  const record_cell c = read_cell(cell);
  const auto sink = parse_sink_kind(c.sink);
  const auto col = by_set.find(c.column);
  if (prop == nullptr || !language || !sink || col == by_set.end()) return false;
  col->second->results.push_back({property_case{prop, *language, *sink}, c.outcome, c.asserted});
  return true;
}

/// RECORD's cells into the columns (by set name) at BY_SET.
void add_cells(const json& record, std::map<std::string, column_results*>& by_set,
               std::size_t& unknown) {
  for (const auto& row : record["rows"]) {
    if (!row.is_object()) continue;
    const property* prop = find_property(record_text(row, "property"));
    const auto language = parse_lang(record_text(row, "language"));
    for (const auto& cell : row.value("cells", json::array()))
      if (!add_cell(cell, prop, language, by_set)) ++unknown;
  }
}

/// Each record checked, and its columns, named "LABEL/SET", in order.
std::vector<column_results> columns_of(const std::vector<labelled_record>& records) {
  std::vector<column_results> columns;
  for (const auto& r : records) {
    try {
      check_record(r.record);
    } catch (const usage_error& e) {
      throw usage_error(r.label + ": " + e.what());
    }
    for (const auto& c : r.record["columns"]) columns.push_back({column_of(r.label, c), {}});
  }
  return columns;
}

}  // namespace

matrix merge_records(const std::vector<labelled_record>& records, std::size_t& unknown) {
  std::vector<column_results> columns = columns_of(records);
  unknown = 0;
  std::size_t first = 0;
  for (const auto& r : records) {
    std::map<std::string, column_results*> by_set;
    for (std::size_t i = first; i < first + r.record["columns"].size(); ++i)
      by_set[columns[i].column.name.substr(r.label.size() + 1)] = &columns[i];
    add_cells(r.record, by_set, unknown);
    first += r.record["columns"].size();
  }
  return make_matrix(std::move(columns));
}

}  // namespace flushcheck
