// The helper conformance kit's reporters (workload_check.hpp): for people,
// a line per workload; for machines, one JSON object.
#include "escape.hpp"
#include "json_document.hpp"
#include "repro.hpp"
#include "workload_check.hpp"

namespace flushcheck {

std::string to_text(const kit_result& r) {
  if (r.pass) return terminal_text("PASS  " + r.name + ": " + r.what + "\n");
  return terminal_text("FAIL  " + r.name + ": " + r.what + "\n      " + r.why + "\n");
}

std::string to_text(const workload_check_report& r) {
  std::string out;
  for (const auto& x : r.results) out += to_text(x);
  return out + summary_text(r);
}

std::string summary_text(const workload_check_report& r) {
  return terminal_text(command_line(r.driver, 200)) + ": " +
         std::to_string(r.results.size() - static_cast<std::size_t>(r.failed())) + " of " +
         std::to_string(r.results.size()) + " workloads as the C reference's (" +
         terminal_text(command_line(r.reference, 200)) + ")\n";
}

nlohmann::json to_json(const workload_check_report& r) {
  nlohmann::json results = nlohmann::json::array();
  for (const auto& x : r.results)
    results.push_back({{"name", x.name}, {"what", x.what}, {"pass", x.pass}, {"why", x.why}});
  nlohmann::json j = json_document(json_kind::workload_check);
  j.update(nlohmann::json{{"driver", r.driver},
                          {"reference", r.reference},
                          {"passed", static_cast<long>(r.results.size()) - r.failed()},
                          {"failed", r.failed()},
                          {"results", results}});
  return j;
}

}  // namespace flushcheck
