// explore's page: the loss map, then the table for people (explore.hpp).
#include "escape.hpp"
#include "explore.hpp"
#include "html_page.hpp"

namespace flushcheck {

std::string to_html(const std::vector<explored_sink>& result, const std::string& title) {
  return html_head(title) + "<figure id=\"loss-map\">\n" + inline_svg(loss_map_svg(result, title)) +
         "<figcaption>A column per cut point in the order the program reached it (write:N is "
         "the N-th write to the stream on that row's sink), a row per sink and signal; hover "
         "over a cell for its numbers and its repro line.</figcaption></figure>\n"
         "<h2>Runs</h2>\n<pre id=\"table\">" +
         markup_escape(to_text(result)) + "</pre>\n" + html_end();
}

}  // namespace flushcheck
