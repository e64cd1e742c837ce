// The gate file reporter for CI systems: JUnit XML, the layout Jenkins'
// JUnit plugin, GitLab and ctest --output-junit share: <testsuites>, a
// <testsuite> with tests/failures/errors/skipped/time, a <testcase> per case
// with classname, name and time, and a <failure message type> per failed case.
#include <unistd.h>

#include <cstdio>

#include "gate_report.hpp"
#include "machine.hpp"

namespace flushcheck {

namespace {

/// Length of the valid UTF-8 sequence at S[I] that XML 1.0 allows, 0 if none.
std::size_t xml_char(const std::string& s, std::size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  if (c < 0x80) return c >= 0x20 || c == '\t' || c == '\n' || c == '\r' ? 1 : 0;
  const std::size_t n = c >= 0xf0 && c <= 0xf4   ? 4
                        : c >= 0xe0 && c <= 0xef ? 3
                        : c >= 0xc2 && c <= 0xdf ? 2
                                                 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k)
    if ((static_cast<unsigned char>(s[i + k]) & 0xc0) != 0x80) return 0;
  if (n == 3 && c == 0xe0 && static_cast<unsigned char>(s[i + 1]) < 0xa0) return 0;   // overlong
  if (n == 3 && c == 0xed && static_cast<unsigned char>(s[i + 1]) >= 0xa0) return 0;  // surrogate
  if (n == 4 && c == 0xf0 && static_cast<unsigned char>(s[i + 1]) < 0x90) return 0;   // overlong
  if (n == 4 && c == 0xf4 && static_cast<unsigned char>(s[i + 1]) >= 0x90) return 0;  // > U+10FFFF
  if (n == 3 && c == 0xef && static_cast<unsigned char>(s[i + 1]) == 0xbf &&
      static_cast<unsigned char>(s[i + 2]) >= 0xbe)
    return 0;  // U+FFFE and U+FFFF, which XML 1.0 excludes
  return n;
}

/// S as XML character data or an attribute value: markup escaped, and each
/// byte XML cannot carry (control bytes, invalid UTF-8) as the text "\xHH".
std::string xml(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = xml_char(s, i);
    if (n == 0) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", static_cast<unsigned char>(s[i++]));
      out += hex;
      continue;
    }
    const char c = s[i];
    out += c == '&'    ? "&amp;"
           : c == '<'  ? "&lt;"
           : c == '>'  ? "&gt;"
           : c == '"'  ? "&quot;"
           : c == '\n' ? "&#10;"
           : c == '\r' ? "&#13;"
           : c == '\t' ? "&#9;"
                       : s.substr(i, n);
    i += n;
  }
  return out;
}

std::string attr(const std::string& name, const std::string& value) {
  return " " + name + "=\"" + xml(value) + "\"";
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  return buf;
}

/// "python_logging.gate" of "tests/loggers/python_logging.gate.toml".
std::string suite_name(const std::string& path) {
  std::string base = path.substr(path.rfind('/') + 1);
  return base.size() > 5 && base.ends_with(".toml") ? base.substr(0, base.size() - 5) : base;
}

std::string testcase(const gate_case_result& c, const std::string& suite) {
  std::string out = "    <testcase" + attr("classname", "flushcheck.gate." + suite) +
                    attr("name", c.name) + attr("time", number(c.seconds));
  if (c.pass()) return out + "/>\n";
  if (!c.error.empty())
    return out + ">\n      <error" + attr("message", c.error) + attr("type", "spawn") +
           "/>\n    </testcase>\n";
  std::string message, body;
  for (const auto& k : c.checks) {
    if (k.pass()) continue;
    if (message.empty()) message = k.failure();
    body += k.failure() + "\n";
  }
  body += "ended: " + c.status + "\nrepeat: " + c.repro + "\n";
  return out + ">\n      <failure" + attr("message", message) + attr("type", "expectation") + ">" +
         xml(body) + "</failure>\n    </testcase>\n";
}

/// JUnit's timestamp: ISO 8601 in UTC without the zone letter.
std::string timestamp() {
  std::string now = utc_now();
  now.pop_back();  // the "Z"
  return now;
}

}  // namespace

std::string gate_junit(const gate_report& r) {
  double total = 0;
  for (const auto& c : r.cases) total += c.seconds;
  const std::string suite = suite_name(r.file);
  const std::string counts = attr("tests", std::to_string(r.cases.size())) +
                             attr("failures", std::to_string(r.failed() - r.errors())) +
                             attr("errors", std::to_string(r.errors()));
  char host[256] = "localhost";
  ::gethostname(host, sizeof host - 1);
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites" +
                    attr("name", "flushcheck gate") + counts + attr("time", number(total)) +
                    ">\n  <testsuite" + attr("name", suite) + counts + attr("skipped", "0") +
                    attr("time", number(total)) + attr("timestamp", timestamp()) +
                    attr("hostname", host) + attr("file", r.file) + ">\n";
  for (const auto& c : r.cases) out += testcase(c, suite);
  return out + "  </testsuite>\n</testsuites>\n";
}

}  // namespace flushcheck
