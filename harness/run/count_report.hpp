#pragma once
/// What `flushcheck count` reports of a traced run, like strace -c: a row
/// per destination and call, the totals, the exit and the faults
/// (count_text.cpp), or the same as one JSON object (count_json.cpp).
#include <string>

#include <nlohmann/json.hpp>

#include "observation.hpp"

namespace flushcheck {

struct count_report {
  const observation& obs;  ///< traced: obs.trace is set
  bool with_bytes = true;  ///< the backend counts bytes (perf does not)
  bool all = false;        ///< also the destinations never written to, a row each
};

/// The table, with the backend's name first.
std::string to_text(const count_report& r);
/// {"backend", "exit", "writes", "totals", "faults"} (kind "count", docs/cli.md).
nlohmann::json to_json(const count_report& r);

}  // namespace flushcheck
