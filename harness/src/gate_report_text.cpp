// The gate file reporter for people: a line per case.
#include <cstdio>

#include "flushcheck/gate_report.hpp"

namespace flushcheck {

std::size_t gate_report::failed() const {
  std::size_t n = 0;
  for (const auto& c : cases) n += c.pass() ? 0 : 1;
  return n;
}

namespace {

std::string seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f s", s);
  return buf;
}

/// "records_through 49 in file:app.log: does not hold: ..." for a failed check.
std::string failure(const gate_check_result& c) {
  if (c.expect.holds) return c.expect.describe() + ": " + c.outcome.why;
  return c.expect.describe() + ": it held (" + c.outcome.why + ")";
}

}  // namespace

std::string gate_text(const gate_report& r) {
  std::string out;
  for (const auto& c : r.cases) {
    if (c.pass()) {
      out += "PASS  " + c.name + " (" + std::to_string(c.checks.size()) +
             (c.checks.size() == 1 ? " check, " : " checks, ") + c.status + ", " +
             seconds(c.seconds) + ")\n";
      continue;
    }
    for (const auto& k : c.checks)
      if (!k.pass()) out += "FAIL  " + c.name + ": " + failure(k) + "\n";
    out += "      the program " + c.status + "; repeat: " + c.repro + "\n";
  }
  out += r.file + ": " + std::to_string(r.cases.size() - r.failed()) + " of " +
         std::to_string(r.cases.size()) + " cases passed\n";
  return out;
}

}  // namespace flushcheck
