// The gate file reporter for machines: one JSON object (docs/cli.md).
#include "gate_report.hpp"
#include "json_document.hpp"

namespace flushcheck {

namespace {

nlohmann::json check_json(const gate_check_result& c) {
  return {{"check", c.expect.check},
          {"in", c.expect.in},
          {"what", c.expect.describe()},
          {"must_hold", c.expect.holds},
          {"held", c.outcome.ok},
          {"checked", c.outcome.checked},
          {"pass", c.pass()},
          {"why", c.outcome.why},
          {"line", c.expect.line}};
}

nlohmann::json case_json(const gate_case_result& c) {
  nlohmann::json checks = nlohmann::json::array();
  for (const auto& k : c.checks) checks.push_back(check_json(k));
  return {{"name", c.name},   {"pass", c.pass()}, {"status", c.status},   {"seconds", c.seconds},
          {"repro", c.repro}, {"error", c.error}, {"arrived", c.arrived}, {"checks", checks}};
}

}  // namespace

nlohmann::json to_json(const gate_report& r) {
  nlohmann::json cases = nlohmann::json::array();
  for (const auto& c : r.cases) cases.push_back(case_json(c));
  nlohmann::json j = json_document(json_kind::gate);
  j.update(nlohmann::json{{"file", r.file},
                          {"passed", r.cases.size() - r.failed()},
                          {"failed", r.failed()},
                          {"errors", r.errors()},
                          {"cases", cases}});
  return j;
}

}  // namespace flushcheck
