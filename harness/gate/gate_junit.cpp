// The gate file reporter for CI systems: JUnit XML, the layout Jenkins'
// JUnit plugin, GitLab and ctest --output-junit share: <testsuites>, a
// <testsuite> with tests/failures/errors/skipped/time, a <testcase> per case
// with classname, name and time, and a <failure message type> per failed case.
#include <unistd.h>

#include <cstdio>

#include "escape.hpp"
#include "gate_report.hpp"
#include "machine.hpp"
#include "number_format.hpp"

namespace flushcheck {

namespace {

std::string attr(const std::string& name, const std::string& value) {
  return " " + name + "=\"" + markup_escape(value) + "\"";
}

/// "python_logging.gate" of "tests/loggers/python_logging.gate.toml".
std::string suite_name(const std::string& path) {
  std::string base = path.substr(path.rfind('/') + 1);
  return base.size() > 5 && base.ends_with(".toml") ? base.substr(0, base.size() - 5) : base;
}

/// A failed case's <failure>: the first failed check its message; each
/// failed check and how the run ended its body.
std::string check_failures(const gate_case_result& c) {
  std::string message, body;
  for (const auto& k : c.checks) {
    if (k.pass()) continue;
    if (message.empty()) message = k.failure();
    body += k.failure() + "\n";
  }
  body += "ended: " + c.status + "\nrepeat: " + c.repro + "\n";
  return "      <failure" + attr("message", message) + attr("type", "expectation") + ">" +
         markup_escape(body) + "</failure>\n";
}

std::string testcase(const gate_case_result& c, const std::string& suite) {
  std::string out = "    <testcase" + attr("classname", "flushcheck.gate." + suite) +
                    attr("name", c.name) + attr("time", fixed(c.seconds, 3));
  if (c.pass()) return out + "/>\n";
  if (!c.error.empty())
    return out + ">\n      <error" + attr("message", c.error) + attr("type", "spawn") +
           "/>\n    </testcase>\n";
  if (!c.harness_failure.empty())
    return out + ">\n      <error" + attr("message", c.harness_failure) + attr("type", "harness") +
           "/>\n    </testcase>\n";
  return out + ">\n" + check_failures(c) + "    </testcase>\n";
}

/// P's counterexample CE as a <failure>, the [[case]] to paste in its body.
std::string counterexample_failure(const property_result& p, const counterexample& ce) {
  const std::string message = "broke '" + ce.promise.text() + "': " + ce.check + ": " + ce.failure;
  const std::string body =
      message + "\nworkload: " + ce.workload + "\nended: " + ce.end + "; " + ce.status +
      ", stdout on " + std::string(to_string(ce.sink)) + "\n" + ce.rate() +
      (ce.note.empty() ? "" : "; note: " + ce.note) +
      (ce.driver_stderr.empty() ? "" : "\ndriver's stderr, last lines:\n" + ce.driver_stderr) +
      "\nrepeat: " + ce.repro + "\nsearch again: " + p.repeat + "\n\n" + ce.case_toml;
  return "      <failure" + attr("message", message) + attr("type", "counterexample") + ">" +
         markup_escape(body) + "</failure>\n";
}

/// A property that could say nothing: an <error> when the driver or the
/// harness failed, a <failure> when it checked nothing of an end it promises
/// or a case hung (never a pass); the driver's last lines in its body.
std::string property_error_xml(const property_result& p) {
  const bool failure =
      p.error_kind == property_error::nothing_checked || p.error_kind == property_error::timeout;
  const std::string tag = failure ? "failure" : "error";
  const std::string type = p.error_kind == property_error::nothing_checked ? "nothing_checked"
                           : p.error_kind == property_error::timeout       ? "timeout"
                           : p.error_kind == property_error::harness       ? "harness"
                           : p.error_kind == property_error::spawn         ? "spawn"
                                                                           : "driver";
  const std::string body =
      p.driver_stderr.empty() ? "" : "driver's stderr, last lines:\n" + p.driver_stderr + "\n";
  return "      <" + tag + attr("message", p.error) + attr("type", type) + ">" +
         markup_escape(body + "search again: " + p.repeat + "\n") + "</" + tag + ">\n";
}

/// A property: its counterexample in the failure, the [[case]] to paste in its body.
std::string testcase(const property_result& p, const std::string& suite) {
  std::string out = "    <testcase" + attr("classname", "flushcheck.gate." + suite) +
                    attr("name", p.name) + attr("time", fixed(p.seconds, 3));
  if (p.pass()) return out + "/>\n";
  if (p.error_kind != property_error::none)
    return out + ">\n" + property_error_xml(p) + "    </testcase>\n";
  if (!p.found)
    return out + ">\n      <failure" +
           attr("message", std::to_string(p.cases) + " cases kept a promise that must break") +
           attr("type", "no_counterexample") + "/>\n    </testcase>\n";
  return out + ">\n" + counterexample_failure(p, *p.found) + "    </testcase>\n";
}

/// JUnit's timestamp: ISO 8601 in UTC without the zone letter.
std::string timestamp() {
  std::string now = utc_now();
  now.pop_back();  // the "Z"
  return now;
}

/// The seconds of every case and property.
double total_seconds(const gate_report& r) {
  double total = 0;
  for (const auto& c : r.cases) total += c.seconds;
  for (const auto& p : r.properties) total += p.seconds;
  return total;
}

/// tests, failures and errors, as <testsuites> and <testsuite> both say them.
std::string count_attrs(const gate_report& r) {
  const std::size_t errors = r.errors() + r.property_errors();
  return attr("tests", std::to_string(r.cases.size() + r.properties.size())) +
         attr("failures", std::to_string(r.failed() + r.properties_failed() - errors)) +
         attr("errors", std::to_string(errors));
}

}  // namespace

std::string to_junit(const gate_report& r) {
  const double total = total_seconds(r);
  const std::string suite = suite_name(r.file);
  const std::string counts = count_attrs(r);
  char host[256] = "localhost";
  ::gethostname(host, sizeof host - 1);
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites" +
                    attr("name", "flushcheck gate") + counts + attr("time", fixed(total, 3)) +
                    ">\n  <testsuite" + attr("name", suite) + counts + attr("skipped", "0") +
                    attr("time", fixed(total, 3)) + attr("timestamp", timestamp()) +
                    attr("hostname", host) + attr("file", r.file) + ">\n";
  for (const auto& c : r.cases) out += testcase(c, suite);
  for (const auto& p : r.properties) out += testcase(p, suite);
  return out + "  </testsuite>\n</testsuites>\n";
}

}  // namespace flushcheck
