// The runtimes' interpreters of the script language (targets/runtimes/):
// every case of the catalogue's runtime rows on this machine, and each
// interpreter's own contract (byte attribution, refusals, reported errors).
// A runtime that is not installed skips, naming its Debian package.
#include <gtest/gtest.h>

#include <string>

#include "conformance.hpp"
#include "run.hpp"
#include "test_targets.hpp"

namespace flushcheck {

namespace {

std::string targets_dir() {
  std::string c = FLUSHCHECK_TARGET_STDIO_SCRIPT;
  return c.substr(0, c.rfind('/'));
}

/// This machine's runtimes, and no C or C++ target: only runtime rows.
const target_set& runtime_set() {
  static const target_set set = [] {
    target_set s = test_target_set();
    s.stdio_script = s.iostream_script = "";
    s.runtimes = discover_runtimes(targets_dir(), false);  // no JVM start-up per test process
    return s;
  }();
  return set;
}

class runtime_catalogue : public ::testing::TestWithParam<property_case> {};

TEST_P(runtime_catalogue, holds) {
  const property_case& c = GetParam();
  case_result r = run_case(c, runtime_set());
  if (r.outcome.skipped) GTEST_SKIP() << "cannot be checked here: " << *r.outcome.skipped;
  if (!r.asserted) {
    // Recorded, not asserted; but the run must have got to its cut.
    if (!r.outcome.pass) FAIL() << r.outcome.observed << "\nreproduce: " << r.outcome.repro;
    GTEST_SKIP() << to_string(c.prop->level) << " tier, recorded: " << r.outcome.observed
                 << "\nreproduce: " << r.outcome.repro;
  }
  EXPECT_TRUE(r.outcome.pass) << c.prop->claim << " [" << c.prop->source << "]\n"
                              << r.outcome.explanation << "\nreproduce: " << r.outcome.repro;
}

INSTANTIATE_TEST_SUITE_P(runtimes, runtime_catalogue, ::testing::ValuesIn(cases(runtime_set())),
                         case_name);

/// One interpreter, run directly (no catalogue).
class interpreter : public ::testing::TestWithParam<lang> {
 protected:
  void SetUp() override {
    rt_ = runtime_set().runtime(GetParam());
    ASSERT_NE(rt_, nullptr);
    if (!rt_->missing.empty()) GTEST_SKIP() << rt_->missing;
  }
  observation run_script(const std::string& script, sink_kind out = sink_kind::pipe) {
    run_options o;
    o.argv = rt_->command(script);
    o.env = clean_environment();
    o.stdout_sink = out;
    o.timeout = std::chrono::milliseconds(20000);
    return run(o);
  }
  const runtime_target* rt_ = nullptr;
};

TEST_P(interpreter, says_its_version) {
  runtime_target t = *rt_;
  const std::string version = probe_version(t);
  EXPECT_EQ(t.missing, "");
  EXPECT_EQ(version.rfind(to_string(GetParam()) + std::string(" "), 0), 0u) << version;
}

TEST_P(interpreter, each_op_writes_its_own_letter) {
  auto obs = run_script("line 3; write 2 err; line 1; write 4");
  EXPECT_EQ(obs.status, wait_status::exited(0)) << obs.err.data;
  EXPECT_EQ(obs.out.data, "AAA\nC\nDDDD");
  EXPECT_EQ(obs.err.data, "BB");
}

TEST_P(interpreter, refuses_a_bad_script_before_running_it) {
  for (const char* bad : {"line 3; wrte 2", "line x", "line 3; write 2 nowhere", "exit 1 2"}) {
    auto obs = run_script(bad);
    EXPECT_EQ(obs.status, wait_status::exited(64)) << bad;
    EXPECT_EQ(obs.out.data, "") << bad;
    EXPECT_NE(obs.err.data.find("bad script: op "), std::string::npos)
        << bad << ": " << obs.err.data;
    EXPECT_EQ(obs.err.data.find('\n'), obs.err.data.size() - 1) << "one line: " << obs.err.data;
  }
}

TEST_P(interpreter, reports_a_failed_write_and_exits_1) {
  auto obs = run_script("line 3; flush; line 2; flush", sink_kind::full);
  EXPECT_EQ(obs.status, wait_status::exited(1)) << obs.err.data;
  EXPECT_NE(obs.err.data.find(": op "), std::string::npos) << obs.err.data;
  EXPECT_EQ(obs.err.data.find("Traceback"), std::string::npos) << obs.err.data;
  EXPECT_EQ(obs.err.data.find("panicked"), std::string::npos) << obs.err.data;
}

std::string lang_name(const ::testing::TestParamInfo<lang>& info) { return to_string(info.param); }

INSTANTIATE_TEST_SUITE_P(runtimes, interpreter,
                         ::testing::Values(lang::python, lang::node, lang::perl, lang::ruby,
                                           lang::java, lang::go, lang::rust),
                         lang_name);

}  // namespace
}  // namespace flushcheck
