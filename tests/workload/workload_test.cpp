// The workload helpers (docs/workload.md) as a driver uses them: C's
// flushcheck/workload.h, Python's flushcheck_workload and Node's, each
// behind a driver whose library is the runtime's own stdout (targets/workload/).
// The same workloads give the same records, ends and refusals in all three.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <string>
#include <vector>

#include "clean_environment.hpp"
#include "gate.hpp"
#include "run.hpp"

namespace flushcheck {
namespace {

struct driver {
  std::string name;
  std::vector<std::string> command;  // the driver, before its workload
  bool threads = true;               // false: refuses `threads` (Node)
};

void PrintTo(const driver& d, std::ostream* os) { *os << d.name; }

const std::vector<driver>& drivers() {
  static const std::vector<driver> all = {
      {"c", {FLUSHCHECK_TARGET_STDIO_DRIVER}},
      {"python", {"/usr/bin/python3", FLUSHCHECK_WORKLOAD_DIR "/stdio_driver.py"}},
      {"node", {"/usr/bin/node", FLUSHCHECK_WORKLOAD_DIR "/stdio_driver.js"}, false}};
  return all;
}

class helper : public ::testing::TestWithParam<driver> {
 protected:
  void SetUp() override {
    const std::string& runtime = GetParam().command[0];
    if (runtime[0] == '/' && ::access(runtime.c_str(), X_OK) != 0)
      GTEST_SKIP() << runtime << " is not installed (ci/setup installs python3 and nodejs)";
  }
  /// A run of the driver with WORKLOAD, its helpers found where the build put them.
  run_options with(const std::string& workload) const {
    run_options o;
    o.argv = GetParam().command;
    o.argv.push_back(workload);
    o.env = clean_environment();
    o.env.push_back("PYTHONPATH=" FLUSHCHECK_RUNTIMES_DIR);
    o.env.push_back("NODE_PATH=" FLUSHCHECK_RUNTIMES_DIR);
    o.timeout = std::chrono::seconds(20);
    return o;
  }
};

TEST_P(helper, logs_numbered_padded_records_and_returns_the_status) {
  const auto obs =
      run(with("log info 3; log error 12\nflush;; log warn 0 ; log debug 7; return 7"));
  EXPECT_EQ(obs.status, wait_status::exited(7)) << obs.err.data;
  EXPECT_EQ(obs.out.data, "INFO rec 0\nERROR rec 1 xxxxxx\nWARN rec 2\nDEBUG rec 3 x\n");
  EXPECT_EQ(obs.err.data, "");
}

// At a marker the helper has done every op before it: the flushed record
// was visible, and a cut there leaves the later one unlogged.
TEST_P(helper, a_marker_stops_between_the_ops_around_it) {
  auto o = with("log info 5; flush; marker logged; log info 5; return 0");
  o.kill = kill_plan::at_marker(1, SIGKILL);
  const auto obs = run(o);
  EXPECT_EQ(obs.status, wait_status::signaled(SIGKILL));
  ASSERT_EQ(obs.markers.size(), 1u);
  EXPECT_EQ(obs.markers[0].label, "logged");
  EXPECT_EQ(obs.markers[0].stdout_visible, 11u);
  EXPECT_EQ(obs.out.data, "INFO rec 0\n");
}

TEST_P(helper, ends_as_the_workload_says) {
  EXPECT_EQ(run(with("log info 3; exit 4")).status, wait_status::exited(4));
  EXPECT_EQ(run(with("_exit 5")).status, wait_status::exited(5));
  for (const auto& [workload, sig] :
       {std::pair{"abort", SIGABRT}, {"log info 3; raise TERM", SIGTERM}}) {
    const auto st = run(with(workload)).status;  // (a core dump, or none: the machine's)
    EXPECT_EQ(st.type(), wait_status::kind::signaled) << workload << ": " << st.describe();
    EXPECT_EQ(st.signal(), sig) << workload << ": " << st.describe();
  }
  EXPECT_EQ(run(with("log info 3")).status, wait_status::exited(0)) << "no end: returns 0";
}

TEST_P(helper, threads_log_each_record_once) {
  std::string workload = "log info 3; threads 4";
  for (int i = 0; i < 40; ++i) workload += "; log info 9; flush";
  const auto obs = run(with(workload + "; return 0"));
  if (!GetParam().threads) {
    EXPECT_EQ(obs.status, wait_status::exited(64));
    return;
  }
  EXPECT_EQ(obs.status, wait_status::exited(0)) << obs.err.data;
  EXPECT_TRUE(records_each_once(obs.out.data, 41)) << records_each_once(obs.out.data, 41);
  EXPECT_TRUE(no_torn_record(obs.out.data, R"(INFO rec (0|\d x{3}|\d\d x{2}))")) << obs.out.data;
}

// Each helper refuses the same workloads with the same line after its
// name, before anything runs.
TEST_P(helper, refuses_a_bad_workload_in_one_line_with_64) {
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"log loud 3", "op 0 'log loud 3': expects a level: debug, info, warn or error"},
      {"log info",
       "op 0 'log info': expects a level (debug, info, warn, error) and a size in "
       "bytes"},
      {"log info 3; log info 2000000",
       "op 1 'log info 2000000': expects a size in bytes, at "
       "most 1048576"},
      {"flush 3", "op 0 'flush 3': takes no argument"},
      {"sleep -1", "op 0 'sleep -1': expects a number in range"},
      {"exit 256", "op 0 'exit 256': expects a number in range"},
      {"exit 3; flush", "op 1 'flush': comes after the workload's end"},
      {"raise NOPE", "op 0 'raise NOPE': expects a signal name or number"},
      {"frob", "op 0 'frob': unknown operation"},
      {"marker " + std::string(64, 'm'),
       "op 0 'marker " + std::string(64, 'm') + "': expects a label under 64 bytes"},
  };
  for (const auto& [workload, why] : bad) {
    const auto obs = run(with("log info 1; " + workload));
    EXPECT_EQ(obs.status, wait_status::exited(64)) << workload;
    EXPECT_EQ(obs.out.data, "") << workload;
    const std::string line = obs.err.data.substr(obs.err.data.find(": ") + 2);
    std::string shifted = why;  // "log info 1" is op 0
    shifted[3] = static_cast<char>(shifted[3] + 1);
    EXPECT_EQ(line, "bad workload: " + shifted + "\n") << workload;
  }
}

INSTANTIATE_TEST_SUITE_P(drivers, helper, ::testing::ValuesIn(drivers()),
                         [](const auto& p) { return p.param.name; });

}  // namespace
}  // namespace flushcheck
