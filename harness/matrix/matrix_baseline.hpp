#pragma once
/// A matrix record (matrix --json) against a saved one: the regression gate
/// for a libc, compiler or base-image upgrade (`matrix --baseline FILE`).
/// Cells are matched by toolchain set name and case id (property, language,
/// sink); what is compared is each cell's verdict (asserted, pass, skipped)
/// and its observed value. Nothing timed is compared: the cells hold none.
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace flushcheck {

/// One cell whose verdict or observed value changed.
struct cell_change {
  std::string column;  ///< toolchain set: "default"
  std::string id;      ///< "stdout.first_line_early/c/pipe"
  std::string before;  ///< "pass, observed 0/0"
  std::string now;
  std::string repro;  ///< the now side's (the before side's if it has none)
  /// What re-runs of the case on this machine gave, when it was re-run; a
  /// change that did not repeat in every one varies and is no regression.
  std::vector<std::string> reruns;
  bool varies() const;
};

/// A toolchain set whose libraries differ between the records.
struct library_change {
  std::string column;
  std::string before;  ///< "glibc 2.36, libstdc++ 12 (20220819)"
  std::string now;
};

struct record_changes {
  std::string before_machine;  ///< "Debian GNU/Linux 12 (bookworm), 2026-12-02T14:05:09Z"
  std::string now_machine;
  std::size_t compared = 0;          ///< cells in both records
  std::vector<cell_change> changes;  ///< those that vary too
  /// Changes that repeated (or were not re-run): what the gate fails on.
  std::size_t confirmed() const;
  std::vector<library_change> libraries;
  std::vector<std::string> only_before;  ///< "musl: 412 cells" (a set or cells gone)
  std::vector<std::string> only_now;
};

/// Runs a changed cell's case again on this machine; returns each run's
/// verdict_text (record_cell.hpp).
using rerun_cell = std::function<std::vector<std::string>(const cell_change&)>;

/// BEFORE against NOW, both matrix records (schema 2); each change re-run
/// with RERUN when given (NOW is this machine's). Throws usage_error,
/// naming WHAT ("--baseline=FILE"), when one is not such a record.
record_changes compare_records(const nlohmann::json& before, const nlohmann::json& now,
                               const std::string& what, const rerun_cell& rerun = {});

/// The changes for a terminal: a line per change with both values and the
/// repro; what was compared and what was not.
std::string record_changes_text(const record_changes& c);
/// The same as one JSON object ("schema": 1, docs/cli.md).
std::string record_changes_json(const record_changes& c);

}  // namespace flushcheck
