// One bench plot as a standalone SVG document on the SVG layer (svg.hpp,
// svg_axis.hpp): axes with ticks, a line and dots per series in a colour and
// dash pattern of its own, a legend.
#include <algorithm>
#include <vector>

#include "bench_report.hpp"
#include "svg_axis.hpp"

namespace flushcheck {
namespace {

using svg::attr;

constexpr double width = 640, height = 400;
constexpr double left = 70, top = 40, bottom = 345;  // the plot area; its right edge: layout()

bool drawable(const bench_plot& p, const bench_point& pt) {
  return svg::drawable(pt.x, p.log_x) && svg::drawable(pt.y, p.log_y);
}

/// The drawable points' extent on one axis, in drawing space.
svg::extent data_extent(const bench_plot& p, bool x_axis) {
  svg::extent e;
  const bool log = x_axis ? p.log_x : p.log_y;
  for (const auto& s : p.series)
    for (const auto& pt : s.points) {
      if (!drawable(p, pt)) continue;
      const double v = x_axis ? pt.x : pt.y;
      e.add(log ? std::log10(v) : v);
    }
  return e;
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
  svg::axis x, y;
  double right = 0, legend = 0;
};

layout make_layout(const bench_plot& p) {
  layout l;
  l.legend = legend_width(p);
  l.right = width - 15 - (l.legend > 0 ? l.legend + 12 : 0);
  l.x = svg::make_axis(data_extent(p, true), p.log_x, left, l.right);
  l.y = svg::make_axis(data_extent(p, false), p.log_y, bottom, top);
  return l;
}

void axes(svg::drawing& d, const bench_plot& p, const layout& l) {
  svg::x_ticks(d, l.x, top, bottom);
  svg::y_ticks(d, l.y, left, l.right);
  d.rect(left, top, l.right - left, bottom - top, " fill=\"none\" stroke=\"#333\"");
  d.label((left + l.right) / 2, height - 14, "middle", p.x_label);
  d.out() << "<text transform=\"translate(16," << svg::num((top + bottom) / 2)
          << ") rotate(-90)\" text-anchor=\"middle\">" << svg::text(p.y_label) << "</text>\n";
}

/// The stroke attributes of series I: its colour, and its dash pattern if any.
std::string stroke(std::size_t i) {
  std::string s = attr("stroke", svg::colour(i)) + " stroke-width=\"2\"";
  if (*svg::dash(i)) s += attr("stroke-dasharray", svg::dash(i));
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

void dot(svg::drawing& d, double x, double y, std::size_t i) {
  d.out() << "<circle" << attr("cx", x) << attr("cy", y) << " r=\"3\""
          << attr("fill", svg::colour(i)) << "/>\n";
}

void series(svg::drawing& d, const bench_plot& p, const layout& l, std::size_t i) {
  for (const auto& run : runs(p, p.series[i])) {
    if (run.size() > 1) {
      d.out() << "<polyline fill=\"none\"" << stroke(i) << " points=\"";
      for (const auto& pt : run)
        d.out() << svg::num(l.x.pixel(pt.x)) << "," << svg::num(l.y.pixel(pt.y)) << " ";
      d.out() << "\"/>\n";
    }
    for (const auto& pt : run) dot(d, l.x.pixel(pt.x), l.y.pixel(pt.y), i);
  }
}

void legend(svg::drawing& d, const bench_plot& p, const layout& l) {
  if (p.series.empty()) return;
  const double x0 = l.right + 12;
  d.rect(x0, top, l.legend, 10 + 18 * static_cast<double>(p.series.size()),
         " fill=\"white\" stroke=\"#999\"");
  for (std::size_t i = 0; i < p.series.size(); ++i) {
    const double y = top + 18 + 18 * static_cast<double>(i);
    d.line(x0 + 8, y - 4, x0 + 34, y - 4, stroke(i));
    dot(d, x0 + 21, y - 4, i);
    d.label(x0 + 40, y, "start", p.series[i].name);
  }
}

bool has_data(const bench_plot& p) {
  for (const auto& s : p.series)
    for (const auto& pt : s.points)
      if (drawable(p, pt)) return true;
  return false;
}

}  // namespace

std::string to_svg(const bench_plot& p) {
  const layout l = make_layout(p);
  svg::drawing d(width, height, p.title);
  d.label(width / 2, 24, "middle", p.title, " font-size=\"15\" font-weight=\"bold\"");
  axes(d, p, l);
  for (std::size_t i = 0; i < p.series.size(); ++i) series(d, p, l, i);
  if (!has_data(p))
    d.label((left + l.right) / 2, (top + bottom) / 2, "middle", "no data",
            " font-size=\"16\" fill=\"#777\"");
  legend(d, p, l);
  return d.finish();
}

}  // namespace flushcheck
