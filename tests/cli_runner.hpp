#pragma once
// The flushcheck CLI run by the harness itself, as a user runs it: for the
// tests of its verbs (cli_test.cpp, gate_file_test.cpp).
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "run.hpp"
#include "target_set.hpp"

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
  bool long_verb =
      !args.empty() && (args[0] == "matrix" || args[0] == "bench" || args[0] == "doctor" ||
                        args[0] == "model" || args[0] == "targets");
  o.timeout = std::chrono::milliseconds(long_verb ? 110000 : 30000);
  auto obs = run(o);
  EXPECT_EQ(obs.status.type(), wait_status::kind::exited) << obs.status.describe();
  return {obs.status.code(), obs.out.data, obs.err.data};
}

/// LINE run as a user pastes it into a shell (/bin/sh -c), in a clean
/// environment (no flushcheck on its PATH but the one the line names), until
/// TIMEOUT: how a test checks that a printed repro line repeats its run.
inline observation pasted(const std::string& line, std::chrono::milliseconds timeout) {
  run_options o;
  o.argv = {"/bin/sh", "-c", line};
  o.env = clean_environment();
  o.timeout = timeout;
  return run(o);
}

/// NAME in a directory of this test's own (ctest runs tests in parallel),
/// removed when the test binary ends.
inline std::string test_path(const std::string& name) {
  struct own_dir {
    std::string path;
    own_dir() {
      std::string test = ::testing::UnitTest::GetInstance()->current_test_info()->name();
      std::replace(test.begin(), test.end(), '/', '_');  // a parameterized test's name
      path = ::testing::TempDir() + "flushcheck_test." + test + ".XXXXXX";
      if (::mkdtemp(path.data()) == nullptr) throw std::runtime_error("mkdtemp " + path);
    }
    ~own_dir() { std::filesystem::remove_all(path); }
  };
  static const own_dir dir;
  return dir.path + "/" + name;
}

/// Removes the log directories a pasted repro line made (`mkdir -p
/// '/tmp/flushcheck-gate-XXXXXX' && ...`, quoted as sh or bash -c quotes
/// it): a user keeps them to look at the logs, a test leaves nothing.
inline void remove_log_dirs_of(const std::string& line) {
  static const std::regex dir(R"((/[^'"\\ ]*/flushcheck-gate-[A-Za-z0-9]{6}))");
  for (std::sregex_iterator it(line.begin(), line.end(), dir), end; it != end; ++it)
    std::filesystem::remove_all((*it)[1].str());
}

/// A file NAME holding TEXT in this test's own directory (test_path); its path.
inline std::string file_with(const std::string& name, const std::string& text) {
  const std::string path = test_path(name);
  std::ofstream(path) << text;
  return path;
}

/// How many times NEEDLE occurs in TEXT (overlapping ones too).
inline std::size_t occurrences(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

/// Debian's headless Chromium on PAGE with ARGS (--dump-dom, --screenshot=...),
/// with no network: a proxy that refuses and no name resolves, so a page that
/// fetched anything would miss it. Its stdout; nullopt when chromium is not
/// installed (the caller skips, saying so).
inline std::optional<std::string> headless_chromium(const std::string& page,
                                                    const std::vector<std::string>& args) {
  if (::access("/usr/bin/chromium", X_OK) != 0) return std::nullopt;
  run_options o;
  o.argv = {"/usr/bin/chromium",
            "--headless",
            "--proxy-server=127.0.0.1:9",
            "--host-resolver-rules=MAP * ~NOTFOUND",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--user-data-dir=" + test_path("chromium")};
  o.argv.insert(o.argv.end(), args.begin(), args.end());
  o.argv.push_back("file://" + page);
  o.env = clean_environment();
  o.env.push_back("HOME=" + test_path(""));
  o.timeout = std::chrono::milliseconds(90000);
  auto obs = run(o);
  EXPECT_EQ(obs.status, wait_status::exited(0)) << obs.err.data;
  return obs.out.data;
}

/// The DOM of PAGE after headless Chromium loaded it with no network.
inline std::optional<std::string> headless_dom(const std::string& page) {
  return headless_chromium(page, {"--dump-dom"});
}

/// A gate's JSON report J with what differs between any two runs of it
/// blanked: times (keys "seconds..."), and the names mkdtemp gave the log
/// directories. What is left is the same for --jobs 1 and --jobs 4.
inline nlohmann::json without_times(nlohmann::json j) {
  if (j.is_object()) {
    for (auto& [key, value] : j.items())
      value = key.starts_with("seconds") ? nlohmann::json(0) : without_times(value);
  } else if (j.is_array()) {
    for (auto& value : j) value = without_times(value);
  } else if (j.is_string()) {
    return std::regex_replace(j.get<std::string>(), std::regex("flushcheck-gate-[A-Za-z0-9]{6}"),
                              "flushcheck-gate-XXXXXX");
  }
  return j;
}

}  // namespace flushcheck
