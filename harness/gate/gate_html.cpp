// The gate file reporter as one self-contained page (gate --html): each
// case's line, and each property with its counterexample drawn as `run
// --html` draws a run, the line that repeats it and the [[case]] that pins it.
#include "escape.hpp"
#include "gate_report.hpp"
#include "html_page.hpp"
#include "timeline_svg.hpp"

namespace flushcheck {

namespace {

std::string pre(const std::string& id, const std::string& text) {
  return "<pre id=\"" + id + "\">" + markup_escape(text) + "</pre>\n";
}

/// The counterexample's run as a timeline, when the search kept one.
std::string picture(const property_result& p, const counterexample& ce) {
  if (!ce.obs) return "";
  const timeline_options o{p.name + ": " + ce.workload, std::nullopt, false};
  return "<figure class=\"timeline\">\n" + inline_svg(timeline_svg(*ce.obs, o)) +
         "<figcaption>The run of the case shown: " + markup_escape(ce.end) + ", stdout on " +
         markup_escape(std::string(to_string(ce.sink))) +
         ". Hover over a mark for its exact values.</figcaption>" + "</figure>\n";
}

/// P's section: its lines, and for a counterexample its picture, repeat and [[case]].
std::string property_section(const property_result& p, std::size_t i) {
  const std::string id = "property-" + std::to_string(i);
  std::string out = "<section id=\"" + id + "\">\n<h2>" + markup_escape(p.name) + ": " +
                    (p.pass() ? "pass" : "FAIL") + "</h2>\n" + pre(id + "-report", to_text(p));
  if (!p.found) return out + "</section>\n";
  const counterexample& ce = *p.found;
  out += picture(p, ce) + "<h3>Repeat the run</h3>\n" + pre(id + "-repro", ce.repro) +
         "<h3>Search again</h3>\n" + pre(id + "-repeat", p.repeat);
  if (!ce.case_toml.empty())
    out += "<h3>Pin it in the gate file</h3>\n" + pre(id + "-case", ce.case_toml);
  return out + "</section>\n";
}

}  // namespace

std::string to_html(const gate_report& r) {
  std::string out = html_head("flushcheck gate: " + r.file);
  if (!r.cases.empty()) {
    std::string cases;
    for (const auto& c : r.cases) cases += to_text(c);
    out += "<h2>Cases</h2>\n" + pre("cases", cases);
  }
  for (std::size_t i = 0; i < r.properties.size(); ++i)
    out += property_section(r.properties[i], i + 1);
  return out + pre("summary", summary_text(r)) + html_end();
}

}  // namespace flushcheck
