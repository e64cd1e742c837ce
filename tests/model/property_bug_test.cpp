// The model-based properties can fail: stdio_script built with one injected
// bug each (buffering, or errors left unreported) is run through the same properties, which must
// find the bug, shrink it to a script of at most 3 ops, and print a `flushcheck run` line that
// reproduces the failing run.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "model_gen.hpp"
#include "run.hpp"

namespace flushcheck {
namespace {

struct bug {
  const char* name;
  const char* stdio_script;
  testing::cut_family family;
  bool faults = false;  ///< the faulted property (c_faults) must find it
};

void PrintTo(const bug& b, std::ostream* os) { *os << b.name; }

class injected_bug : public ::testing::TestWithParam<bug> {};

TEST_P(injected_bug, is_found_shrunk_and_reproduced) {
  const bug& b = GetParam();
  const target_set bugged = probe_target_set(b.name, b.stdio_script, "");
  constexpr std::uint64_t seed = 20261130;  // fixed: the test is the same every run
  const auto r =
      testing::check_against_model(b.name, bugged, lang::c, b.family, 300, seed, b.faults);
  std::cout << r.message << std::endl;
  ASSERT_FALSE(r.passed) << b.name << ": 300 cases did not find the injected bug";
  ASSERT_TRUE(r.counterexample && r.outcome);
  const auto& shrunk = r.counterexample->ops;
  EXPECT_LE(shrunk.ops.size(), 3u) << "shrunk to: " << shrunk.text();
  EXPECT_NE(r.message.find("seed " + std::to_string(seed)), std::string::npos);
  EXPECT_NE(r.message.find("MUST"), std::string::npos) << r.message;

  // The printed line, run as a user would (with --json), shows the same run.
  std::string repro = r.outcome->v.repro;
  const std::string verb = " flushcheck run ";
  const auto at = repro.find(verb);
  ASSERT_NE(at, std::string::npos) << repro;
  repro.replace(at, verb.size(), std::string(" ") + FLUSHCHECK_TARGET_FLUSHCHECK + " run --json ");
  run_options o;
  o.argv = {"/bin/sh", "-c", repro};
  o.env = clean_environment();
  const observation shown = run(o);
  ASSERT_EQ(shown.status, wait_status::exited(0)) << repro << "\n" << shown.err.data;
  const auto j = nlohmann::json::parse(shown.out.data);
  EXPECT_EQ(j["stdout"]["data"], r.outcome->first.out.data) << repro;
  if (r.counterexample->setup.stderr_sink) {  // else stderr is in stdout's data
    EXPECT_EQ(j["stderr"]["data"], r.outcome->first.err.data) << repro;
  }
  EXPECT_EQ(j["exit"]["status"], r.outcome->first.status.type_name()) << repro;
}

INSTANTIATE_TEST_SUITE_P(
    stdio_script, injected_bug,
    ::testing::Values(bug{"no_fflush", FLUSHCHECK_TARGET_STDIO_SCRIPT_BUG_NO_FFLUSH,
                          testing::cut_family::markers_and_endings},
                      bug{"double_byte", FLUSHCHECK_TARGET_STDIO_SCRIPT_BUG_DOUBLE_BYTE,
                          testing::cut_family::markers_and_endings},
                      bug{"buffer_plus_one", FLUSHCHECK_TARGET_STDIO_SCRIPT_BUG_BUFFER_PLUS_ONE,
                          testing::cut_family::writes},
                      bug{"silent_errors", FLUSHCHECK_TARGET_STDIO_SCRIPT_BUG_SILENT_ERRORS,
                          testing::cut_family::writes, true}),
    [](const ::testing::TestParamInfo<bug>& p) { return std::string(p.param.name); });

}  // namespace
}  // namespace flushcheck
