// A bench report as JSON and back (docs/bench.md, "JSON"): the one schema
// that --json writes and --compare reads.
#include <cstdint>

#include <nlohmann/json.hpp>

#include "bench_report.hpp"
#include "error.hpp"
#include "json_document.hpp"
#include "run_report.hpp"

namespace flushcheck {
namespace {

using json = nlohmann::json;

/// Text as a valid JSON string whatever bytes it holds (run_report.hpp).
std::string text(const std::string& s) { return bytes_as_code_points(s); }

/// The values with each key made valid JSON text (a program names them).
json values_json(const std::map<std::string, double>& values) {
  json out = json::object();
  for (const auto& [k, v] : values) out[text(k)] = v;
  return out;
}

json row_json(const bench_row& r) {
  return {{"name", text(r.name)},
          {"series", text(r.series)},
          {"toolchain", text(r.toolchain)},
          {"sink", r.sink},
          {"x", r.x},
          {"bytes", r.bytes},
          {"ops", r.ops},
          {"seconds", r.seconds},
          {"min", r.min()},
          {"median", r.median()},
          {"max", r.max()},
          {"throughput", r.throughput()},
          {"ratio", r.ratio},
          {"write_calls", r.write_calls},
          {"values", values_json(r.values)},
          {"skipped", text(r.skipped)},
          {"failed", r.failed},
          {"repro", text(r.repro)}};
}

json plot_json(const bench_plot& p) {
  json series = json::array();
  for (const auto& s : p.series) {
    json points = json::array();
    for (const auto& pt : s.points) points.push_back({pt.x, pt.y});
    series.push_back({{"name", text(s.name)}, {"points", points}});
  }
  return {{"title", p.title}, {"x_label", p.x_label}, {"y_label", p.y_label},
          {"log_x", p.log_x}, {"log_y", p.log_y},     {"series", series}};
}

/// One claim: its seed's words, whether it was checked and holds, what was seen.
json claim_json(const bench_claim& c) {
  return {{"seed", c.seed},
          {"kind", c.kind},
          {"holds", c.holds},
          {"checked", c.checked},
          {"observed", text(c.observed)}};
}

/// A JSON array of AS_JSON(x) for each x of XS.
template <class T, class F>
json array_of(const std::vector<T>& xs, F as_json) {
  json out = json::array();
  for (const auto& x : xs) out.push_back(as_json(x));
  return out;
}

json suite_json(const bench_suite& s) {
  return {{"name", s.name},
          {"title", s.title},
          {"seed", s.seed},
          {"baseline", text(s.baseline)},
          {"placement", s.placement},
          {"notes", strings_json(s.notes)},
          {"rows", array_of(s.rows, row_json)},
          {"claims", array_of(s.claims, claim_json)},
          {"plots", array_of(s.plots, plot_json)}};
}

/// A number that JSON may hold as null (a non-finite value).
double number_or_zero(const json& j) { return j.is_number() ? j.get<double>() : 0.0; }

/// Row J: what it is, then what its run said (its times, ratio, writes and
/// values, why it was skipped, whether it failed, and its repro line).
bench_row row_from(const json& j) {
  bench_row r;
  r.name = j.at("name").get<std::string>();
  r.series = j.at("series").get<std::string>();
  r.toolchain = j.at("toolchain").get<std::string>();
  r.sink = j.at("sink").get<std::string>();
  r.x = number_or_zero(j.at("x"));
  r.bytes = j.at("bytes").get<std::int64_t>();
  r.ops = j.at("ops").get<std::int64_t>();
  for (const auto& s : j.at("seconds")) r.seconds.push_back(number_or_zero(s));
  r.ratio = number_or_zero(j.at("ratio"));
  r.write_calls = j.at("write_calls").get<std::int64_t>();
  for (const auto& [k, v] : j.at("values").items()) r.values[k] = number_or_zero(v);
  r.skipped = j.at("skipped").get<std::string>();
  r.failed = j.at("failed").get<bool>();
  r.repro = j.at("repro").get<std::string>();
  return r;
}

bench_suite suite_from(const json& j) {
  bench_suite s;
  s.name = j.at("name").get<std::string>();
  s.title = j.at("title").get<std::string>();
  s.baseline = j.at("baseline").get<std::string>();
  for (const auto& r : j.at("rows")) s.rows.push_back(row_from(r));
  for (const auto& c : j.at("claims"))
    s.claims.push_back({c.at("seed").get<std::string>(), c.at("kind").get<std::string>(),
                        c.at("holds").get<bool>(), c.at("observed").get<std::string>(),
                        c.at("checked").get<bool>()});
  return s;
}

/// The report that J holds; throws usage_error when J is no bench report,
/// json::exception when a field is missing or of another type.
bench_report report_from(const json& j) {
  bench_report r;
  if (j.at("tool") != "flushcheck bench" || !is_json_document(j, json_kind::bench))
    throw usage_error("not a flushcheck bench report of schema " +
                      std::to_string(info(json_kind::bench).schema));
  r.machine = j.at("machine").get<std::string>();
  r.repeat = j.at("repeat").get<int>();
  r.quick = j.at("quick").get<bool>();
  for (const auto& s : j.at("suites")) r.suites.push_back(suite_from(s));
  return r;
}

}  // namespace

nlohmann::json to_json(const bench_report& r) {
  json suites = json::array();
  for (const auto& s : r.suites) suites.push_back(suite_json(s));
  json j = json_document(json_kind::bench);
  j.update(json{{"tool", "flushcheck bench"},
                {"machine", text(r.machine)},
                {"repeat", r.repeat},
                {"quick", r.quick},
                {"suites", suites}});
  return j;
}

bench_report bench_from_json(const std::string& text) {
  json j = parse_json_input(text);
  try {
    return report_from(j);
  } catch (const json::exception&) {
    // The library's own words name its internals: say what is wrong instead.
    throw usage_error("not a flushcheck bench report of schema " +
                      std::to_string(info(json_kind::bench).schema) +
                      ": a field it needs is missing or of another type");
  }
}

}  // namespace flushcheck
