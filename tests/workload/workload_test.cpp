// The workload helpers (docs/workload.md) as a driver uses them: C's
// flushcheck/workload.h (compiled as C and as C++), Python's
// flushcheck_workload, Node's, Go's package, Rust's crate and Java's class,
// each behind a driver whose library is the runtime's own stdout
// (targets/workload/). The same workloads give the same
// records, ends and refusals in all of them; `throw` is each language's own.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <string>
#include <utility>
#include <vector>

#include "clean_environment.hpp"
#include "gate.hpp"
#include "run.hpp"

namespace flushcheck {
namespace {

/// What `throw` does in a driver's language.
struct throw_end {
  enum class how { refused, signaled, exited };
  how end = how::refused;
  int value = 64;         ///< the signal, or the exit status
  bool flushed = false;   ///< the language's end ran: stdout's buffer was written
  std::string says = "";  ///< on stderr
};

struct driver {
  std::string name;
  std::vector<std::string> command;  // the driver, before its workload
  std::string needs;                 // a path that must be there, or ""
  bool threads = true;               // false: refuses `threads` (Node)
  bool signals = true;               // false: refuses `abort` and `raise` (Java)
  throw_end throws;
};

void PrintTo(const driver& d, std::ostream* os) { *os << d.name; }

const std::string runtimes = FLUSHCHECK_RUNTIMES_DIR;

const driver& node_driver() {
  static const driver node{"node",
                           {"/usr/bin/node", FLUSHCHECK_WORKLOAD_DIR "/stdio_driver.js"},
                           "/usr/bin/node",
                           false,
                           true,
                           {throw_end::how::exited, 1, false, "Error: flushcheck workload: throw"}};
  return node;
}

// C refuses `throw`; C++ reaches std::terminate; Python, Go, Rust and Java
// end as their language does after an uncaught exception, a panic: their
// stdout's buffer written (an interpreter's end, a deferred call, a drop, a
// shutdown hook), exit 1, 2, 101 and 1.
const std::vector<driver>& drivers() {
  using how = throw_end::how;
  static const std::vector<driver> all = {
      {"c", {FLUSHCHECK_TARGET_STDIO_DRIVER}, "", true, true, {}},
      {"cpp",
       {FLUSHCHECK_TARGET_STDIO_DRIVER_CPP},
       "",
       true,
       true,
       {how::signaled, SIGABRT, false, "flushcheck workload: throw"}},
      {"python",
       {"/usr/bin/python3", FLUSHCHECK_WORKLOAD_DIR "/stdio_driver.py"},
       "/usr/bin/python3",
       true,
       true,
       {how::exited, 1, true, "RuntimeError: flushcheck workload: throw"}},
      node_driver(),
      {"go",
       {runtimes + "/stdio_driver_go"},
       runtimes + "/stdio_driver_go",
       true,
       true,
       {how::exited, 2, true, "panic: flushcheck workload: throw"}},
      {"rust",
       {runtimes + "/stdio_driver_rs"},
       runtimes + "/stdio_driver_rs",
       true,
       true,
       {how::exited, 101, true, "flushcheck workload: throw"}},
      {"java",
       {"/usr/bin/java", "--add-opens", "java.base/java.io=ALL-UNNAMED", "-cp",
        runtimes + "/java-workload", "StdioDriver"},
       runtimes + "/java-workload/StdioDriver.class",
       true,
       false,
       {how::exited, 1, true, "RuntimeException: flushcheck workload: throw"}},
  };
  return all;
}

/// Why driver D cannot run here (its runtime is not installed, or its
/// driver not built), or "".
std::string missing_runtime(const driver& d) {
  if (!d.needs.empty() && ::access(d.needs.c_str(), F_OK) != 0)
    return d.needs +
           " is not here (ci/setup installs python3, nodejs, golang-go, rustc and "
           "default-jdk-headless; the build makes the drivers)";
  return "";
}

/// A run of driver D with the workload PARTS spell (its arguments, which
/// the helper joins with ';'), its helpers found where the build put them.
run_options options_for(const driver& d, const std::vector<std::string>& parts) {
  run_options o;
  o.argv = d.command;
  o.argv.insert(o.argv.end(), parts.begin(), parts.end());
  o.env = clean_environment();
  o.env.push_back("PYTHONPATH=" FLUSHCHECK_RUNTIMES_DIR);
  o.env.push_back("NODE_PATH=" FLUSHCHECK_RUNTIMES_DIR);
  o.timeout = std::chrono::seconds(20);
  return o;
}

/// The line on stderr after the driver's name: "bad workload: op ...".
std::string after_name(const std::string& err) { return err.substr(err.find(": ") + 2); }

/// COUNT `log info 0` ops as arguments of 1000 ops each (Linux takes an
/// argument of 128 KiB at most, MAX_ARG_STRLEN), which the helper joins.
std::vector<std::string> log_ops(long count) {
  std::vector<std::string> parts;
  for (long first = 0; first < count; first += 1000) {
    std::string part = "log info 0";
    for (long i = first + 1; i < std::min(count, first + 1000); ++i) part += ";log info 0";
    parts.push_back(std::move(part));
  }
  return parts;
}

class helper : public ::testing::TestWithParam<driver> {
 protected:
  void SetUp() override {
    if (const std::string why = missing_runtime(GetParam()); !why.empty()) GTEST_SKIP() << why;
  }
  /// A run of the driver with WORKLOAD.
  run_options with(const std::string& workload) const {
    return options_for(GetParam(), {workload});
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
    if (!GetParam().signals) {                   // Java: no abort, no signal of its own
      EXPECT_EQ(st, wait_status::exited(64)) << workload << ": " << st.describe();
      continue;
    }
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
  EXPECT_TRUE(each_once(obs.out.data, 41)) << each_once(obs.out.data, 41);
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
      // an op's own fault before its place: every helper parses it first
      {"exit 3; frob", "op 1 'frob': unknown operation"},
      // more digits than Python's int() takes (4,300): counted, not converted
      {"sleep " + std::string(5000, '9'),
       "op 0 'sleep " + std::string(73, '9') + "': expects a number in range"},
      {"log info " + std::string(5000, '9'),
       "op 0 'log info " + std::string(70, '9') + "': expects a size in bytes, at most 1048576"},
  };
  for (const auto& [workload, why] : bad) {
    const auto obs = run(with("log info 1; " + workload));
    EXPECT_EQ(obs.status, wait_status::exited(64)) << workload;
    EXPECT_EQ(obs.out.data, "") << workload;
    const std::string line = after_name(obs.err.data);
    std::string shifted = why;  // "log info 1" is op 0
    shifted[3] = static_cast<char>(shifted[3] + 1);
    EXPECT_EQ(line, "bad workload: " + shifted + "\n") << workload;
  }
}

// A number is its digits, however many (leading zeros too): C and Node read
// 5,000 of them, and so must Python, whose int() refuses more than 4,300.
TEST_P(helper, reads_a_number_of_any_length) {
  const std::string zeros(5000, '0');
  const auto obs = run(with("log info " + zeros + "12; return " + zeros + "3"));
  EXPECT_EQ(obs.status, wait_status::exited(3)) << obs.err.data;
  EXPECT_EQ(obs.out.data, "INFO rec 0 xxxxxx\n");
  EXPECT_EQ(obs.err.data, "");
}

// A signal whose default action stops the program would stop the driver
// for good (its run could only time out): each is refused, by name with or
// without SIG and by this system's number.
TEST_P(helper, refuses_a_signal_that_stops_the_program) {
  std::vector<std::string> signals = {"STOP", "SIGTSTP", "TTIN", "SIGTTOU"};
  for (const int sig : {SIGSTOP, SIGTSTP, SIGTTIN, SIGTTOU}) signals.push_back(std::to_string(sig));
  for (const auto& sig : signals) {
    auto o = with("log info 1; raise " + sig);
    o.timeout = std::chrono::seconds(5);  // a refusal comes at once; a stopped driver never ends
    const auto obs = run(o);
    EXPECT_EQ(obs.status, wait_status::exited(64)) << sig << ": " << obs.status.describe();
    EXPECT_EQ(obs.out.data, "") << sig;
    EXPECT_EQ(after_name(obs.err.data),
              "bad workload: op 1 'raise " + sig +
                  "': expects a signal that ends or is ignored, not one that stops the program "
                  "(STOP, TSTP, TTIN, TTOU)\n")
        << sig;
  }
}

// Each helper parses in linear time: the most ops a workload may have
// (100,000) run within the usual deadline, where a helper that went over
// the ops before each one took minutes; and one more op is refused, as
// promptly, before anything runs. (No timing is asserted: the run must end
// by itself.)
TEST_P(helper, runs_the_most_ops_and_refuses_one_more) {
  const auto most = run(options_for(GetParam(), log_ops(100000)));
  ASSERT_EQ(most.status, wait_status::exited(0)) << most.status.describe() << "\n"
                                                 << most.err.data.substr(0, 500);
  EXPECT_TRUE(records_through(most.out.data, 99999)) << records_through(most.out.data, 99999);
  EXPECT_EQ(record_numbers(most.out.data).size(), 100000u);
  const auto over = run(options_for(GetParam(), log_ops(100001)));
  EXPECT_EQ(over.status, wait_status::exited(64)) << over.status.describe();
  EXPECT_EQ(over.out.data, "");
  EXPECT_EQ(after_name(over.err.data),
            "bad workload: op 100000 'log info 0': more than 100000 ops\n");
}

// `throw` is an exception nobody catches, in the helper's own language. C
// has none and refuses it. In C++ it reaches std::terminate: SIGABRT. In
// Python the traceback, then the interpreter's end (atexit handlers, stdout
// flushed) and exit 1. In Node exit 1, "Uncaught Fatal Exception"
// (doc/api/process.md, "Exit codes"), whether thrown at the top level or
// from a callback; with unhandled rejections set to only warn, that exit 1
// is no promise rejection. In Go a panic: deferred calls run, exit 2; in
// Rust a panic that unwinds main, exit 101; in Java an exception out of
// main, the shutdown hooks run, exit 1.
TEST_P(helper, throw_is_an_uncaught_exception_of_its_language) {
  const throw_end& t = GetParam().throws;
  for (const char* workload :
       {"log info 0; throw", "log info 0; sleep 0; throw", "log info 0; flush; throw"}) {
    auto o = with(workload);
    o.env.push_back("NODE_OPTIONS=--unhandled-rejections=warn");
    const auto obs = run(o);
    const wait_status& st = obs.status;
    if (t.end == throw_end::how::refused) {
      EXPECT_EQ(st, wait_status::exited(64)) << workload << ": " << st.describe();
      EXPECT_EQ(obs.out.data, "") << workload;
      EXPECT_NE(obs.err.data.find("'throw': expects a C++ driver: C has no exceptions\n"),
                std::string::npos)
          << workload << ": " << obs.err.data;
      continue;
    }
    if (t.end == throw_end::how::signaled) {  // (a core dump, or none: the machine's)
      EXPECT_EQ(st.type(), wait_status::kind::signaled) << workload << ": " << st.describe();
      EXPECT_EQ(st.signal(), t.value) << workload << ": " << st.describe();
    } else {
      EXPECT_EQ(st, wait_status::exited(t.value)) << workload << ": " << st.describe();
    }
    if (t.flushed) {
      EXPECT_EQ(obs.out.data, "INFO rec 0\n") << workload;
    }
    EXPECT_NE(obs.err.data.find(t.says), std::string::npos) << workload << ": " << obs.err.data;
  }
}

INSTANTIATE_TEST_SUITE_P(drivers, helper, ::testing::ValuesIn(drivers()),
                         [](const auto& p) { return p.param.name; });

// Node runs a workload synchronously until an op must wait: a `throw`
// before any wait is thrown out of run() to the driver's top level (the
// stack names the driver's line that calls run()); after a `sleep`, or a
// `flush` whose promise is awaited, from a callback (the driver is not on
// the stack).
TEST(node_helper, throws_at_the_top_level_until_the_workload_waits) {
  const driver& node = node_driver();
  if (const std::string why = missing_runtime(node); !why.empty()) GTEST_SKIP() << why;
  for (const auto& [workload, top_level] : {std::pair{"log info 0; throw", true},
                                            {"log info 0; sleep 0; throw", false},
                                            {"log info 0; flush; throw", false}}) {
    const auto obs = run(options_for(node, {workload}));
    EXPECT_EQ(obs.status, wait_status::exited(1)) << workload << ": " << obs.status.describe();
    const bool from_driver = obs.err.data.find("stdio_driver.js:") != std::string::npos;
    EXPECT_EQ(from_driver, top_level) << workload << ":\n" << obs.err.data;
  }
}

}  // namespace
}  // namespace flushcheck
