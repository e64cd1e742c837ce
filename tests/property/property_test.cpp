// Model-based properties (ctest label `property`): generated scripts run on
// real sinks, cut at markers, at write calls and by their own endings, and
// each run is checked against the reference model (docs/model.md).
// FLUSHCHECK_PROPERTY_CASES sets the cases per property (default 100; the
// `slow` registration runs 10,000), FLUSHCHECK_PROPERTY_SEED the seed.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <random>

#include "conformance.hpp"
#include "model_property.hpp"
#include "test_targets.hpp"

namespace flushcheck {
namespace {

int cases() {
  const char* v = std::getenv("FLUSHCHECK_PROPERTY_CASES");
  return v != nullptr ? std::atoi(v) : 100;
}

std::uint64_t seed() {
  if (const char* v = std::getenv("FLUSHCHECK_PROPERTY_SEED")) return std::strtoull(v, nullptr, 10);
  return std::random_device{}();
}

/// The property NAME of model_properties(), on this test's toolchain set.
void check(const std::string& name) {
  const model_property* p = nullptr;
  for (const auto& q : model_properties()) p = q.name == name ? &q : p;
  ASSERT_NE(p, nullptr) << name;
  if (p->language == lang::cxx && test_target_set().iostream_script.empty())
    GTEST_SKIP() << test_target_set().name << " has no C++ target";
  const auto s = seed();
  std::cout << name << ": " << cases() << " cases, seed " << s << ", profile "
            << test_target_set().profile.version << std::endl;
  const std::string again = "FLUSHCHECK_PROPERTY_SEED=" + std::to_string(s) +
                            " FLUSHCHECK_PROPERTY_CASES=" + std::to_string(cases()) +
                            " <test binary> --gtest_filter='*" + name + "*'";
  const auto r = check_against_model(*p, test_target_set(), cases(), s, again);
  std::cout << r.message << std::endl;
  for (const auto& f : r.flaky) ADD_FAILURE() << "flaky case (seed " << s << "): " << f;
  EXPECT_TRUE(r.passed) << r.message;
}

TEST(model_property, c_markers_and_endings) { check("c_markers_and_endings"); }
TEST(model_property, c_write_cuts) { check("c_write_cuts"); }
TEST(model_property, cxx_markers_and_endings) { check("cxx_markers_and_endings"); }
TEST(model_property, cxx_write_cuts) { check("cxx_write_cuts"); }
TEST(model_property, c_faults) { check("c_faults"); }
TEST(model_property, cxx_faults) { check("cxx_faults"); }

}  // namespace
}  // namespace flushcheck
