// The run as one self-contained page: its timeline, then the report text and
// the repro line (run_report.hpp).
#include "escape.hpp"
#include "html_page.hpp"
#include "run_report.hpp"

namespace flushcheck {

std::string to_html(const observation& obs, const timeline_options& o, const std::string& repro) {
  return html_head(o.title) + "<figure id=\"timeline\">\n" + inline_svg(timeline_svg(obs, o)) +
         "<figcaption>Hover over a mark for its exact values.</figcaption></figure>\n"
         "<h2>Report</h2>\n<pre id=\"report\">" +
         markup_escape(to_text(obs)) + "</pre>\n<h2>Repro</h2>\n<pre id=\"repro\">" +
         markup_escape(repro) + "</pre>\n" + html_end();
}

}  // namespace flushcheck
