// The gate file reporter for people: a line per case.
#include "escape.hpp"
#include "gate_report.hpp"
#include "number_format.hpp"

namespace flushcheck {

namespace {

/// "; records arrived: 50 in file:app.log, 0 in stdout", or "".
std::string arrived_text(const gate_case_result& c) {
  std::string out;
  for (const auto& [in, n] : c.arrived)
    out += (out.empty() ? "; records arrived: " : ", ") + std::to_string(n) + " in " + in;
  return out;
}

}  // namespace

std::string gate_text(const gate_report& r) {
  std::string out;
  for (const auto& c : r.cases) {
    if (c.pass()) {
      out += "PASS  " + c.name + " (" + std::to_string(c.checks.size()) +
             (c.checks.size() == 1 ? " check, " : " checks, ") + c.status + ", " +
             format_seconds(c.seconds) + arrived_text(c) + ")\n";
      continue;
    }
    if (!c.error.empty()) {
      out += "ERROR " + c.name + ": " + c.error + "\n";
      continue;
    }
    for (const auto& k : c.checks)
      if (!k.pass()) out += "FAIL  " + c.name + ": " + k.failure() + "\n";
    out += "      ended: " + c.status + arrived_text(c) + "; repeat: " + c.repro + "\n";
  }
  out += r.file + ": " + std::to_string(r.cases.size() - r.failed()) + " of " +
         std::to_string(r.cases.size()) + " cases passed\n";
  return terminal_text(out);
}

}  // namespace flushcheck
