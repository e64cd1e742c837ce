// `flushcheck model`: a time budget, --only, and a harness that cannot make
// its files (issue 54).
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "clean_environment.hpp"
#include "cli_checks.hpp"
#include "cli_runner.hpp"
#include "conformance.hpp"
#include "matrix_baseline.hpp"
#include "run.hpp"
#include "run_report.hpp"

namespace flushcheck {
namespace {

// ---- model: a time budget, --only, and a harness that cannot make its files (issue 54)

/// A targets' directory whose stdio_script answers --version as the real
/// one (so that the set probes as glibc's) and hangs on every script.
std::string hanging_targets() {
  const std::string dir = test_path("hanging-targets");
  std::filesystem::create_directories(dir);
  const std::string script = dir + "/stdio_script";
  std::ofstream(script) << "#!/bin/sh\nif [ \"$1\" = --version ]; then exec '"
                        << FLUSHCHECK_TARGET_STDIO_SCRIPT << "' --version; fi\nexec sleep 600\n";
  std::filesystem::permissions(script, std::filesystem::perms::owner_all);
  return dir;
}

// A target that hangs took 200 s with --cases 2: every shrink candidate
// waited its 20 s. --max-seconds bounds the search and each run in it, and a
// run the budget cut short is no verdict: never "falsified after 0 cases".
TEST(model_verb, max_seconds_stops_a_hanging_target_without_a_verdict) {
  const auto start = std::chrono::steady_clock::now();
  const auto r = cli({"model", "--cases", "2", "--seed", "1", "--only", "c_markers_and_endings",
                      "--max-seconds", "2", "--targets", hanging_targets()});
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(r.code, 6) << r.out << r.err;
  EXPECT_NE(r.out.find("default/c_markers_and_endings: stopped at --max-seconds after 0 cases, of "
                       "2: nothing checked (the case cut short: "),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("falsified"), std::string::npos) << r.out;
  EXPECT_LT(seconds, 15) << "the 2 s budget, and not a 20 s deadline per run";
}

TEST(model_verb, max_seconds_ends_a_long_search_with_the_cases_it_checked) {
  const auto r = cli({"model", "--cases", "1000000", "--seed", "3", "--only",
                      "c_markers_and_endings", "--max-seconds", "1"});
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_EQ(r.out.rfind("default/c_markers_and_endings: stopped at --max-seconds after ", 0), 0U)
      << r.out;
  EXPECT_NE(r.out.find(" cases, of 1000000; they agree with the model (seed 3, "),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("after 0 cases"), std::string::npos) << r.out;
}

TEST(model_verb, refuses_an_empty_only_and_a_bad_budget) {
  expect_one_line_error(cli({"model", "--only", ""}), 2, "--only='': not a model property (");
  const auto bad = cli({"model", "--max-seconds", "nan"});
  EXPECT_EQ(bad.code, 2) << bad.err;
}

// TMPDIR where nothing can be made (a path under a regular file, which even
// root cannot write; a directory that does not exist): every verb that makes
// a file of its own stops with exit 4 and one line; `model` once reported
// each property "falsified", mkostemp's error inside.
TEST(cli, a_harness_file_that_cannot_be_made_is_exit_4_never_a_verdict) {
  const std::string gate = file_with("true.toml",
                                     "[[case]]\nname = \"true\"\ncommand = [\"/bin/true\"]\n"
                                     "[[case.expect]]\nexit_code = 0\n");
  for (const std::string tmpdir : {"/etc/passwd/x", "/nonexistent-flushcheck-tmpdir"}) {
    auto env = clean_environment();
    env.push_back("TMPDIR=" + tmpdir);
    expect_one_line_error(cli({"run", "--stdout=file", "--", "/bin/true"}, env), 4, tmpdir);
    expect_one_line_error(cli({"gate", gate}, env), 4, tmpdir);
    const auto model =
        cli({"model", "--cases", "100", "--seed", "1", "--only", "c_write_cuts"}, env);
    expect_one_line_error(model, 4, tmpdir);
    EXPECT_EQ(model.out.find("falsified"), std::string::npos) << model.out;
  }
}

}  // namespace
}  // namespace flushcheck
