#pragma once
/// What a property gate found (`flushcheck gate`, docs/gate.md "Property
/// gates"): the cases it ran and, when the promise broke, the shrunk
/// counterexample, ready to paste. The property stage fills it; the gate
/// reporters print it (one reporter per format, with the cases').
#include <cstdint>
#include <optional>
#include <string>

namespace flushcheck {

/// A run that broke the promise, shrunk.
struct counterexample {
  std::string promise;    ///< the term broken and its end: "through_last_flush at _exit"
  std::string check;      ///< the check that failed: "records_through 3 in file:app.log"
  std::string failure;    ///< what arrived against what was promised (the check's words)
  std::string end;        ///< how the run ended: "KILL at marker 1 (after op 4)"
  std::string sink;       ///< stdout's sink
  std::string workload;   ///< the shrunk workload's ops, "; "-separated
  std::string status;     ///< how the program ended ("killed by SIGKILL")
  std::string repro;      ///< the shell line that repeats the run
  std::string case_toml;  ///< a [[case]] block that pins it in the gate file
  long found_at = 0;      ///< the case (from 1) that first broke it
  double seconds_to_find = 0;
  long shrink_steps = 0;        ///< smaller cases accepted
  long shrink_tries = 0;        ///< candidates run
  bool shrink_stopped = false;  ///< the time budget ended the shrinking
  /// Set when the shrunk case did not break the promise again (a race's
  /// luck shrank it): the case as found is shown instead, and this says so.
  std::string note;
  int failed_runs = 0;  ///< of RUNS re-runs of the shrunk case, how many broke it the same way
  int runs = 0;
  bool deterministic() const { return runs > 0 && failed_runs == runs; }
  /// "deterministic (20 of 20 runs)" or "fails 7 of 20 runs".
  std::string rate() const {
    const std::string of = std::to_string(failed_runs) + " of " + std::to_string(runs) + " runs";
    return deterministic() ? "deterministic (" + of + ")" : "fails " + of;
  }
};

struct property_result {
  std::string name;
  std::uint64_t seed = 0;
  long cases = 0;           ///< cases run
  long cases_asked = 0;     ///< --cases
  bool budget_hit = false;  ///< --max-seconds stopped the search early
  double seconds = 0;
  /// Why it could not check (the driver did not start, or refused a workload).
  std::string error;
  std::optional<counterexample> found;
  std::string repeat;       ///< the command that repeats this search (same seed)
  bool must_break = false;  ///< the property's holds = false: a counterexample is the pass
  bool pass() const { return error.empty() && found.has_value() == must_break; }
};

}  // namespace flushcheck
