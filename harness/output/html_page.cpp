#include "html_page.hpp"

#include "escape.hpp"

namespace flushcheck {

std::string html_head(const std::string& title, const std::string& css) {
  return "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
         "<meta name=\"viewport\" content=\"width=device-width\"><title>" +
         markup_escape(title) +
         "</title><style>"
         "body{font-family:sans-serif;margin:1.5em;max-width:1400px}"
         "h1{font-size:20px;overflow-wrap:anywhere}h2{font-size:16px}"
         "table{border-collapse:collapse;margin:.5em 0}"
         "td,th{border:1px solid #ccc;padding:2px 6px;font-size:13px;text-align:left}"
         "td.num{text-align:right;white-space:nowrap}"
         "figure{margin:1em 0}figure svg{max-width:100%;height:auto}"
         "figcaption{font-size:13px;color:#444}"
         "pre{background:#f6f6f6;padding:.5em;overflow-x:auto;white-space:pre-wrap}" +
         css + "</style></head><body>\n<h1>" + markup_escape(title) + "</h1>\n";
}

std::string html_end() { return "</body></html>\n"; }

std::string inline_svg(const std::string& svg) {
  const std::size_t start = svg.find("<svg");
  return start == std::string::npos ? svg : svg.substr(start);
}

}  // namespace flushcheck
