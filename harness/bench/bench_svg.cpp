// One bench plot as a standalone SVG document: axes with ticks (log axes by
// decades, linear ones at 5 to 8 round values), a line and dots per series in
// a colour and dash pattern of its own, a legend; no script, font or file.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <vector>

#include "bench_report.hpp"
#include "escape.hpp"
#include "number_format.hpp"

namespace flushcheck {
namespace {

constexpr double width = 640, height = 400;
constexpr double left = 70, top = 40, bottom = 345;  // the plot area; its right edge: layout()

// Colour and dash pattern of series I: [I % 8] each, so a series reads in grey too.
const char* const palette[8] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                                "#9467bd", "#8c564b", "#e377c2", "#17becf"};
const char* const dashes[8] = {"", "7 3", "2 3", "9 3 2 3", "14 4", "1 2", "9 3 2 3 2 3", "4 5"};

/// A coordinate or size as SVG takes it: "%.1f"; 0 for what is not a number.
std::string num(double v) { return fixed(std::isfinite(v) ? v : 0.0, 1); }

/// S as SVG text: control bytes (XML cannot carry them) as spaces, markup escaped.
std::string text(const std::string& s) {
  std::string clean = s;
  for (char& c : clean)
    if (static_cast<unsigned char>(c) < 0x20) c = ' ';
  return markup_escape(clean);
}

/// One axis: its span in drawing space (log10 of the value on a log axis),
/// the pixels of its two ends, and its ticks (in drawing space).
struct axis {
  bool log = false;
  double lo = 0, hi = 1;
  double from = 0, to = 0;
  std::vector<double> ticks;

  double at(double d) const {
    const double t = std::isfinite(hi - lo) ? (d - lo) / (hi - lo)
                                            : (d / 2 - lo / 2) / (hi / 2 - lo / 2);  // over DBL_MAX
    return from + t * (to - from);
  }
  double pixel(double v) const { return at(log ? std::log10(v) : v); }
};

bool drawable(double v, bool log) { return std::isfinite(v) && (!log || v > 0); }

bool drawable(const bench_plot& p, const bench_point& pt) {
  return drawable(pt.x, p.log_x) && drawable(pt.y, p.log_y);
}

/// The least and greatest drawing-space value of the drawable points on one
/// axis; lo > hi when there is none.
struct extent {
  double lo = INFINITY, hi = -INFINITY;
};

extent data_extent(const bench_plot& p, bool x_axis) {
  extent e;
  const bool log = x_axis ? p.log_x : p.log_y;
  for (const auto& s : p.series)
    for (const auto& pt : s.points) {
      if (!drawable(p, pt)) continue;
      const double v = x_axis ? pt.x : pt.y;
      const double d = log ? std::log10(v) : v;
      e.lo = std::min(e.lo, d);
      e.hi = std::max(e.hi, d);
    }
  return e;
}

/// A log axis from decade to decade, a tick at each (every Nth when over 8).
void log_ticks(axis& a, extent e) {
  double lo = e.lo > e.hi ? 0 : std::floor(e.lo), hi = e.lo > e.hi ? 1 : std::ceil(e.hi);
  if (hi <= lo) hi = lo + 1;
  const double stride = std::max(1.0, std::ceil((hi - lo) / 8));
  a.lo = std::floor(lo / stride) * stride;
  a.hi = std::ceil(hi / stride) * stride;
  for (double d = a.lo; d <= a.hi + 0.5; d += stride) a.ticks.push_back(d);
}

double tick_count(double lo, double hi, double step) {
  return std::ceil(hi / step) - std::floor(lo / step) + 1;
}

/// The largest round step (1, 2, 2.5 or 5 times a power of 10) that spans
/// [LO, HI] with at least 5 ticks, at most 8 then (consecutive steps differ by
/// at most 2x).
double nice_step(double lo, double hi) {
  double decade = std::pow(10, std::ceil(std::log10(hi - lo)));
  double step = decade;
  for (int i = 0; i < 8; ++i, decade /= 10)
    for (double m : {1.0, 0.5, 0.25, 0.2}) {
      step = m * decade;
      if (tick_count(lo, hi, step) >= 5) return step;
    }
  return step;
}

/// E with room around a single value; [0, 1] without values.
extent padded(extent e) {
  if (e.lo > e.hi) return {0, 1};
  if (e.hi - e.lo <= 1e-9 * std::max(std::fabs(e.lo), std::fabs(e.hi))) {
    const double pad = e.lo == 0 ? 1 : std::fabs(e.lo) * 0.1;
    return {e.lo - pad, e.hi + pad};
  }
  return e;
}

/// A linear axis widened to round values, 5 to 8 ticks on it; its two ends
/// only where doubles cannot step across it (a span over DBL_MAX, denormals).
void linear_ticks(axis& a, extent e) {
  e = padded(e);
  a.lo = e.lo, a.hi = e.hi, a.ticks = {e.lo, e.hi};
  if (!std::isfinite(e.hi - e.lo)) return;
  const double step = nice_step(e.lo, e.hi);
  const double first = std::floor(e.lo / step), last = std::ceil(e.hi / step);
  if (!(last - first >= 1 && last - first <= 10)) return;
  a.lo = first * step, a.hi = last * step, a.ticks.clear();
  for (double k = first; k <= last + 0.5; ++k) a.ticks.push_back(k * step);
}

/// 10^E for a tick: "1", "10", "100", "1k" ... "100E", "0.1" ... "0.001", else "1e-5", "1e21".
std::string decade_label(int e) {
  static const char* const mantissa[3] = {"1", "10", "100"};
  static const char* const prefix[7] = {"", "k", "M", "G", "T", "P", "E"};
  if (e >= 0 && e < 21) return std::string(mantissa[e % 3]) + prefix[e / 3];
  if (e >= -3 && e < 0) return e == -1 ? "0.1" : e == -2 ? "0.01" : "0.001";
  return "1e" + std::to_string(e);
}

std::string tick_label(const axis& a, double d) {
  if (a.log) return decade_label(static_cast<int>(std::lround(d)));
  const double step = a.ticks.size() > 1 ? a.ticks[1] - a.ticks[0] : 1;
  if (!std::isfinite(d)) return "";
  if (std::isfinite(step) && std::fabs(d) < std::fabs(step) * 1e-6) d = 0;  // not "-2.7e-17"
  return significant(d, 6);
}

/// The legend's width: room for the longest series name; 0 without series.
double legend_width(const bench_plot& p) {
  if (p.series.empty()) return 0;
  std::size_t longest = 0;
  for (const auto& s : p.series) longest = std::max(longest, s.name.size());
  return std::clamp(46 + 6.5 * static_cast<double>(longest), 100.0, 240.0);
}

/// Where everything goes: the two axes, and the legend right of the plot area.
struct layout {
  axis x, y;
  double right = 0, legend = 0;
};

layout make_layout(const bench_plot& p) {
  layout l;
  l.legend = legend_width(p);
  l.right = width - 15 - (l.legend > 0 ? l.legend + 12 : 0);
  l.x.log = p.log_x, l.x.from = left, l.x.to = l.right;
  l.y.log = p.log_y, l.y.from = bottom, l.y.to = top;
  p.log_x ? log_ticks(l.x, data_extent(p, true)) : linear_ticks(l.x, data_extent(p, true));
  p.log_y ? log_ticks(l.y, data_extent(p, false)) : linear_ticks(l.y, data_extent(p, false));
  return l;
}

void line(std::ostream& out, double x1, double y1, double x2, double y2, const char* stroke) {
  out << "<line x1=\"" << num(x1) << "\" y1=\"" << num(y1) << "\" x2=\"" << num(x2) << "\" y2=\""
      << num(y2) << "\" stroke=\"" << stroke << "\"/>\n";
}

void label(std::ostream& out, double x, double y, const char* anchor, const std::string& s) {
  out << "<text x=\"" << num(x) << "\" y=\"" << num(y) << "\" text-anchor=\"" << anchor << "\">"
      << text(s) << "</text>\n";
}

void x_ticks(std::ostream& out, const layout& l) {
  for (double d : l.x.ticks) {
    const double px = l.x.at(d);
    line(out, px, top, px, bottom, "#e4e4e4");
    line(out, px, bottom, px, bottom + 5, "#333");
    label(out, px, bottom + 18, "middle", tick_label(l.x, d));
  }
}

void y_ticks(std::ostream& out, const layout& l) {
  for (double d : l.y.ticks) {
    const double py = l.y.at(d);
    line(out, left, py, l.right, py, "#e4e4e4");
    line(out, left - 5, py, left, py, "#333");
    label(out, left - 8, py + 4, "end", tick_label(l.y, d));
  }
}

void axes(std::ostream& out, const bench_plot& p, const layout& l) {
  x_ticks(out, l);
  y_ticks(out, l);
  out << "<rect x=\"" << num(left) << "\" y=\"" << num(top) << "\" width=\"" << num(l.right - left)
      << "\" height=\"" << num(bottom - top) << "\" fill=\"none\" stroke=\"#333\"/>\n";
  label(out, (left + l.right) / 2, height - 14, "middle", p.x_label);
  out << "<text transform=\"translate(16," << num((top + bottom) / 2)
      << ") rotate(-90)\" text-anchor=\"middle\">" << text(p.y_label) << "</text>\n";
}

/// The stroke attributes of series I: its colour, and its dash pattern if any.
std::string stroke(std::size_t i) {
  std::string s = std::string("stroke=\"") + palette[i % 8] + "\" stroke-width=\"2\"";
  if (*dashes[i % 8]) s += std::string(" stroke-dasharray=\"") + dashes[i % 8] + "\"";
  return s;
}

/// The drawable points of S in runs: a point that cannot be drawn breaks the line.
std::vector<std::vector<bench_point>> runs(const bench_plot& p, const bench_series& s) {
  std::vector<std::vector<bench_point>> out(1);
  for (const auto& pt : s.points) {
    if (drawable(p, pt))
      out.back().push_back(pt);
    else if (!out.back().empty())
      out.emplace_back();
  }
  if (out.back().empty()) out.pop_back();
  return out;
}

void series(std::ostream& out, const bench_plot& p, const layout& l, std::size_t i) {
  for (const auto& run : runs(p, p.series[i])) {
    if (run.size() > 1) {
      out << "<polyline fill=\"none\" " << stroke(i) << " points=\"";
      for (const auto& pt : run) out << num(l.x.pixel(pt.x)) << "," << num(l.y.pixel(pt.y)) << " ";
      out << "\"/>\n";
    }
    for (const auto& pt : run)
      out << "<circle cx=\"" << num(l.x.pixel(pt.x)) << "\" cy=\"" << num(l.y.pixel(pt.y))
          << "\" r=\"3\" fill=\"" << palette[i % 8] << "\"/>\n";
  }
}

void legend(std::ostream& out, const bench_plot& p, const layout& l) {
  if (p.series.empty()) return;
  const double x0 = l.right + 12;
  out << "<rect x=\"" << num(x0) << "\" y=\"" << num(top) << "\" width=\"" << num(l.legend)
      << "\" height=\"" << num(10 + 18 * static_cast<double>(p.series.size()))
      << "\" fill=\"white\" stroke=\"#999\"/>\n";
  for (std::size_t i = 0; i < p.series.size(); ++i) {
    const double y = top + 18 + 18 * static_cast<double>(i);
    out << "<line x1=\"" << num(x0 + 8) << "\" y1=\"" << num(y - 4) << "\" x2=\"" << num(x0 + 34)
        << "\" y2=\"" << num(y - 4) << "\" " << stroke(i) << "/>\n";
    out << "<circle cx=\"" << num(x0 + 21) << "\" cy=\"" << num(y - 4) << "\" r=\"3\" fill=\""
        << palette[i % 8] << "\"/>\n";
    label(out, x0 + 40, y, "start", p.series[i].name);
  }
}

bool has_data(const bench_plot& p) {
  for (const auto& s : p.series)
    for (const auto& pt : s.points)
      if (drawable(p, pt)) return true;
  return false;
}

void no_data(std::ostream& out, const layout& l) {
  out << "<text x=\"" << num((left + l.right) / 2) << "\" y=\"" << num((top + bottom) / 2)
      << "\" text-anchor=\"middle\" font-size=\"16\" fill=\"#777\">no data</text>\n";
}

}  // namespace

std::string bench_svg(const bench_plot& p) {
  const layout l = make_layout(p);
  std::ostringstream out;
  out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"640\" height=\"400\" "
      << "viewBox=\"0 0 640 400\" font-family=\"sans-serif\" font-size=\"12\">\n"
      << "<title>" << text(p.title) << "</title>\n"
      << "<rect width=\"640\" height=\"400\" fill=\"white\"/>\n";
  out << "<text x=\"320\" y=\"24\" text-anchor=\"middle\" font-size=\"15\" "
      << "font-weight=\"bold\">" << text(p.title) << "</text>\n";
  axes(out, p, l);
  for (std::size_t i = 0; i < p.series.size(); ++i) series(out, p, l, i);
  if (!has_data(p)) no_data(out, l);
  legend(out, p, l);
  out << "</svg>\n";
  return out.str();
}

}  // namespace flushcheck
