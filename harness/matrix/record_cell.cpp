// A matrix record's cell as a value (record_cell.hpp).
#include "record_cell.hpp"

#include <cstdint>

#include "record_fields.hpp"
#include "run_report.hpp"

namespace flushcheck {

using json = nlohmann::json;
using detail::record_flag;
using detail::record_text;

record_cell cell_of(const case_result& r, const std::string& column) {
  record_cell c{r.prop_case.id(), column, std::string(to_string(r.prop_case.sink)), r.asserted,
                r.outcome};
  c.outcome.observed = bytes_as_code_points(r.outcome.observed);
  c.outcome.explanation = bytes_as_code_points(r.outcome.explanation);
  c.outcome.repro = bytes_as_code_points(r.outcome.repro);  // bytes as "data" is (docs/cli.md)
  return c;
}

record_cell read_cell(const json& cell) {
  record_cell c{record_text(cell, "id"),
                record_text(cell, "column"),
                record_text(cell, "sink"),
                record_flag(cell, "asserted"),
                {}};
  verdict& v = c.outcome;
  v.pass = record_flag(cell, "pass");
  v.observed = record_text(cell, "observed");
  v.explanation = record_text(cell, "explanation");
  v.repro = record_text(cell, "repro");
  if (std::string why = record_text(cell, "skipped"); !why.empty()) v.skipped = std::move(why);
  const json figures = cell.value("figures", json::object());  // items() needs it alive
  for (const auto& [k, n] : figures.items())
    if (n.is_number_integer()) v.figures[k] = n.get<std::int64_t>();
  return c;
}

json to_json(const record_cell& c) {
  const verdict& v = c.outcome;
  return {{"id", c.id},
          {"column", c.column},
          {"sink", c.sink},
          {"asserted", c.asserted},
          {"pass", v.pass},
          {"observed", v.observed},
          {"explanation", v.explanation},
          {"repro", v.repro},
          {"figures", v.figures},
          {"skipped", v.skipped.value_or("")}};
}

std::string verdict_text(const record_cell& c) {
  const verdict& v = c.outcome;
  if (v.skipped && !v.skipped->empty()) return "skipped (" + *v.skipped + ")";
  const std::string said = !c.asserted ? "not asserted" : v.pass ? "pass" : "FAIL";
  return said + ", observed " + v.observed;
}

}  // namespace flushcheck
