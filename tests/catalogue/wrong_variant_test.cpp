// The properties must be able to fail: each target variant carries one
// injected buffering bug, and the property that claims the broken behaviour
// must report FAIL on it (and pass on the correct target).
#include <gtest/gtest.h>

#include "conformance.hpp"

namespace flushcheck {
namespace {

const property& find(const std::string& name) {
  for (const auto& p : catalogue())
    if (p.name == name) return p;
  throw std::runtime_error("no property " + name);
}

struct bug_case {
  const char* variant;
  const char* path;
  lang language;
  const char* property;
  sink_kind sink;
};

void PrintTo(const bug_case& b, std::ostream* os) { *os << b.variant << " -> " << b.property; }

class wrong_variant : public ::testing::TestWithParam<bug_case> {};

TEST_P(wrong_variant, property_catches_the_bug) {
  const bug_case& b = GetParam();
  const std::string name = b.property;  // not a temporary: GCC 14's -Wdangling-reference
  const property& p = find(name);
  target_set good = probe_target_set("default", FLUSHCHECK_TARGET_STDIO_SCRIPT,
                                     FLUSHCHECK_TARGET_IOSTREAM_SCRIPT);
  target_set bad = good;
  bad.name = b.variant;
  (b.language == lang::c ? bad.stdio_script : bad.iostream_script) = b.path;
  property_case c{&p, b.language, b.sink};
  case_result on_good = run_case(c, good);
  case_result on_bad = run_case(c, bad);
  ASSERT_TRUE(on_good.asserted);
  EXPECT_TRUE(on_good.outcome.pass) << on_good.outcome.explanation;
  EXPECT_FALSE(on_bad.outcome.pass)
      << b.property << " did not notice " << b.variant << ": " << on_bad.outcome.observed;
}

INSTANTIATE_TEST_SUITE_P(
    bugs, wrong_variant,
    ::testing::Values(bug_case{"no_fflush", FLUSHCHECK_TARGET_STDIO_SCRIPT_BUG_NO_FFLUSH, lang::c,
                               "fflush.delivers", sink_kind::pipe},
                      bug_case{"no_fflush_then_kill", FLUSHCHECK_TARGET_STDIO_SCRIPT_BUG_NO_FFLUSH,
                               lang::c, "file.written_bytes_survive_writer_death", sink_kind::file},
                      bug_case{"linebuf_stdout", FLUSHCHECK_TARGET_STDIO_SCRIPT_BUG_LINEBUF_STDOUT,
                               lang::c, "stdout.mode_by_destination", sink_kind::file},
                      bug_case{"exit_no_flush", FLUSHCHECK_TARGET_STDIO_SCRIPT_BUG_EXIT_NO_FLUSH,
                               lang::c, "death.exit_flushes", sink_kind::pipe},
                      bug_case{"endl_no_flush", FLUSHCHECK_TARGET_IOSTREAM_SCRIPT_BUG_ENDL_NO_FLUSH,
                               lang::cxx, "iostream.endl_flushes", sink_kind::pipe},
                      bug_case{"cerr_untied", FLUSHCHECK_TARGET_IOSTREAM_SCRIPT_BUG_CERR_UNTIED,
                               lang::cxx, "tie.cerr_flushes_cout", sink_kind::file}),
    [](const ::testing::TestParamInfo<bug_case>& p) { return std::string(p.param.variant); });

}  // namespace
}  // namespace flushcheck
