#pragma once
// The one place flushcheck reaches into RapidCheck's detail namespace: the
// public rc::check reads its seed and case count from RC_PARAMS only, and a
// model property must run with its own (printed, repeatable) seed and count.
// RapidCheck's own GoogleTest integration (rapidcheck/gtest.h) calls
// detail::checkTestable the same way. What comes back is a plain value.
#include <rapidcheck.h>
#include <rapidcheck/detail/Configuration.h>

#include <cstdint>
#include <iostream>
#include <sstream>
#include <string>

namespace flushcheck {

struct seeded_result {
  enum class outcome { passed, falsified, gave_up, error };
  outcome what = outcome::error;
  int cases = 0;               ///< cases that passed (before the failure, if any)
  std::string description;     ///< RapidCheck's: the failure or why it gave up
  std::string counterexample;  ///< the shrunk values, one per line
};

/// RapidCheck loads its global configuration once, and then prints "Using
/// configuration: seed=..." to std::cerr (src/detail/Configuration.cpp): a
/// seed no property here uses. Loaded once with that line kept off stderr.
inline void load_rapidcheck_quietly() {
  static const bool loaded = [] {
    std::ostringstream sink;
    auto* before = std::cerr.rdbuf(sink.rdbuf());
    rc::detail::configuration();
    std::cerr.rdbuf(before);
    return true;
  }();
  (void)loaded;
}

/// RapidCheck's parameters for CASES cases from SEED.
inline rc::detail::TestParams seeded_params(int cases, std::uint64_t seed) {
  rc::detail::TestParams params;
  params.seed = seed;
  params.maxSuccess = cases;
  params.maxSize = 100;
  return params;
}

/// What RapidCheck's check returned, as a plain value.
inline seeded_result seeded_result_of(const rc::detail::TestResult& result) {
  seeded_result r;
  rc::detail::FailureResult failure;
  rc::detail::SuccessResult success;
  rc::detail::GaveUpResult gave_up;
  if (result.match(failure)) {
    r = {seeded_result::outcome::falsified, failure.numSuccess, failure.description, ""};
    for (const auto& [what, value] : failure.counterExample) r.counterexample += value + "\n";
  } else if (result.match(success)) {
    r = {seeded_result::outcome::passed, success.numSuccess, "", ""};
  } else if (result.match(gave_up)) {
    r = {seeded_result::outcome::gave_up, gave_up.numSuccess, gave_up.description, ""};
  }
  return r;
}

/// Runs PROPERTY (a RapidCheck testable) for CASES cases from SEED.
template <typename Testable>
seeded_result seeded_check(const std::string& name, Testable&& property, int cases,
                           std::uint64_t seed) {
  load_rapidcheck_quietly();
  rc::detail::TestMetadata meta;
  // No id: RapidCheck's ReproduceListener then records nothing, and prints
  // no RC_PARAMS="reproduce=..." at exit (src/detail/ReproduceListener.cpp):
  // a property here runs again from its printed seed, not from RC_PARAMS.
  meta.id = "";
  meta.description = name;
  const auto result =
      rc::detail::checkTestable(std::forward<Testable>(property), meta, seeded_params(cases, seed));
  return seeded_result_of(result);
}

}  // namespace flushcheck
