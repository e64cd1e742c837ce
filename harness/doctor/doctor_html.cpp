// The doctor's page: the verdict, the cut that lost most drawn beside the
// same cut under each fix that helped, the fixes, and the text report.
#include <sstream>

#include "doctor_report.hpp"
#include "escape.hpp"
#include "html_page.hpp"
#include "repro.hpp"

namespace flushcheck {
namespace {

void pictures_html(std::ostream& h, const std::vector<doctor_picture>& pictures) {
  if (pictures.empty()) return;
  h << "<h2>The cut that lost most, and the same cut under each fix that helped</h2>\n"
    << "<div class=\"pictures\">\n";
  for (const auto& p : pictures)
    h << "<figure>\n"
      << inline_svg(timeline_svg(p.obs, p.options)) << "<figcaption>" << markup_escape(p.caption)
      << "<br><code>" << markup_escape(p.repro) << "</code></figcaption></figure>\n";
  h << "</div>\n";
}

/// What each stream's outputs were compared around, when not byte for byte.
void compared_html(std::ostream& h, const doctor_report& r) {
  for (const auto& d : r.views)
    if (!d.mask.empty())
      h << "<p class=\"compared\">" << to_string(d.stream) << ": "
        << markup_escape(d.mask.describe()) << "</p>\n";
}

void fixes_html(std::ostream& h, const doctor_report& r) {
  if (r.fixes.empty()) return;
  h << "<h2>Fixes, each tried with the same runs</h2>\n<table id=\"fixes\"><thead><tr>"
    << "<th>fix</th><th>helps</th><th>what the runs showed</th><th>what to change</th>"
    << "<th>source</th></tr></thead><tbody>\n";
  for (const auto& f : r.fixes)
    h << "<tr class=\"" << (f.helps ? "helps" : "no-help") << "\"><td>" << markup_escape(f.name)
      << "</td><td>" << (f.helps ? "yes" : "no") << "</td><td>" << markup_escape(f.result)
      << "</td><td>" << markup_escape(f.advice) << "</td><td>" << markup_escape(f.source)
      << "</td></tr>\n";
  h << "</tbody></table>\n";
}

}  // namespace

std::string to_html(const doctor_report& r, const std::vector<doctor_picture>& pictures) {
  std::ostringstream h;
  h << html_head("flushcheck doctor: " + command_line(r.argv, 120),
                 ".pictures{display:grid;grid-template-columns:repeat(auto-fit,minmax(560px,1fr));"
                 "gap:1em}tr.helps td{background:#d9f2d9}#verdict{font-weight:bold}")
    << "<p id=\"program\">program: " << markup_escape(r.kind.describe()) << "</p>\n"
    << "<p id=\"verdict\">verdict: " << markup_escape(verdict_line(r)) << "</p>\n";
  compared_html(h, r);
  pictures_html(h, pictures);
  fixes_html(h, r);
  h << "<h2>Findings</h2>\n<pre id=\"report\">" << markup_escape(to_text(r)) << "</pre>\n"
    << html_end();
  return h.str();
}

}  // namespace flushcheck
