#include "svg_axis.hpp"

#include <algorithm>

#include "number_format.hpp"

namespace flushcheck::svg {

namespace {

/// A log axis from decade to decade, a tick at each (every Nth when over 8).
void log_ticks(axis& a, extent e) {
  double lo = e.empty() ? 0 : std::floor(e.lo), hi = e.empty() ? 1 : std::ceil(e.hi);
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
  if (e.empty()) return {0, 1};
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

}  // namespace

bool drawable(double v, bool log) { return std::isfinite(v) && (!log || v > 0); }

double axis::at(double d) const {
  const double t = std::isfinite(hi - lo) ? (d - lo) / (hi - lo)
                                          : (d / 2 - lo / 2) / (hi / 2 - lo / 2);  // over DBL_MAX
  return from + t * (to - from);
}

std::string axis::tick_label(double d) const {
  if (log) return decade_label(static_cast<int>(std::lround(d)));
  const double step = ticks.size() > 1 ? ticks[1] - ticks[0] : 1;
  if (!std::isfinite(d)) return "";
  if (std::isfinite(step) && std::fabs(d) < std::fabs(step) * 1e-6) d = 0;  // not "-2.7e-17"
  return significant(d, 6);
}

axis make_axis(extent e, bool log, double from, double to) {
  axis a;
  a.log = log, a.from = from, a.to = to;
  log ? log_ticks(a, e) : linear_ticks(a, e);
  return a;
}

void x_ticks(drawing& d, const axis& x, double top, double bottom) {
  for (double t : x.ticks) {
    const double px = x.at(t);
    d.line(px, top, px, bottom, " stroke=\"#e4e4e4\"");
    d.line(px, bottom, px, bottom + 5, " stroke=\"#333\"");
    d.label(px, bottom + 18, "middle", x.tick_label(t));
  }
}

void y_ticks(drawing& d, const axis& y, double left, double right) {
  for (double t : y.ticks) {
    const double py = y.at(t);
    d.line(left, py, right, py, " stroke=\"#e4e4e4\"");
    d.line(left - 5, py, left, py, " stroke=\"#333\"");
    d.label(left - 8, py + 4, "end", y.tick_label(t));
  }
}

}  // namespace flushcheck::svg
