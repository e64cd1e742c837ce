// The kinds of JSON document, their schemas, and the one dump.
#include "json_document.hpp"

#include "error.hpp"

namespace flushcheck {

namespace {

constexpr json_kind_info k_kinds[] = {
    // 2: "writes" is a list of destinations; every byte string is encoded as "data" is
    {json_kind::run, "run", 2},          // flushcheck run --json
    {json_kind::count, "count", 2},      // flushcheck count --json
    {json_kind::explore, "explore", 2},  // flushcheck explore --json
    {json_kind::doctor, "doctor", 3},    // 3: a diagnosis per stream ("views"; 2 had stdout's)
    {json_kind::matrix, "matrix", 2},    // flushcheck matrix --json: the record
    {json_kind::matrix_changes, "matrix-changes", 1},  // matrix --baseline --json
    {json_kind::gate, "gate", 1},                      // flushcheck gate --json
    {json_kind::bench, "bench", 2},  // 2: ratios per byte (per op, per run); 1 had them per run
    {json_kind::workload_check, "workload-check", 1},  // flushcheck workload check --json
    {json_kind::durability, "durability", 1},          // flushcheck durability --json
};

}  // namespace

const json_kind_info& info(json_kind kind) noexcept {
  for (const auto& k : k_kinds)
    if (k.kind == kind) return k;
  return k_kinds[0];
}

nlohmann::json json_document(json_kind kind) {
  return {{"kind", info(kind).name}, {"schema", info(kind).schema}};
}

bool is_json_document(const nlohmann::json& j, json_kind kind) {
  if (!j.is_object() || !j.contains("schema") || j["schema"] != info(kind).schema) return false;
  return !j.contains("kind") || j["kind"] == info(kind).name;
}

std::string dump_json(const nlohmann::json& j, int indent) {
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

nlohmann::json parse_json_input(const std::string& text, int max_depth) {
  bool too_deep = false;
  // The parser itself keeps its own stack; a value past MAX_DEPTH is dropped
  // as it is read, so a deep one costs no memory, and the whole is refused.
  auto depth_limit = [&](int depth, nlohmann::json::parse_event_t, nlohmann::json&) {
    if (depth > max_depth) too_deep = true;
    return depth <= max_depth;
  };
  auto j = nlohmann::json::parse(text, depth_limit, false);
  if (too_deep) throw usage_error("nested deeper than " + std::to_string(max_depth) + " levels");
  if (j.is_discarded()) throw usage_error("not JSON");
  return j;
}

}  // namespace flushcheck
