#include "count_report.hpp"

#include "json_document.hpp"
#include "run_report.hpp"

namespace flushcheck {

nlohmann::json to_json(const count_report& r) {
  nlohmann::json j = to_json(r.obs), c = json_document(json_kind::count);
  c.update(nlohmann::json{{"backend", j["trace"]["backend"]},
                          {"exit", j["exit"]},
                          {"writes", j["writes"]},
                          {"totals", j["trace"]["totals"]},
                          {"faults", j["faults"]}});
  return c;
}

}  // namespace flushcheck
