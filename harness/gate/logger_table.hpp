#pragma once
/// The table of docs/loggers.md: each gate case (a C++ gate in tests/loggers/
/// or a gate file's case with a row) adds its row. With
/// FLUSHCHECK_LOGGERS_TABLE=FILE set (ci/update-docs sets it), one
/// tab-separated line per case is appended to FILE; without it, nothing.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "gate.hpp"

namespace flushcheck::loggers {

struct row {
  std::string library, config, destination, death;
  long logged = 0;
  long survived = 0;
  std::string writes_per_record;  ///< "1", "0.02", or "-" (not asserted)
  std::string kind;               ///< "promise" or "observation"
  std::string note;
};

inline void add_row(const row& r) {
  const char* path = std::getenv("FLUSHCHECK_LOGGERS_TABLE");
  if (path == nullptr) return;
  if (std::FILE* f = std::fopen(path, "a")) {
    std::fprintf(f, "%s\t%s\t%s\t%s\t%ld\t%ld\t%s\t%s\t%s\n", r.library.c_str(), r.config.c_str(),
                 r.destination.c_str(), r.death.c_str(), r.logged, r.survived,
                 r.writes_per_record.c_str(), r.kind.c_str(), r.note.c_str());
    std::fclose(f);
  }
}

inline long survived(const std::string& text, const std::string& tag = "rec ") {
  return static_cast<long>(record_numbers(text, tag).size());
}

/// A ratio for people, 3 significant digits: "1", "0.02", "1.09".
inline std::string ratio_text(double r) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", r);
  return buf;
}

/// Writes per record that arrived; "-" when none arrived.
inline std::string per_record(long writes, long records) {
  if (records == 0) return "-";
  return ratio_text(static_cast<double>(writes) / static_cast<double>(records));
}

/// One library's table: LOGGED records per case, a row per case.
struct gate_table {
  std::string library;
  long logged = 0;
  /// The row of a case whose records arrived as TEXT: survived counted,
  /// writes per record from WRITES (-1: not measured, "-").
  void add(const std::string& config, const std::string& dest, const std::string& death,
           const std::string& text, long writes, const std::string& kind,
           const std::string& note = "") const {
    const long n = survived(text);
    add_row({library, config, dest, death, logged, n, writes < 0 ? "-" : per_record(writes, n),
             kind, note});
  }
};

}  // namespace flushcheck::loggers
