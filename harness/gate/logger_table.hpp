#pragma once
/// The table of docs/loggers.md: each gate case (a C++ gate in tests/loggers/
/// or a gate file's case with a row) adds its row. With
/// FLUSHCHECK_LOGGERS_TABLE=FILE set (ci/update-docs sets it), one
/// tab-separated line per case is appended to FILE; without it, nothing
/// (logger_table.cpp).
#include <string>

namespace flushcheck::loggers {

struct row {
  std::string library, config, destination, death;
  long logged = 0;
  long survived = 0;
  std::string writes_per_record;  ///< "1", "0.02", or "-" (not asserted)
  std::string kind;               ///< "promise" or "observation"
  std::string note;
};

/// Appends R to $FLUSHCHECK_LOGGERS_TABLE, when it is set.
void add_row(const row& r);

/// The records (TAG, then a number) that arrived in TEXT.
long survived(const std::string& text, const std::string& tag = "rec ");

/// A ratio for people, 3 significant digits: "1", "0.02", "1.09".
std::string ratio_text(double r);

/// Writes per record that arrived; "-" when none arrived.
std::string per_record(long writes, long records);

/// One library's table: LOGGED records per case, a row per case.
struct gate_table {
  std::string library;
  long logged = 0;
  /// The row of a case whose records arrived as TEXT: survived counted,
  /// writes per record from WRITES (-1: not measured, "-").
  void add(const std::string& config, const std::string& dest, const std::string& death,
           const std::string& text, long writes, const std::string& kind,
           const std::string& note = "") const;
};

}  // namespace flushcheck::loggers
