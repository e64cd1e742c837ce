#pragma once
/// Every JSON document the CLI prints or reads back: which kind it is, the
/// version of that kind, and the one way to turn it into text.
///
/// The policy (docs/cli.md, "JSON documents"): each document names its
/// "kind" (the verb's document: "run", "matrix", ...) and its "schema" (that
/// kind's version). A kind's schema goes up when a field is renamed or removed
/// or changes what it means; a new field leaves it as it is. A reader checks
/// both (matrix --baseline and --merge, bench --compare).
#include <string>

#include <nlohmann/json.hpp>

namespace flushcheck {

enum class json_kind {
  run,
  count,
  explore,
  doctor,
  matrix,
  matrix_changes,
  gate,
  bench,
  workload_check,
  durability
};

/// The table: each kind's name and its current schema.
struct json_kind_info {
  json_kind kind;
  const char* name;  ///< "run", "count", "explore", "doctor", "matrix", "matrix-changes", ...
  int schema;
};
const json_kind_info& info(json_kind kind) noexcept;

/// {"kind": NAME, "schema": N}: what every document of KIND starts from.
nlohmann::json json_document(json_kind kind);

/// Is J a document of KIND at its current schema? A document without
/// "kind" (written before kinds were named) is judged by its schema alone.
bool is_json_document(const nlohmann::json& j, json_kind kind);

/// TEXT, a document from outside (a saved record, a bench report), parsed
/// with at most MAX_DEPTH levels of arrays and objects (flushcheck's own are
/// under 8; a deeper one would recurse in what reads it). Throws usage_error:
/// "not JSON", or "nested deeper than N levels".
nlohmann::json parse_json_input(const std::string& text, int max_depth = 32);

/// J as text with INDENT spaces per level (-1: one line), then a newline. A
/// string that is not UTF-8 has each bad byte replaced by U+FFFD: it never
/// throws on the bytes it carries.
std::string dump_json(const nlohmann::json& j, int indent = -1);

}  // namespace flushcheck
