#pragma once
/// Axes of the SVG layer (svg.hpp): a linear or log scale from values to
/// pixels, round ticks (log axes by decades, linear ones at 5 to 8 round
/// values), and the ticks and grid drawn.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "svg.hpp"

namespace flushcheck::svg {

/// The least and greatest of some values, in drawing space (log10 of the
/// value on a log axis); lo > hi while there is none.
struct extent {
  double lo = INFINITY, hi = -INFINITY;
  void add(double d) {
    lo = std::min(lo, d);
    hi = std::max(hi, d);
  }
  bool empty() const { return lo > hi; }
};

/// V can be drawn: finite, and above 0 on a log axis.
bool drawable(double v, bool log);

/// One axis: its span in drawing space, the pixels of its two ends, and its
/// ticks (in drawing space).
struct axis {
  bool log = false;
  double lo = 0, hi = 1;
  double from = 0, to = 0;
  std::vector<double> ticks;

  /// The pixel of D, in drawing space.
  double at(double d) const;
  /// The pixel of value V.
  double pixel(double v) const { return at(log ? std::log10(v) : v); }
  /// A tick's label: "1", "10", "1k", ... on a log axis; the value otherwise.
  std::string tick_label(double d) const;
};

/// An axis over E (drawing space), widened to round ticks, from pixel FROM to TO.
axis make_axis(extent e, bool log, double from, double to);

/// The x axis's ticks, labels and grid lines between TOP and BOTTOM.
void x_ticks(drawing& d, const axis& x, double top, double bottom);
/// The y axis's, between LEFT and RIGHT.
void y_ticks(drawing& d, const axis& y, double left, double right);

}  // namespace flushcheck::svg
