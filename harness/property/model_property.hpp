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

/// What one property run found.
struct property_report {
  bool passed = false;
  std::uint64_t seed = 0;
  int cases = 0;
  std::string message;                       ///< for people: seed, case, MUST/MAY, repro
  std::optional<model_case> counterexample;  ///< the shrunk failing case
  std::optional<model_outcome> outcome;      ///< its outcome
  std::vector<std::string> flaky;            ///< cases that disagreed once only
};

/// Checks CASES cases of P on TARGETS with RapidCheck from SEED, shrinking
/// a failure. AGAIN is the command that runs it again, the last line of a
/// failure's message.
property_report check_against_model(const model_property& p, const target_set& targets, int cases,
                                    std::uint64_t seed, const std::string& again);

}  // namespace flushcheck
