// `flushcheck workload check` (docs/workload.md, "Checking a helper"): the
// seven drivers of targets/workload/ (C, C++, Python, Node, Go, Rust, Java)
// pass the kit; a driver that ignores its workload, one that logs each
// record twice and one that ignores `flush` fail it, each on what it does.
#include <gtest/gtest.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "cli_runner.hpp"
#include "workload_check.hpp"

namespace flushcheck {
namespace {

struct kit_driver {
  std::string name;
  std::vector<std::string> command;
  std::string needs;  ///< a path that must exist, and why it would not
};

void PrintTo(const kit_driver& d, std::ostream* os) { *os << d.name; }

const std::string runtimes = FLUSHCHECK_RUNTIMES_DIR;

const std::vector<kit_driver>& drivers() {
  static const std::vector<kit_driver> all = {
      {"c", {FLUSHCHECK_TARGET_STDIO_DRIVER}, ""},
      {"cpp", {FLUSHCHECK_TARGET_STDIO_DRIVER_CPP}, ""},
      {"python",
       {"/usr/bin/python3", FLUSHCHECK_WORKLOAD_DIR "/stdio_driver.py"},
       "/usr/bin/python3"},
      {"node", {"/usr/bin/node", FLUSHCHECK_WORKLOAD_DIR "/stdio_driver.js"}, "/usr/bin/node"},
      {"go", {runtimes + "/stdio_driver_go"}, runtimes + "/stdio_driver_go"},
      {"rust", {runtimes + "/stdio_driver_rs"}, runtimes + "/stdio_driver_rs"},
      {"java",
       {"/usr/bin/java", "--add-opens", "java.base/java.io=ALL-UNNAMED", "-cp",
        runtimes + "/java-workload", "StdioDriver"},
       runtimes + "/java-workload/StdioDriver.class"},
  };
  return all;
}

/// `flushcheck workload check --json` on COMMAND, its helpers on the paths.
cli_result check(const std::vector<std::string>& command) {
  std::vector<std::string> args = {"workload",
                                   "check",
                                   "--json",
                                   "--env",
                                   "PYTHONPATH=" + runtimes,
                                   "--env",
                                   "NODE_PATH=" + runtimes,
                                   "--"};
  args.insert(args.end(), command.begin(), command.end());
  return cli(args);
}

/// The failed workloads of a --json report, by name, with why.
std::map<std::string, std::string> failures(const cli_result& r) {
  std::map<std::string, std::string> out;
  const auto j = nlohmann::json::parse(r.out);
  for (const auto& x : j.at("results"))
    if (!x.at("pass").get<bool>()) out[x.at("name")] = x.at("why");
  return out;
}

class kit : public ::testing::TestWithParam<kit_driver> {};

TEST_P(kit, every_helper_speaks_the_protocol_as_the_reference) {
  const kit_driver& d = GetParam();
  if (!d.needs.empty() && ::access(d.needs.c_str(), F_OK) != 0)
    GTEST_SKIP() << d.needs
                 << " is not here (ci/setup installs python3, nodejs, golang-go, "
                    "rustc and default-jdk-headless; the build makes the drivers)";
  const auto r = check(d.command);
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j.at("passed"), kit_cases().size()) << r.out;
  for (const auto& [name, why] : failures(r)) ADD_FAILURE() << name << ": " << why;
}

INSTANTIATE_TEST_SUITE_P(helpers, kit, ::testing::ValuesIn(drivers()),
                         [](const auto& p) { return p.param.name; });

/// A Python driver, its body BODY, on the helper (flushcheck_workload.py).
std::vector<std::string> python_driver(const std::string& name, const std::string& body) {
  return {"/usr/bin/python3", file_with(name, "import sys\nimport flushcheck_workload\n" + body)};
}

// A driver that logs what it likes, whatever the workload says.
TEST(kit_catches, a_driver_that_ignores_its_workload) {
  const auto r = check(python_driver("ignores.py", R"(
for n in range(3):
    print("INFO rec %d" % n)
)"));
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  const auto f = failures(r);
  ASSERT_TRUE(f.contains("records")) << r.out;
  EXPECT_NE(f.at("records").find("records arrived as [0 1 2], the reference's [0 1 2 3 4 5 6]"),
            std::string::npos)
      << f.at("records");
  EXPECT_TRUE(f.contains("return")) << r.out;            // exits 0, not 7
  EXPECT_TRUE(f.contains("log_without_size")) << r.out;  // refuses nothing
}

// A driver whose library writes each record twice.
TEST(kit_catches, a_driver_that_logs_records_twice) {
  const auto r = check(python_driver("twice.py", R"(
def log(level, n, message):
    sys.stdout.write(level.upper() + " " + message + "\n")
    sys.stdout.write(level.upper() + " " + message + "\n")
flushcheck_workload.run(sys.argv[1:], log, sys.stdout.flush)
)"));
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  const auto f = failures(r);
  ASSERT_TRUE(f.contains("records")) << r.out;
  EXPECT_NE(f.at("records").find("records arrived as [0 0 1 1 2 2"), std::string::npos)
      << f.at("records");
  EXPECT_FALSE(f.contains("log_without_size")) << r.out;  // its refusals are the helper's
}

// A driver whose flush does nothing: on a pipe, Python holds what it wrote
// until its end, so at the marker after `flush` the reader has nothing.
TEST(kit_catches, a_driver_that_ignores_flush) {
  const auto r = check(python_driver("noflush.py", R"(
def log(level, n, message):
    sys.stdout.write(level.upper() + " " + message + "\n")
flushcheck_workload.run(sys.argv[1:], log, lambda: None)
)"));
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  const auto f = failures(r);
  ASSERT_TRUE(f.contains("flush")) << r.out;
  EXPECT_NE(f.at("flush").find("at marker 'flushed' its reader lacked record 0"), std::string::npos)
      << f.at("flush");
  EXPECT_FALSE(f.contains("records")) << r.out;  // at its end every record arrives
}

// The comparison itself, on views: a refusal of an op the language lacks
// passes only where the kit allows it, naming the op.
TEST(kit_difference, a_refusal_passes_only_for_an_op_the_language_may_lack) {
  protocol_view reference;
  reference.status = wait_status::signaled(SIGABRT);
  protocol_view refused;
  refused.status = wait_status::exited(64);
  refused.stderr_lines = {"d: bad workload: op 1 'abort': expects a native driver"};
  const auto& cases = kit_cases();
  const auto abort =
      std::find_if(cases.begin(), cases.end(), [](auto& c) { return c.name == "abort"; });
  const auto ret =
      std::find_if(cases.begin(), cases.end(), [](auto& c) { return c.name == "return"; });
  ASSERT_NE(abort, cases.end());
  ASSERT_NE(ret, cases.end());
  EXPECT_EQ(kit_difference(*abort, refused, reference), "");
  protocol_view elsewhere = refused;
  elsewhere.stderr_lines = {"d: bad workload: op 0 'log info 0': expects a native driver"};
  EXPECT_NE(kit_difference(*abort, elsewhere, reference), "");
  reference.status = wait_status::exited(7);
  EXPECT_EQ(kit_difference(*ret, refused, reference), "it exited 64, the reference exited 7");
  // `throw`: a refusal of another op is no uncaught exception, though it
  // ends with a status that is not 0; one that names `throw` is allowed.
  const auto thrown =
      std::find_if(cases.begin(), cases.end(), [](auto& c) { return c.name == "throw"; });
  ASSERT_NE(thrown, cases.end());
  protocol_view first_op = refused;
  first_op.stderr_lines = {"d: bad workload: op 0 'log info 0': unknown operation"};
  EXPECT_NE(kit_difference(*thrown, first_op, reference).find("it refused the workload"),
            std::string::npos);
  protocol_view names_throw = refused;
  names_throw.stderr_lines = {"d: bad workload: op 1 'throw': no exceptions in C"};
  EXPECT_EQ(kit_difference(*thrown, names_throw, reference), "");
  protocol_view uncaught;
  uncaught.status = wait_status::exited(1);
  EXPECT_EQ(kit_difference(*thrown, uncaught, reference), "");
}

}  // namespace
}  // namespace flushcheck
