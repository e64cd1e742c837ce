#pragma once
/// The one SVG layer of every picture (bench plots, run timelines, explore's
/// loss map, doctor's page): a drawing written element by element, numbers
/// and text as SVG takes them, and colours a colour-blind reader tells apart.
/// No script, font or file: a drawing is self-contained.
#include <cstddef>
#include <sstream>
#include <string>

namespace flushcheck::svg {

/// A coordinate or size as SVG takes it: "%.1f"; 0 for what is not a number.
std::string num(double v);

/// S as SVG text or attribute: control bytes but tab, newline and carriage
/// return (XML cannot carry them) as spaces, markup escaped (markup_escape).
std::string text(const std::string& s);

/// Colour I of the Okabe-Ito palette (Okabe and Ito, "Color Universal
/// Design", 2008: eight colours told apart with any common colour vision
/// deficiency), blue, vermilion and green first; [I % 8].
const char* colour(std::size_t i);
/// A dash pattern per series, [I % 8], so that a series reads in grey too.
const char* dash(std::size_t i);
/// The shades from no loss to the most: 0 white, then 1..4 darker, of one hue
/// (ColorBrewer's sequential Oranges, readable with any colour vision).
const char* shade(int level);

/// One SVG document, written in the order of the calls. Each shape may carry
/// ATTRS (fill, stroke, class, data-*: written as given) and a tooltip,
/// TITLE, as its <title> child: what a reader sees on hover.
class drawing {
 public:
  drawing(double width, double height, const std::string& title);
  void rect(double x, double y, double w, double h, const std::string& attrs,
            const std::string& title = "");
  void line(double x1, double y1, double x2, double y2, const std::string& attrs,
            const std::string& title = "");
  /// Text at (X, Y); ANCHOR: start, middle or end.
  void label(double x, double y, const char* anchor, const std::string& s,
             const std::string& attrs = "");
  /// <g ATTRS> ... </g>: one lane, one legend.
  void open_group(const std::string& attrs);
  void close_group();
  /// The stream for shapes of a kind of their own (polyline, circle).
  std::ostream& out() { return out_; }
  /// The document, closed.
  std::string finish();

 private:
  void shape_end(const std::string& tag, const std::string& title);
  std::ostringstream out_;
};

/// ATTRIBUTE="VALUE", the value escaped, with a leading space.
std::string attr(const char* attribute, const std::string& value);
std::string attr(const char* attribute, double value);

}  // namespace flushcheck::svg
