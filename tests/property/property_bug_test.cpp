// The model-based properties can fail: stdio_script built with one injected
// bug each (buffering, or errors left unreported) is run through the same properties, which must
// find the bug, shrink it to a script of at most 3 ops, and print a `flushcheck run` line that
// reproduces the failing run.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>

#include "cli_runner.hpp"
#include "model_property.hpp"
#include "run.hpp"

namespace flushcheck {
namespace {

struct bug {
  const char* name;
  const char* stdio_script;
  cut_family family;
  bool faults = false;  ///< the faulted property (c_faults) must find it
};

void PrintTo(const bug& b, std::ostream* os) { *os << b.name; }

class injected_bug : public ::testing::TestWithParam<bug> {};

TEST_P(injected_bug, is_found_shrunk_and_reproduced) {
  const bug& b = GetParam();
  const target_set bugged = probe_target_set(b.name, b.stdio_script, "");
  constexpr std::uint64_t seed = 20261130;  // fixed: the test is the same every run
  const model_property p{b.name, lang::c, b.family, b.faults};
  const auto r = check_against_model(p, bugged, 300, seed, "this test, unchanged");
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
  const observation shown = pasted(repro, run_options{}.timeout);
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
                          cut_family::markers_and_endings},
                      bug{"double_byte", FLUSHCHECK_TARGET_STDIO_SCRIPT_BUG_DOUBLE_BYTE,
                          cut_family::markers_and_endings},
                      bug{"buffer_plus_one", FLUSHCHECK_TARGET_STDIO_SCRIPT_BUG_BUFFER_PLUS_ONE,
                          cut_family::writes},
                      bug{"silent_errors", FLUSHCHECK_TARGET_STDIO_SCRIPT_BUG_SILENT_ERRORS,
                          cut_family::writes, true}),
    [](const ::testing::TestParamInfo<bug>& p) { return std::string(p.param.name); });

/// A targets' directory whose stdio_script carries a bug.
std::string bugged_dir(const char* script) {
  const std::string dir = test_path("targets");
  std::filesystem::create_directories(dir);
  std::filesystem::copy_file(script, dir + "/stdio_script");
  return dir;
}

// The verb finds the bug as the property test does, prints the seed, and
// the command it prints runs the falsified property again, with the same result.
TEST(model_verb, falsifies_a_bugged_set_and_prints_the_command_again) {
  const std::string dir = bugged_dir(FLUSHCHECK_TARGET_STDIO_SCRIPT_BUG_BUFFER_PLUS_ONE);
  const auto r = cli({"model", "--cases", "300", "--seed", "20261130", "--only", "c_write_cuts",
                      "--targets", dir});
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("default/c_write_cuts: falsified after "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("seed 20261130"), std::string::npos) << r.out;
  const auto at = r.out.find("run the property again: ");
  ASSERT_NE(at, std::string::npos) << r.out;
  const std::string again = r.out.substr(at + 24, r.out.find('\n', at) - at - 24);
  EXPECT_NE(again.find(" model --cases 300 --seed 20261130 --only c_write_cuts --set default "
                       "--targets "),
            std::string::npos)
      << again;
  const observation rerun = pasted(again, std::chrono::seconds(110));
  EXPECT_EQ(rerun.status, wait_status::exited(1)) << again << "\n" << rerun.err.data;
  EXPECT_NE(rerun.out.data.find("falsified after "), std::string::npos) << rerun.out.data;
}

TEST(model_verb, holds_on_the_default_set_and_refuses_what_it_does_not_know) {
  const auto ok = cli({"model", "--cases", "10", "--seed", "3", "--only", "c_markers_and_endings"});
  EXPECT_EQ(ok.code, 0) << ok.out << ok.err;
  EXPECT_EQ(
      ok.out.rfind("default/c_markers_and_endings: 10 cases agree with the model (seed 3, ", 0), 0U)
      << ok.out;
  EXPECT_EQ(ok.err, "");  // RapidCheck's own "Using configuration" line is kept off stderr
  const auto bad = cli({"model", "--only", "c_everything"});
  EXPECT_EQ(bad.code, 2);
  EXPECT_EQ(bad.err.rfind("flushcheck: --only=c_everything: not a model property (", 0), 0U)
      << bad.err;
  const auto none = cli({"model", "--set", "no-such-set"});
  EXPECT_EQ(none.code, 2);
  EXPECT_NE(none.err.find("--set=no-such-set: no such toolchain set in "), std::string::npos)
      << none.err;
}

}  // namespace
}  // namespace flushcheck
