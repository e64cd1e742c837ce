#pragma once
// Reading a saved matrix record (matrix --json) that may come from another
// machine or version: a field of the wrong type reads as empty, never throws.
#include <string>

#include <nlohmann/json.hpp>

namespace flushcheck::detail {

/// J[KEY] when it is a string, else "".
inline std::string record_text(const nlohmann::json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : "";
}

/// J[KEY] when it is a boolean, else false.
inline bool record_flag(const nlohmann::json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_boolean() && it->get<bool>();
}

}  // namespace flushcheck::detail
