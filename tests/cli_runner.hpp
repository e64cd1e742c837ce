#pragma once
// The flushcheck CLI run by the harness itself, as a user runs it: for the
// tests of its verbs (cli_test.cpp, gate_file_test.cpp).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "flushcheck/run.hpp"
#include "flushcheck/target_set.hpp"

namespace flushcheck {

struct cli_result {
  int code;
  std::string out;
  std::string err;
};

// matrix --all runs every case of every toolchain set: ~23 s under ASan alone,
// more beside another test; ctest's own limit for a case is 120 s.
inline cli_result cli(std::vector<std::string> args,
                      std::vector<std::string> env = clean_environment()) {
  run_options o;
  o.argv = {FLUSHCHECK_TARGET_FLUSHCHECK};
  o.argv.insert(o.argv.end(), args.begin(), args.end());
  o.env = std::move(env);
  o.timeout = std::chrono::milliseconds(args.empty() || args[0] != "matrix" ? 30000 : 110000);
  auto obs = run(o);
  EXPECT_EQ(obs.status.type(), wait_status::kind::exited) << obs.status.describe();
  return {obs.status.code(), obs.out.data, obs.err.data};
}

}  // namespace flushcheck
