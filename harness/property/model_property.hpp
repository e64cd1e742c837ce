#pragma once
/// The model properties (docs/model.md, "Properties"): generated scripts run
/// on a toolchain set's real targets and sinks, cut at markers, at write
/// calls and by their own endings, with and without --fault plans, each run
/// checked against the reference model; RapidCheck shrinks a failure. Run by
/// `flushcheck model` and by the property tests (ctest -L property).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model_check.hpp"
#include "model_gen.hpp"
#include "target_set.hpp"

namespace flushcheck {

/// One model property: cases in LANGUAGE, cuts of FAMILY, with one or two
/// --fault plans (FAULTS; then cuts of either family).
struct model_property {
  std::string name;  ///< "c_write_cuts"
  lang language = lang::c;
  cut_family family = cut_family::markers_and_endings;
  bool faults = false;
};

/// The six, C and C++: markers and endings, write cuts, faults.
const std::vector<model_property>& model_properties();

/// How a property searches: CASES cases from SEED, in MAX_SECONDS.
struct model_search {
  int cases = 100;
  std::uint64_t seed = 0;
  /// Bounds the search; the shrinking, once a case failed, gets as long
  /// again. Each run's deadline is the smaller of its timeout and the time
  /// left. None: as long as the cases take.
  std::optional<double> max_seconds;
};

/// What one property run found.
struct property_report {
  bool passed = false;
  std::uint64_t seed = 0;
  int cases = 0;                             ///< asked for
  int checked = 0;                           ///< run to a verdict, before the failure if any
  std::string message;                       ///< for people: seed, case, MUST/MAY, repro
  std::optional<model_case> counterexample;  ///< the shrunk failing case
  std::optional<model_outcome> outcome;      ///< its outcome
  std::vector<std::string> flaky;            ///< cases that disagreed once only
  bool stopped = false;                      ///< the time budget ended the search before CASES
  bool shrink_stopped = false;               ///< the time budget ended the shrinking
  /// Stopped before any case was checked: no verdict, neither held nor falsified.
  bool nothing_checked() const { return stopped && checked == 0; }
};

/// Checks S.cases cases of P on TARGETS with RapidCheck from S.seed,
/// shrinking a failure. AGAIN is the command that runs it again, the last
/// line of a failure's message. What a case's run throws (harness_error:
/// the harness could not make its files; spawn_error) is no falsification:
/// it ends the search and is thrown again from here.
property_report check_against_model(const model_property& p, const target_set& targets,
                                    const model_search& s, const std::string& again);

/// As above, with no time budget.
property_report check_against_model(const model_property& p, const target_set& targets, int cases,
                                    std::uint64_t seed, const std::string& again);

}  // namespace flushcheck
