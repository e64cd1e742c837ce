#pragma once
/// One property case, run: the driver with the case's workload, cut and
/// fault (a gate_run), and the promise's checks on what arrived.
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "gate_file.hpp"
#include "property_promise.hpp"
#include "property_spec.hpp"
#include "workload_case.hpp"

namespace flushcheck {

struct workload_outcome {
  case_plan plan;
  /// Why the case says nothing: the driver did not start, refused the
  /// workload (exit 64, docs/workload.md) or ran past its timeout.
  std::string error;
  std::vector<std::string> terms;         ///< each check's promise term
  std::vector<gate_check_result> checks;  ///< in the order of promised_checks()
  std::string status;                     ///< how the program ended
  std::string repro;                      ///< the shell line that repeats the run
  /// The first broken check: "through_last_flush at _exit: records_through";
  /// the way a shrunk candidate must fail to count. Empty: the promise held.
  std::string broken() const;
  bool kept() const { return error.empty() && broken().empty(); }
  /// The first broken check's index.
  std::optional<std::size_t> first_broken() const;
};

/// Runs C against SPEC; ON_SPAWN as gate_run::on_spawn.
workload_outcome run_workload_case(const property_spec& spec, const workload_case& c,
                                   std::function<void(int)> on_spawn = {});

/// A [[case]] block for the gate file that repeats C and expects what broke
/// (CHECK): it fails while the bug is there.
std::string case_toml(const property_spec& spec, const workload_case& c, const gate_expect& check,
                      const std::string& name);

}  // namespace flushcheck
