#pragma once
// What the CLI's tests check of a run of flushcheck, shared by the suites of
// each verb (tests/cli/*_test.cpp).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "clean_environment.hpp"
#include "cli_runner.hpp"

namespace flushcheck {

/// `flushcheck run --json ARGS` with ENV: its report, the run exiting 0.
inline nlohmann::json run_json(std::vector<std::string> args,
                               std::vector<std::string> env = clean_environment()) {
  args.insert(args.begin(), {"run", "--json"});
  auto r = cli(args, std::move(env));
  EXPECT_EQ(r.code, 0) << r.err;
  return nlohmann::json::parse(r.out);
}

/// The destination with ROLE in a "writes" list (null if none).
inline nlohmann::json with_role(const nlohmann::json& writes, const std::string& role) {
  for (const auto& d : writes)
    if (d["role"] == role) return d;
  return nullptr;
}

/// R failed with CODE and one line on stderr, "flushcheck: ..." holding NEEDLE.
inline void expect_one_line_error(const cli_result& r, int code, const std::string& needle) {
  EXPECT_EQ(r.code, code) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(r.err.rfind("flushcheck: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
}

}  // namespace flushcheck
