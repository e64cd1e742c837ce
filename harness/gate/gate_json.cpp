// The gate file reporter for machines: one JSON object (docs/cli.md).
#include "gate_report.hpp"
#include "json_document.hpp"

namespace flushcheck {

namespace {

nlohmann::json check_json(const gate_check_result& c) {
  return {{"check", std::string(check_name(c.expect.check))},
          {"in", c.expect.in.text()},
          {"what", c.expect.describe()},
          {"must_hold", c.expect.holds},
          {"held", c.outcome.ok},
          {"checked", c.outcome.checked},
          {"pass", c.pass()},
          {"why", c.outcome.why},
          {"line", c.expect.line}};
}

/// Records that arrived, by where: {"stdout": 20, "file:app.log": 19}.
nlohmann::json arrived_json(const std::map<write_target, long>& arrived) {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [in, n] : arrived) out[in.text()] = n;
  return out;
}

nlohmann::json case_json(const gate_case_result& c) {
  nlohmann::json checks = nlohmann::json::array();
  for (const auto& k : c.checks) checks.push_back(check_json(k));
  return {{"name", c.name},
          {"pass", c.pass()},
          {"status", c.status},
          {"seconds", c.seconds},
          {"repro", c.repro},
          {"error", c.error},
          {"harness_failure", c.harness_failure},
          {"arrived", arrived_json(c.arrived)},
          {"checks", checks}};
}

nlohmann::json counterexample_json(const counterexample& ce) {
  return {{"promise", ce.promise.text()},
          {"check", ce.check},
          {"failure", ce.failure},
          {"end", ce.end},
          {"sink", to_string(ce.sink)},
          {"workload", ce.workload},
          {"status", ce.status},
          {"repro", ce.repro},
          {"case_toml", ce.case_toml},
          {"found_at_case", ce.found_at},
          {"seconds_to_find", ce.seconds_to_find},
          {"shrink_steps", ce.shrink_steps},
          {"shrink_tries", ce.shrink_tries},
          {"shrink_stopped", ce.shrink_stopped},
          {"failed_runs", ce.failed_runs},
          {"runs", ce.runs},
          {"rate_stopped", ce.rate_stopped},
          {"deterministic", ce.deterministic()},
          {"driver_stderr", ce.driver_stderr},
          {"note", ce.note}};
}

/// property_error as JSON names it: "" for none.
std::string error_kind_name(property_error e) {
  switch (e) {
    case property_error::spawn: return "spawn";
    case property_error::driver: return "driver";
    case property_error::harness: return "harness";
    case property_error::timeout: return "timeout";
    case property_error::nothing_checked: return "nothing_checked";
    case property_error::none: break;
  }
  return "";
}

/// Per end generated: its cases, those that tested it and were checked,
/// and why the others did not test it.
nlohmann::json ends_json(const property_result& p) {
  nlohmann::json ends = nlohmann::json::object();
  for (const auto& [end, t] : p.ends)
    ends[end_name(end)] = {{"generated", t.generated},
                           {"tested", t.tested},
                           {"checked", t.checked},
                           {"missed", t.missed},
                           {"every_write_cut",
                            {{"derived_cases", t.derived},
                             {"derived_cuts", t.derived_cuts},
                             {"verified_cuts", t.verified_cuts},
                             {"own_cut_only", t.not_derived},
                             {"own_cut_only_example", t.not_derived_example}}}};
  return ends;
}

nlohmann::json property_json(const property_result& p) {
  return {{"name", p.name},
          {"pass", p.pass()},
          {"must_break", p.must_break},
          {"seed", p.seed},
          {"cases", p.cases},
          {"cases_asked", p.cases_asked},
          {"budget_hit", p.budget_hit},
          {"seconds", p.seconds},
          {"error", p.error},
          {"error_kind", error_kind_name(p.error_kind)},
          {"driver_stderr", p.driver_stderr},
          {"ends", ends_json(p)},
          {"untested", p.untested()},
          {"repeat", p.repeat},
          {"counterexample", p.found ? counterexample_json(*p.found) : nlohmann::json(nullptr)}};
}

}  // namespace

nlohmann::json to_json(const gate_report& r) {
  nlohmann::json cases = nlohmann::json::array();
  for (const auto& c : r.cases) cases.push_back(case_json(c));
  nlohmann::json properties = nlohmann::json::array();
  for (const auto& p : r.properties) properties.push_back(property_json(p));
  nlohmann::json j = json_document(json_kind::gate);
  j.update(nlohmann::json{{"file", r.file},
                          {"passed", r.cases.size() - r.failed()},
                          {"failed", r.failed()},
                          {"errors", r.errors()},
                          {"cases", cases},
                          {"properties", properties}});
  return j;
}

}  // namespace flushcheck
