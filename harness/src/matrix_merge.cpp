// Saved matrix records back into one matrix value (matrix_merge.hpp).
#include "flushcheck/matrix_merge.hpp"

#include <map>

#include "flushcheck/error.hpp"

namespace flushcheck {

namespace {

using json = nlohmann::json;

std::string text_of(const json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : "";
}

bool flag_of(const json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_boolean() && it->get<bool>();
}

const property* find_property(const std::string& name) {
  for (const auto& p : catalogue())
    if (p.name == name) return &p;
  return nullptr;
}

matrix_column column_of(const std::string& label, const json& c) {
  matrix_column col;
  col.name = label + "/" + text_of(c, "name");
  col.profile.libc = parse_libc(text_of(c, "libc"));
  col.profile.cxxlib = parse_cxxlib(text_of(c, "cxxlib"));
  col.profile.version = text_of(c, "version");
  for (const auto& r : c.value("runtimes", json::array()))
    if (r.is_string()) col.runtimes.push_back(r.get<std::string>());
  return col;
}

verdict verdict_of(const json& cell) {
  verdict v;
  v.pass = flag_of(cell, "pass");
  v.observed = text_of(cell, "observed");
  v.explanation = text_of(cell, "explanation");
  v.repro = text_of(cell, "repro");
  v.skipped = text_of(cell, "skipped");
  const json figures = cell.value("figures", json::object());  // items() needs it alive
  for (const auto& [k, n] : figures.items())
    if (n.is_number_integer()) v.figures[k] = n.get<std::int64_t>();
  return v;
}

/// RECORD's cells into the columns (by set name) at BY_SET.
void add_cells(const json& record, std::map<std::string, column_results*>& by_set,
               std::size_t& unknown) {
  for (const auto& row : record["rows"]) {
    if (!row.is_object()) continue;
    const property* prop = find_property(text_of(row, "property"));
    const auto language = parse_lang(text_of(row, "language"));
    for (const auto& cell : row.value("cells", json::array())) {
      if (!cell.is_object()) {
        ++unknown;
        continue;
      }
      const auto sink = parse_sink_kind(text_of(cell, "sink"));
      const auto col = by_set.find(text_of(cell, "column"));
      if (prop == nullptr || !language || !sink || col == by_set.end()) {
        ++unknown;
        continue;
      }
      col->second->results.push_back(
          {property_case{prop, *language, *sink}, verdict_of(cell), flag_of(cell, "asserted")});
    }
  }
}

}  // namespace

matrix merge_records(const std::vector<labelled_record>& records, std::size_t& unknown) {
  std::vector<column_results> columns;
  for (const auto& r : records) {
    if (!r.record.is_object() || r.record.value("schema", 0) != 2 || !r.record.contains("rows") ||
        !r.record["rows"].is_array() || !r.record.contains("columns") ||
        !r.record["columns"].is_array())
      throw usage_error(r.label + ": not a matrix record (flushcheck matrix --json, schema 2)");
    for (const auto& c : r.record["columns"]) columns.push_back({column_of(r.label, c), {}});
  }
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
