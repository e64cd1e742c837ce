// Model-based properties (ctest label `property`): generated scripts run on
// real sinks, cut at markers, at write calls and by their own endings, and
// each run is checked against the reference model (docs/model.md).
// FLUSHCHECK_PROPERTY_CASES sets the cases per property (default 100; the
// `slow` registration runs 10,000), FLUSHCHECK_PROPERTY_SEED the seed.
#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>
#include <random>

#include "conformance.hpp"
#include "model_gen.hpp"
#include "test_targets.hpp"

namespace flushcheck {
namespace {

using testing::cut_family;

int cases() {
  const char* v = std::getenv("FLUSHCHECK_PROPERTY_CASES");
  return v != nullptr ? std::atoi(v) : 100;
}

std::uint64_t seed() {
  if (const char* v = std::getenv("FLUSHCHECK_PROPERTY_SEED")) return std::strtoull(v, nullptr, 10);
  return std::random_device{}();
}

void check(const char* name, lang l, cut_family family, bool faults = false) {
  if (l == lang::cxx && test_target_set().iostream_script.empty())
    GTEST_SKIP() << test_target_set().name << " has no C++ target";
  const auto s = seed();
  std::cout << name << ": " << cases() << " cases, seed " << s << ", profile "
            << test_target_set().profile.version << std::endl;
  const auto r =
      testing::check_against_model(name, test_target_set(), l, family, cases(), s, faults);
  std::cout << r.message << std::endl;
  for (const auto& f : r.flaky) ADD_FAILURE() << "flaky case (seed " << s << "): " << f;
  EXPECT_TRUE(r.passed) << r.message;
}

TEST(model_property, c_markers_and_endings) {
  check("c_markers_and_endings", lang::c, cut_family::markers_and_endings);
}
TEST(model_property, c_write_cuts) { check("c_write_cuts", lang::c, cut_family::writes); }
TEST(model_property, cxx_markers_and_endings) {
  check("cxx_markers_and_endings", lang::cxx, cut_family::markers_and_endings);
}
TEST(model_property, cxx_write_cuts) { check("cxx_write_cuts", lang::cxx, cut_family::writes); }
// Faulted runs: --fault plans (errnos, short writes) and cuts of both families.
TEST(model_property, c_faults) { check("c_faults", lang::c, cut_family::writes, true); }
TEST(model_property, cxx_faults) { check("cxx_faults", lang::cxx, cut_family::writes, true); }

}  // namespace
}  // namespace flushcheck
