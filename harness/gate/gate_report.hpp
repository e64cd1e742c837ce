#pragma once
/// One reporter per format for a gate file's results (`flushcheck gate`),
/// each in its own file (src/gate_report_{text,json,junit}.cpp), as for the
/// matrix (matrix_report.hpp). Each takes the finished value and returns
/// the whole output.
#include <algorithm>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gate_file.hpp"
#include "property_result.hpp"

namespace flushcheck {

struct gate_report {
  std::string file;  ///< the gate file's path
  std::vector<gate_case_result> cases;
  std::vector<property_result> properties;
  /// Cases that did not pass: a check failed, or the program did not start.
  std::size_t failed() const {
    return static_cast<std::size_t>(
        std::count_if(cases.begin(), cases.end(), [](auto& c) { return !c.pass(); }));
  }
  /// Of those, the programs that did not start.
  std::size_t errors() const {
    return static_cast<std::size_t>(
        std::count_if(cases.begin(), cases.end(), [](auto& c) { return !c.error.empty(); }));
  }
  /// Properties that found a counterexample or could not check.
  std::size_t properties_failed() const {
    return static_cast<std::size_t>(
        std::count_if(properties.begin(), properties.end(), [](auto& p) { return !p.pass(); }));
  }
  std::size_t property_errors() const {
    return static_cast<std::size_t>(std::count_if(properties.begin(), properties.end(),
                                                  [](auto& p) { return !p.error.empty(); }));
  }
};

/// For people: a line per case (PASS; FAIL with each failed expectation and
/// the line that repeats the run; ERROR when the program did not start),
/// then per property its seed and cases (FAIL: the shrunk counterexample
/// and its [[case]]), then the counts.
std::string to_text(const gate_report& r);

/// Every case and check (kind "gate", json_document.hpp; docs/cli.md).
nlohmann::json to_json(const gate_report& r);

/// JUnit XML as CI systems read it (Jenkins, GitLab, GitHub Actions'
/// test reporters): <testsuites> with one <testsuite> per gate file, one
/// <testcase> per case and per property, a <failure> per failed case or
/// counterexample, an <error> per program that did not start. Valid XML 1.0 whatever bytes the
/// program wrote.
std::string to_junit(const gate_report& r);

}  // namespace flushcheck
