// The gate file reporter for people: a line per case.
#include <algorithm>
#include <map>

#include "escape.hpp"
#include "gate_report.hpp"
#include "number_format.hpp"

namespace flushcheck {

namespace {

/// "; records arrived: 50 in file:app.log, 0 in stdout", or "".
std::string arrived_text(const gate_case_result& c) {
  std::map<std::string, long> by_name;  // in the order of their names, as JSON has them
  for (const auto& [in, n] : c.arrived) by_name[in.text()] = n;
  std::string out;
  for (const auto& [in, n] : by_name)
    out += (out.empty() ? "; records arrived: " : ", ") + std::to_string(n) + " in " + in;
  return out;
}

/// The text indented by INDENT on each line.
std::string indented(const std::string& text, const std::string& indent) {
  std::string out;
  for (std::size_t at = 0; at < text.size();) {
    const auto nl = std::min(text.find('\n', at), text.size());
    out += indent + text.substr(at, nl - at) + "\n";
    at = nl + 1;
  }
  return out;
}

/// "FAIL  NAME: broke 'PROMISE' at case N of seed S (T to find)".
std::string counterexample_headline(const property_result& p, const counterexample& ce) {
  return (p.pass() ? "PASS  " : "FAIL  ") + p.name + ": broke '" + ce.promise.text() + "'" +
         (p.must_break ? ", as it must," : "") + " at case " + std::to_string(ce.found_at) +
         " of seed " + std::to_string(p.seed) + " (" + format_seconds(ce.seconds_to_find) +
         " to find)\n";
}

/// The driver's last lines on stderr (already escaped), indented, or "".
std::string stderr_text(const std::string& tail) {
  return tail.empty() ? "" : "      driver's stderr, last lines:\n" + indented(tail, "        ");
}

std::string counterexample_text(const property_result& p, const counterexample& ce) {
  std::string out = counterexample_headline(p, ce);
  out += "      " + ce.check + ": " + ce.failure + "\n";
  out += "      workload: " + ce.workload + "\n";
  out += "      ended: " + ce.end + "; " + ce.status + ", stdout on " +
         std::string(to_string(ce.sink)) + "\n";
  if (ce.note.empty())
    out += "      shrunk in " + std::to_string(ce.shrink_steps) + " steps, " +
           std::to_string(ce.shrink_tries) + " candidates" +
           (ce.shrink_stopped ? " (stopped at --max-seconds)" : "") + "; " + ce.rate() + "\n";
  else
    out += "      " + ce.rate() + "; note: " + ce.note + "\n";
  out += stderr_text(ce.driver_stderr);
  out += "      repeat: " + ce.repro + "\n      search again: " + p.repeat + "\n";
  if (!ce.case_toml.empty())
    out += "      pin it in the gate file:\n" + indented(ce.case_toml, "        ");
  return out;
}

/// "return 14, KILL 31 of 40 (9: the run ended before its cut's write to
/// stdout)": per end generated, the cases that tested it, and why the others did not.
std::string tested_text(const property_result& p) {
  std::string out;
  for (const auto& [end, t] : p.ends) {
    out += (out.empty() ? "" : ", ") + end_name(end) + " " + std::to_string(t.tested);
    if (t.tested != t.generated) out += " of " + std::to_string(t.generated);
    std::string why;
    for (const auto& [missed, n] : t.missed)
      why += (why.empty() ? "" : "; ") + std::to_string(n) + ": " + missed;
    if (!why.empty()) out += " (" + why + ")";
  }
  return out.empty() ? "" : "      cases that tested each end: " + out + "\n";
}

/// "KILL 412 write cuts of 25 cases derived, 60 run for real to check (2
/// cases at their own cut only; 2: more than one process or thread ran)":
/// per end with write cuts, how they were checked (property/every_write_cut.hpp).
std::string derived_text(const property_result& p) {
  std::string out;
  for (const auto& [end, t] : p.ends) {
    if (t.derived == 0 && t.not_derived.empty()) continue;
    out += (out.empty() ? "" : ", ") + end_name(end) + " " + std::to_string(t.derived_cuts) +
           " write cuts of " + std::to_string(t.derived) + " cases derived, " +
           std::to_string(t.verified_cuts) + " run for real to check";
    long own = 0;
    std::string why;
    for (const auto& [reason, n] : t.not_derived) {
      own += n;
      why += "; " + std::to_string(n) + ": " + reason;
      if (const auto e = t.not_derived_example.find(reason); e != t.not_derived_example.end())
        why += " (as: " + e->second + ")";
    }
    if (own > 0) out += " (" + std::to_string(own) + " cases at their own cut only" + why + ")";
  }
  return out.empty() ? "" : "      every write cut: " + out + "\n";
}

/// "ERROR" with the error and, for a driver that failed, its last words.
std::string error_text(const property_result& p) {
  const bool failure =
      p.error_kind == property_error::nothing_checked || p.error_kind == property_error::timeout;
  return (failure ? "FAIL  " : "ERROR ") + p.name + " (seed " + std::to_string(p.seed) +
         "): " + p.error + "\n" + stderr_text(p.driver_stderr) + tested_text(p) + derived_text(p) +
         "      search again: " + p.repeat + "\n";
}

}  // namespace

std::string to_text(const property_result& p) {
  if (p.error_kind != property_error::none) return terminal_text(error_text(p));
  if (p.found) return terminal_text(counterexample_text(p, *p.found));
  return terminal_text(
      (p.pass() ? "PASS  " : "FAIL  ") + p.name + ": " + std::to_string(p.cases) +
      " cases kept the promise" + (p.must_break ? ", which must break" : "") + " (seed " +
      std::to_string(p.seed) + ", " + format_seconds(p.seconds) +
      (p.budget_hit ? "; --max-seconds stopped it before " + std::to_string(p.cases_asked) : "") +
      ")\n" + tested_text(p) + derived_text(p));
}

namespace {

/// A case's lines: PASS or ERROR, or FAIL with each failed check and how the run ended.
std::string case_lines(const gate_case_result& c) {
  if (c.pass())
    return "PASS  " + c.name + " (" + std::to_string(c.checks.size()) +
           (c.checks.size() == 1 ? " check, " : " checks, ") + c.status + ", " +
           format_seconds(c.seconds) + arrived_text(c) + ")\n";
  if (!c.error.empty()) return "ERROR " + c.name + ": " + c.error + "\n";
  if (!c.harness_failure.empty()) return "ERROR " + c.name + ": " + c.harness_failure + "\n";
  std::string out;
  for (const auto& k : c.checks)
    if (!k.pass()) out += "FAIL  " + c.name + ": " + k.failure() + "\n";
  out += "      ended: " + c.status + arrived_text(c) + "; repeat: " + c.repro + "\n";
  return out;
}

/// "49 of 50 cases passed, 1 of 1 properties kept their promise" (what the file has).
std::string counts_text(const gate_report& r) {
  std::string counts;
  if (!r.cases.empty() || r.properties.empty())
    counts = std::to_string(r.cases.size() - r.failed()) + " of " + std::to_string(r.cases.size()) +
             " cases passed";
  if (!r.properties.empty())
    counts += (counts.empty() ? "" : ", ") +
              std::to_string(r.properties.size() - r.properties_failed()) + " of " +
              std::to_string(r.properties.size()) + " properties kept their promise";
  return counts;
}

}  // namespace

std::string to_text(const gate_case_result& c) { return terminal_text(case_lines(c)); }

std::string summary_text(const gate_report& r) {
  return terminal_text(r.file + ": " + counts_text(r) + "\n");
}

std::string to_text(const gate_report& r) {
  std::string out;
  for (const auto& c : r.cases) out += to_text(c);
  for (const auto& p : r.properties) out += to_text(p);
  return out + summary_text(r);
}

}  // namespace flushcheck
