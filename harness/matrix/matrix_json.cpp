// The matrix as one JSON object, the same schema for one set and for --all:
// columns, rows with their cells, differences (docs/cli.md).
#include "matrix_report.hpp"

#include "json_document.hpp"
#include "machine.hpp"
#include "matrix_merge.hpp"
#include "record_cell.hpp"
#include "run_report.hpp"

namespace flushcheck {
namespace {

/// Where and when the record was made, and by which flushcheck.
nlohmann::json machine_json() {
  const machine_info host = this_machine();
  return {{"distribution", host.distribution},
          {"id", host.id},
          {"kernel", host.kernel},
          {"arch", host.arch},
          {"cpus", host.cpus},
          {"flushcheck", flushcheck_version()},
          {"time", utc_now()}};
}

/// COLUMN's cells by tier and outcome (matrix::tally).
nlohmann::json tally_json(const matrix& m, std::size_t c) {
  nlohmann::json out = nlohmann::json::object();
  const auto n = m.tally(c);
  for (tier t : {tier::required, tier::documented, tier::observed}) {
    const verdict_count& k = n.at(static_cast<std::size_t>(t));
    out[to_string(t)] = {
        {"pass", k.pass}, {"fail", k.fail}, {"observed", k.observed}, {"skipped", k.skipped}};
  }
  return out;
}

nlohmann::json column_json(const matrix& m, std::size_t c) {
  const matrix_column& col = m.columns[c];
  return {{"name", col.name},
          {"libc", to_string(col.profile.libc)},
          {"cxxlib", to_string(col.profile.cxxlib)},
          {"version", col.profile.version},
          {"runtimes", col.runtimes},
          {"cases", m.case_count(c)},
          {"failures", m.failure_count(c)},
          {"tally", tally_json(m, c)}};
}

nlohmann::json cell_json(const matrix& m, const case_result& r, std::size_t c) {
  return to_json(cell_of(r, m.columns[c].name));
}

// Cells in line order: by sink, then by column.
nlohmann::json row_json(const matrix& m, const matrix_row& row) {
  nlohmann::json cells = nlohmann::json::array();
  for (sink_kind sink : row.sinks)
    for (std::size_t c = 0; c < m.columns.size(); ++c)
      if (const case_result* r = row.find(c, sink)) cells.push_back(cell_json(m, *r, c));
  return {{"property", row.prop->name}, {"language", to_string(row.language)},
          {"group", row.prop->group},   {"tier", to_string(row.prop->level)},
          {"source", row.prop->source}, {"claim", row.prop->claim},
          {"cells", std::move(cells)}};
}

nlohmann::json difference_json(const matrix& m, const matrix_difference& d) {
  const matrix_row& row = m.rows[d.row];
  nlohmann::json outcomes = nlohmann::json::array();
  for (const auto& o : d.outcomes) {
    nlohmann::json names = nlohmann::json::array();
    for (std::size_t c : o.columns) names.push_back(m.columns[c].name);
    const auto& first = m.at({d.row, d.sink, o.columns.front()}).outcome;
    outcomes.push_back({{"observed", bytes_as_code_points(o.observed)},
                        {"columns", std::move(names)},
                        {"explanation", bytes_as_code_points(first.explanation)}});
  }
  return {{"id", property_case{row.prop, row.language, d.sink}.id()},
          {"outcomes", std::move(outcomes)}};
}

}  // namespace

nlohmann::json to_json(const matrix& m) {
  nlohmann::json j = json_document(json_kind::matrix);
  j["machine"] = machine_json();
  j["columns"] = nlohmann::json::array();
  for (std::size_t c = 0; c < m.columns.size(); ++c) j["columns"].push_back(column_json(m, c));
  j["sinks"] = nlohmann::json::array();
  for (sink_kind sink : m.sinks) j["sinks"].push_back(std::string(to_string(sink)));
  j["rows"] = nlohmann::json::array();
  for (const auto& row : m.rows) j["rows"].push_back(row_json(m, row));
  j["differences"] = nlohmann::json::array();
  for (const auto& d : m.differences) j["differences"].push_back(difference_json(m, d));
  j["failures"] = m.failures.size();
  return j;
}

nlohmann::json to_json(const matrix& m, const std::vector<labelled_record>& records) {
  auto j = to_json(m);
  j.erase("machine");  // not this machine's: each record's own
  j["records"] = nlohmann::json::array();
  for (const auto& r : records)
    j["records"].push_back(
        {{"label", r.label}, {"machine", r.record.value("machine", nlohmann::json::object())}});
  return j;
}

}  // namespace flushcheck
