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
  /// Of those, the programs that did not start, or whose harness failed.
  std::size_t errors() const {
    return static_cast<std::size_t>(std::count_if(cases.begin(), cases.end(), [](auto& c) {
      return !c.error.empty() || !c.harness_failure.empty();
    }));
  }
  /// Properties that found a counterexample or could not check.
  std::size_t properties_failed() const {
    return static_cast<std::size_t>(
        std::count_if(properties.begin(), properties.end(), [](auto& p) { return !p.pass(); }));
  }
  /// Properties that could say nothing about the library, for a reason
  /// not the library's: the driver failed or could not start, the harness failed.
  std::size_t property_errors() const {
    return static_cast<std::size_t>(
        std::count_if(properties.begin(), properties.end(), [](auto& p) {
          return p.error_kind == property_error::spawn || p.error_kind == property_error::driver ||
                 p.error_kind == property_error::harness;
        }));
  }
};

/// For people: a line per case (PASS; FAIL with each failed expectation and
/// the line that repeats the run; ERROR when the program did not start),
/// then per property its seed and cases (FAIL: the shrunk counterexample
/// and its [[case]]), then the counts: each part below, in order, so that
/// the CLI prints each case's and property's lines as it finishes.
std::string to_text(const gate_report& r);
/// One case's lines.
std::string to_text(const gate_case_result& c);
/// One property's lines: PASS with the cases that tested each end; FAIL
/// with the counterexample; ERROR (or FAIL for nothing checked) and why.
std::string to_text(const property_result& p);
/// The last line: "FILE: 49 of 50 cases passed, 1 of 1 properties kept their promise".
std::string summary_text(const gate_report& r);

/// One self-contained page: each case's line, and per property its
/// result, its counterexample with the timeline picture of its run (when
/// the search kept one), the repeat line and the [[case]].
std::string to_html(const gate_report& r);

/// Every case and check (kind "gate", json_document.hpp; docs/cli.md).
nlohmann::json to_json(const gate_report& r);

/// JUnit XML as CI systems read it (Jenkins, GitLab, GitHub Actions'
/// test reporters): <testsuites> with one <testsuite> per gate file, one
/// <testcase> per case and per property, a <failure> per failed case or
/// counterexample, an <error> per program that did not start. Valid XML 1.0 whatever bytes the
/// program wrote.
std::string to_junit(const gate_report& r);

}  // namespace flushcheck
