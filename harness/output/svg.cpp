#include "svg.hpp"

#include <cmath>

#include "escape.hpp"
#include "number_format.hpp"

namespace flushcheck::svg {

std::string num(double v) { return fixed(std::isfinite(v) ? v : 0.0, 1); }

std::string text(const std::string& s) {
  std::string clean = s;
  for (char& c : clean)
    if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r') c = ' ';
  return markup_escape(clean);  // a tooltip keeps its line breaks
}

const char* colour(std::size_t i) {
  static const char* const okabe_ito[8] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                           "#E69F00", "#56B4E9", "#000000", "#F0E442"};
  return okabe_ito[i % 8];
}

const char* dash(std::size_t i) {
  static const char* const dashes[8] = {"",     "7 3", "2 3",         "9 3 2 3",
                                        "14 4", "1 2", "9 3 2 3 2 3", "4 5"};
  return dashes[i % 8];
}

const char* shade(int level) {
  static const char* const oranges[5] = {"#ffffff", "#fdd0a2", "#fdae6b", "#e6550d", "#a63603"};
  return oranges[level < 0 ? 0 : level > 4 ? 4 : level];
}

std::string attr(const char* attribute, const std::string& value) {
  return std::string(" ") + attribute + "=\"" + text(value) + "\"";
}

std::string attr(const char* attribute, double value) { return attr(attribute, num(value)); }

drawing::drawing(double width, double height, const std::string& title) {
  out_ << "<svg xmlns=\"http://www.w3.org/2000/svg\"" << attr("width", width)
       << attr("height", height) << " viewBox=\"0 0 " << num(width) << " " << num(height)
       << "\" font-family=\"sans-serif\" font-size=\"12\">\n<title>" << text(title)
       << "</title>\n<rect" << attr("width", width) << attr("height", height)
       << " fill=\"white\"/>\n";
}

void drawing::shape_end(const std::string& tag, const std::string& title) {
  if (title.empty())
    out_ << "/>\n";
  else
    out_ << "><title>" << text(title) << "</title></" << tag << ">\n";
}

void drawing::rect(double x, double y, double w, double h, const std::string& attrs,
                   const std::string& title) {
  out_ << "<rect" << attr("x", x) << attr("y", y) << attr("width", w) << attr("height", h) << attrs;
  shape_end("rect", title);
}

void drawing::line(double x1, double y1, double x2, double y2, const std::string& attrs,
                   const std::string& title) {
  out_ << "<line" << attr("x1", x1) << attr("y1", y1) << attr("x2", x2) << attr("y2", y2) << attrs;
  shape_end("line", title);
}

void drawing::label(double x, double y, const char* anchor, const std::string& s,
                    const std::string& attrs) {
  out_ << "<text" << attr("x", x) << attr("y", y) << " text-anchor=\"" << anchor << "\"" << attrs
       << ">" << text(s) << "</text>\n";
}

void drawing::open_group(const std::string& attrs) { out_ << "<g" << attrs << ">\n"; }

void drawing::close_group() { out_ << "</g>\n"; }

std::string drawing::finish() {
  out_ << "</svg>\n";
  return out_.str();
}

}  // namespace flushcheck::svg
