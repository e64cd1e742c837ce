// The shape of a matrix record (matrix_json.cpp writes it), checked field by field.
#include "record_check.hpp"

#include <set>
#include <string>

#include "error.hpp"
#include "json_document.hpp"

namespace flushcheck {

namespace {

using json = nlohmann::json;

[[noreturn]] void wrong(const std::string& where, const json& v, const std::string& expected) {
  std::string got = v.is_string()    ? "a string"
                    : v.is_boolean() ? "a boolean"
                    : v.is_number()  ? v.dump()
                    : v.is_null()    ? "null"
                    : v.is_array()   ? "an array"
                                     : "an object";
  throw usage_error(where + ": " + got + ", expected " + expected);
}

/// J[KEY], where J has it, is of the type TEST accepts.
template <class Test>
void optional_field(const json& j, const std::string& where, const char* key, Test test,
                    const std::string& expected) {
  const auto it = j.find(key);
  if (it != j.end() && !test(*it)) wrong(where + "." + key, *it, expected);
}

bool is_count(const json& v) { return v.is_number_unsigned() || (v.is_number_integer() && v >= 0); }

void strings(const json& j, const std::string& where, std::initializer_list<const char*> keys) {
  for (const char* k : keys)
    optional_field(
        j, where, k, [](const json& v) { return v.is_string(); }, "a string");
}

void check_tally(const json& column, const std::string& where) {
  const auto tally = column.find("tally");
  if (tally == column.end()) return;
  if (!tally->is_object()) wrong(where + ".tally", *tally, "an object");
  for (const auto& [tier, counts] : tally->items()) {
    if (!counts.is_object()) wrong(where + ".tally." + tier, counts, "an object");
    for (const auto& [outcome, n] : counts.items())
      if (!is_count(n)) wrong(where + ".tally." + tier + "." + outcome, n, "a count");
  }
}

/// Column C at WHERE: its name (not one of NAMES, the columns' before it),
/// its fields, its tally.
void check_column(const json& c, const std::string& where, std::set<std::string>& names) {
  if (!c.is_object()) wrong(where, c, "an object");
  if (!c.contains("name") || !c["name"].is_string())
    wrong(where + ".name", c.value("name", json()), "a string");
  if (!names.insert(c["name"].get<std::string>()).second)
    throw usage_error(where + ".name: '" + c["name"].get<std::string>() + "' twice");
  strings(c, where, {"libc", "cxxlib", "version"});
  for (const char* k : {"cases", "failures"}) optional_field(c, where, k, is_count, "a count");
  optional_field(
      c, where, "runtimes", [](const json& v) { return v.is_array(); }, "an array");
  check_tally(c, where);
}

void check_columns(const json& record) {
  std::set<std::string> names;
  for (std::size_t i = 0; i < record["columns"].size(); ++i)
    check_column(record["columns"][i], "columns[" + std::to_string(i) + "]", names);
}

void check_cell(const json& cell, const std::string& where) {
  if (!cell.is_object()) wrong(where, cell, "an object");
  strings(cell, where, {"column", "id", "sink", "observed", "explanation", "repro", "skipped"});
  for (const char* k : {"pass", "asserted"})
    optional_field(
        cell, where, k, [](const json& v) { return v.is_boolean(); }, "true or false");
  optional_field(
      cell, where, "figures", [](const json& v) { return v.is_object(); }, "an object");
  const json figures = cell.value("figures", json::object());  // items() needs it alive
  for (const auto& [k, n] : figures.items())
    if (!n.is_number_integer()) wrong(where + ".figures." + k, n, "a whole number");
}

void check_rows(const json& record) {
  for (std::size_t i = 0; i < record["rows"].size(); ++i) {
    const json& row = record["rows"][i];
    const std::string where = "rows[" + std::to_string(i) + "]";
    if (!row.is_object()) wrong(where, row, "an object");
    strings(row, where, {"property", "language", "group", "tier", "claim", "source"});
    const auto cells = row.find("cells");
    if (cells == row.end()) continue;
    if (!cells->is_array()) wrong(where + ".cells", *cells, "an array");
    for (std::size_t k = 0; k < cells->size(); ++k)
      check_cell((*cells)[k], where + ".cells[" + std::to_string(k) + "]");
  }
}

}  // namespace

void check_record(const json& record) {
  if (!is_json_document(record, json_kind::matrix) || !record.contains("rows") ||
      !record["rows"].is_array() || !record.contains("columns") || !record["columns"].is_array())
    throw usage_error("not a matrix record (flushcheck matrix --json, schema " +
                      std::to_string(info(json_kind::matrix).schema) + ")");
  const auto machine = record.find("machine");
  if (machine != record.end() && !machine->is_object()) wrong("machine", *machine, "an object");
  if (machine != record.end())
    for (const auto& [k, v] : machine->items())
      if (!v.is_string() && !v.is_number()) wrong("machine." + k, v, "a string or a number");
  check_columns(record);
  check_rows(record);
}

}  // namespace flushcheck
