#include "timeline_svg.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "escape.hpp"
#include "number_format.hpp"
#include "signals.hpp"
#include "svg_axis.hpp"
#include "timeline_lanes.hpp"

namespace flushcheck {
namespace {

using svg::attr;

constexpr double width = 1000, x0 = 210, x1 = 960, lane_h = 44, gap = 8, bin_px = 2;

// ---- the time axis --------------------------------------------------------

/// The run's last moment, in ms: its end, or a later mark.
double end_ms(const observation& obs, const std::vector<timeline_lane>& lanes) {
  std::int64_t end = obs.duration_us;
  for (const auto& l : lanes)
    for (const auto& m : l.marks) end = std::max({end, m.t_us, m.end_us});
  if (obs.kill) end = std::max(end, obs.kill->t_us);
  return std::max(0.001, static_cast<double>(end) / 1000);
}

/// A log axis when the marks crowd the start of a long run: half of them in
/// its first 2%, over more than 3 decades. Linear otherwise.
bool wants_log(const std::vector<timeline_lane>& lanes, double end) {
  std::vector<double> t;
  for (const auto& l : lanes)
    for (const auto& m : l.marks)
      if (m.t_us > 0) t.push_back(static_cast<double>(m.t_us) / 1000);
  if (t.size() < 8) return false;
  std::nth_element(t.begin(), t.begin() + static_cast<std::ptrdiff_t>(t.size() / 2), t.end());
  const double median = t[t.size() / 2], first = *std::min_element(t.begin(), t.end());
  return median < end * 0.02 && end / first > 1000;
}

svg::axis time_axis(const observation& obs, const std::vector<timeline_lane>& lanes) {
  const double end = end_ms(obs, lanes);
  if (!wants_log(lanes, end)) return svg::make_axis({0, end}, false, x0, x1);
  double first = end;
  for (const auto& l : lanes)
    for (const auto& m : l.marks)
      if (m.t_us > 0) first = std::min(first, static_cast<double>(m.t_us) / 1000);
  return svg::make_axis({std::log10(first), std::log10(end)}, true, x0, x1);
}

/// The pixel of a time (us); on a log axis, what is before its start at its start.
double px(const svg::axis& a, std::int64_t t_us) {
  const double ms = static_cast<double>(t_us) / 1000;
  if (a.log && (ms <= 0 || std::log10(ms) < a.lo)) return a.from;
  return std::clamp(a.pixel(ms), a.from, a.to);
}

// ---- lanes ----------------------------------------------------------------

const char* lane_colour(const timeline_lane& l) {
  return l.kind == lane_kind::write ? svg::colour(0) : svg::colour(2);
}

void lane_frame(svg::drawing& d, const timeline_lane& l, double y) {
  d.rect(x0, y, x1 - x0, lane_h, " fill=\"#f4f4f4\"");
  d.label(x0 - 8, y + 18, "end", l.name, " font-weight=\"bold\"");
  std::string what = l.what;
  if (l.not_logged > 0) what += ", " + std::to_string(l.not_logged) + " not logged";
  d.label(x0 - 8, y + 34, "end", what, " fill=\"#555\" font-size=\"11\"");
}

/// A mark's height: 4 px, up to the lane's, by log2 of its bytes against the lane's largest.
double height_of(double bytes, double most) {
  if (most <= 0) return 4;
  return 4 + (lane_h - 8) * std::log2(1 + std::max(0.0, bytes)) / std::log2(1 + most);
}

double most_bytes(const timeline_lane& l) {
  std::int64_t most = 0;
  for (const auto& m : l.marks) most = std::max(most, m.bytes);
  return static_cast<double>(most);
}

void stopped_mark(svg::drawing& d, const svg::axis& a, const timeline_mark& m, double y) {
  const double x = px(a, m.t_us);
  d.rect(x - 3, y + 2, 6, lane_h - 4,
         std::string(" class=\"mark write stopped\" fill=\"none\" stroke-width=\"2\"") +
             attr("stroke", svg::colour(1)) + " stroke-dasharray=\"3 2\"" +
             attr("data-t-us", std::to_string(m.t_us)) +
             attr("data-bytes", std::to_string(m.bytes)),
         m.title);
  const bool room = x < x1 - 110;
  d.label(room ? x + 6 : x - 6, y + 12, room ? "start" : "end", "stopped at entry",
          attr("fill", svg::colour(1)) + " font-size=\"11\"");
}

void one_mark(svg::drawing& d, const svg::axis& a, const timeline_lane& l, const timeline_mark& m,
              double y, double most) {
  const double x = px(a, m.t_us);
  const double w = m.end_us >= 0 ? std::max(1.5, px(a, m.end_us) - x) : 1.5;
  const double h = height_of(static_cast<double>(m.bytes), most);
  d.rect(x, y + lane_h - 2 - h, w, h,
         std::string(" class=\"mark ") + css_class(l.kind) + "\"" + attr("fill", lane_colour(l)) +
             attr("data-t-us", std::to_string(m.t_us)) +
             attr("data-bytes", std::to_string(m.bytes)),
         m.title);
}

/// A dense lane's marks per bin of bin_px pixels: calls, bytes, first and last time.
struct bin {
  std::int64_t calls = 0, bytes = 0, first_us = INT64_MAX, last_us = 0;
};

/// A dense lane's bins, and the calls of its busiest one.
struct lane_bins {
  std::vector<bin> all;
  double most = 0;
};

lane_bins binned(const svg::axis& a, const timeline_lane& l) {
  lane_bins dense{std::vector<bin>(static_cast<std::size_t>((x1 - x0) / bin_px) + 1), 0};
  for (const auto& m : l.marks) {
    if (m.stopped) continue;
    bin& b = dense.all[static_cast<std::size_t>((px(a, m.t_us) - x0) / bin_px)];
    ++b.calls, b.bytes += m.bytes;
    b.first_us = std::min(b.first_us, m.t_us), b.last_us = std::max(b.last_us, m.t_us);
  }
  for (const auto& b : dense.all) dense.most = std::max(dense.most, static_cast<double>(b.calls));
  return dense;
}

/// Bin I of lane L (its I-th bin_px pixels) in the lane at Y, its height by
/// its calls against the lane's busiest bin.
void one_bin(svg::drawing& d, const timeline_lane& l, const lane_bins& dense, std::size_t i,
             double y) {
  const bin& b = dense.all[i];
  const double x = x0 + bin_px * static_cast<double>(i);
  const char* what = l.kind == lane_kind::write ? " calls, " : " reads, ";
  const double h = height_of(static_cast<double>(b.calls), dense.most);
  d.rect(x, y + lane_h - 2 - h, bin_px, h,
         std::string(" class=\"bin ") + css_class(l.kind) + "\"" + attr("fill", lane_colour(l)) +
             attr("data-calls", std::to_string(b.calls)) +
             attr("data-bytes", std::to_string(b.bytes)),
         std::to_string(b.calls) + what + std::to_string(b.bytes) + " bytes, from " +
             format_ms(b.first_us) + " to " + format_ms(b.last_us));
}

void bins(svg::drawing& d, const svg::axis& a, const timeline_lane& l, double y) {
  const lane_bins dense = binned(a, l);
  for (std::size_t i = 0; i < dense.all.size(); ++i)
    if (dense.all[i].calls != 0) one_bin(d, l, dense, i, y);
}

void lane(svg::drawing& d, const svg::axis& a, const timeline_lane& l, double y) {
  d.open_group(" class=\"lane\"" + attr("data-lane", l.name));
  lane_frame(d, l, y);
  const double most = most_bytes(l);
  if (l.marks.size() > timeline_max_marks) bins(d, a, l, y);
  for (const auto& m : l.marks)
    if (m.stopped)
      stopped_mark(d, a, m, y);
    else if (l.marks.size() <= timeline_max_marks)
      one_mark(d, a, l, m, y, most);
  d.close_group();
}

// ---- markers, the cut, the exit -------------------------------------------

void markers(svg::drawing& d, const observation& obs, const svg::axis& a, double top,
             double bottom) {
  for (std::size_t i = 0; i < obs.markers.size(); ++i) {
    const marker_event& m = obs.markers[i];
    const double x = px(a, m.t_us);
    const std::string name = "marker " + std::to_string(i + 1) + " '" + m.label + "'";
    d.line(x, top - 14, x, bottom,
           " class=\"marker\" stroke-width=\"1.5\" stroke-dasharray=\"5 3\"" +
               attr("stroke", svg::colour(3)) + attr("data-t-us", std::to_string(m.t_us)),
           name + " at " + format_ms(m.t_us) + ": visible stdout " +
               std::to_string(m.stdout_visible) + ", stderr " + std::to_string(m.stderr_visible));
    d.label(x + 3, top - 16 - 11 * static_cast<double>(i % 2), "start", name,
            attr("fill", svg::colour(3)) + " font-size=\"11\"");
  }
}

/// "SIGKILL at marker:1, delivered at 29.8 ms", or the exit and when.
std::string ending_text(const observation& obs, bool cut, std::int64_t t) {
  return cut ? "SIG" + signal_name(obs.kill->signal) + " at " + obs.kill->when + ", delivered at " +
                   format_ms(t)
             : obs.status.describe() + ", ended at " + format_ms(t);
}

void ending(svg::drawing& d, const observation& obs, const svg::axis& a, double top,
            double bottom) {
  const bool cut = obs.kill && obs.kill->delivered;
  const std::int64_t t = cut ? obs.kill->t_us : obs.duration_us;
  const std::string what = ending_text(obs, cut, t);
  const double x = px(a, t);
  d.line(x, top - 4, x, bottom,
         std::string(cut ? " class=\"cut\"" : " class=\"exit\"") + " stroke-width=\"2.5\"" +
             attr("stroke", cut ? svg::colour(1) : svg::colour(6)) +
             attr("data-t-us", std::to_string(t)),
         what);
  d.label(x - 4, bottom + 34, "end", what,
          attr("fill", cut ? svg::colour(1) : svg::colour(6)) + " font-weight=\"bold\"");
}

// ---- the end state --------------------------------------------------------

std::string amount(std::uint64_t bytes, std::optional<std::uint64_t> lines) {
  std::string s = std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
  if (lines) s += ", " + std::to_string(*lines) + (*lines == 1 ? " line" : " lines");
  return s;
}

/// Whole lines in S's data, when it kept all of it.
std::optional<std::uint64_t> lines_of(const stream_observation& s) {
  if (s.dropped > 0 || s.data.size() != s.bytes) return std::nullopt;
  return static_cast<std::uint64_t>(std::count(s.data.begin(), s.data.end(), '\n'));
}

/// The stream's name and the part of its bar that reached the reader (REACHED_W
/// px); returns what that part says.
std::string reached_bar(svg::drawing& d, const stream_observation& s, const std::string& stream,
                        double reached_w, double y) {
  const std::string reached = amount(s.bytes, lines_of(s)) + " reached the reader";
  d.label(x0 - 8, y + 13, "end", stream, " font-weight=\"bold\"");
  d.rect(x0, y, reached_w, 18, " class=\"reached\"" + attr("fill", svg::colour(2)), reached);
  return reached;
}

/// The part of the bar that was lost (what PRODUCED has past S), after
/// REACHED_W px; returns what it says.
std::string lost_bar(svg::drawing& d, const stream_observation& s, const produced_output& produced,
                     double reached_w, double y) {
  const std::uint64_t lost = produced.bytes > s.bytes ? produced.bytes - s.bytes : 0;
  const auto lines = lines_of(s);
  const std::uint64_t lost_lines = lines && produced.lines > *lines ? produced.lines - *lines : 0;
  const std::string l = amount(lost, lost_lines) + " lost (by " + produced.source + ")";
  d.rect(x0 + reached_w, y, (x1 - x0) - reached_w, 18,
         " class=\"lost\"" + attr("fill", svg::colour(1)) + " fill-opacity=\"0.75\"", l);
  return l;
}

void end_bar(svg::drawing& d, const stream_observation& s, const std::string& stream,
             const std::optional<produced_output>& produced, bool primary, double y) {
  const std::uint64_t lost = produced && produced->bytes > s.bytes ? produced->bytes - s.bytes : 0;
  const double total = static_cast<double>(std::max<std::uint64_t>(1, s.bytes + lost));
  const double reached_w = (x1 - x0) * static_cast<double>(s.bytes) / total;
  std::string text = reached_bar(d, s, stream, reached_w, y);
  if (produced && lost > 0) {
    text += "; " + lost_bar(d, s, *produced, reached_w, y);
  } else if (!produced && primary) {
    text += "; what was lost is not known here (explore and doctor compare with an uncut run)";
  } else if (produced) {
    text += "; nothing lost (by " + produced->source + ")";
  }
  d.label(x0, y + 32, "start", text, " font-size=\"11\"");
}

/// The end state's line for stdout's sink (or stderr's, ERR) at Y, if it has
/// one of its own; returns the next line's y.
double stream_end(svg::drawing& d, const observation& obs, const timeline_options& o, bool err,
                  double y) {
  const stream_observation& s = err ? obs.err : obs.out;
  if (!s.sink.sink()) return y;  // none, or merged into stdout's line
  const std::string stream = err ? "stderr" : obs.err.sink.merged() ? "stdout+stderr" : "stdout";
  if (!has_reader(s)) {  // /dev/null, /dev/full: nothing reaches a reader, nothing to weigh
    d.label(x0 - 8, y + 13, "end", stream, " font-weight=\"bold\"");
    d.label(x0, y + 13, "start", "on " + std::string(s.sink.name()) + ": no reader",
            " font-size=\"11\"");
    return y + 24;
  }
  end_bar(d, s, stream, o.on_stderr == err ? o.produced : std::nullopt, o.on_stderr == err, y);
  return y + 44;
}

double end_state(svg::drawing& d, const observation& obs, const timeline_options& o, double y) {
  d.label(x0, y, "start", "At the end", " font-weight=\"bold\"");
  y += 8;
  for (const bool err : {false, true}) y = stream_end(d, obs, o, err, y);
  return y;
}

// ---- the whole ----------------------------------------------------------------

/// What each colour means, as the legend says it.
struct legend_key {
  const char* name;
  std::size_t colour;  // svg::colour's index
};

constexpr legend_key legend_keys[] = {{"write call (height: bytes, width: time blocked)", 0},
                                      {"read by the reader", 2},
                                      {"marker", 3},
                                      {"cut, or a write stopped at entry", 1},
                                      {"exit", 6}};

void legend(svg::drawing& d, double y) {
  d.open_group(" class=\"legend\"");
  double x = x0;
  for (const auto& k : legend_keys) {
    d.rect(x, y - 9, 10, 10, attr("fill", svg::colour(k.colour)));
    d.label(x + 14, y, "start", k.name, " font-size=\"11\"");
    x += 24 + 6 * std::string(k.name).size();
  }
  d.close_group();
}

/// Where the lanes start and end, and the picture's height: below the title
/// and a line for each of MISSING lanes, a lane each of LANES.
struct page_layout {
  double top, bottom, height;
};

page_layout layout_of(std::size_t missing, std::size_t lanes) {
  const double top = 64 + 16 * static_cast<double>(missing);
  const double bottom = top + static_cast<double>(lanes) * (lane_h + gap);
  const double height = bottom + 110 + 44 * 2 + 30;
  return {top, bottom, height};
}

/// The title, then why the lanes MISSING are not drawn.
void heading(svg::drawing& d, const std::string& full_title,
             const std::vector<std::string>& missing) {
  const std::string title = cut_text(full_title, 120);
  d.label(x0, 22, "start", title, " font-size=\"14\" font-weight=\"bold\"");
  for (std::size_t i = 0; i < missing.size(); ++i)
    d.label(x0, 40 + 16 * static_cast<double>(i), "start", missing[i],
            " class=\"missing\" fill=\"#555\" font-size=\"11\"");
}

/// The time axis's ticks from TOP to BOTTOM, and its caption.
void time_scale(svg::drawing& d, const svg::axis& a, double top, double bottom) {
  svg::x_ticks(d, a, top - 4, bottom);
  d.label((x0 + x1) / 2, bottom + 52, "middle",
          std::string("ms since the program started") + (a.log ? " (log scale)" : ""));
}

void all_lanes(svg::drawing& d, const svg::axis& a, const std::vector<timeline_lane>& lanes,
               double top) {
  for (std::size_t i = 0; i < lanes.size(); ++i)
    lane(d, a, lanes[i], top + static_cast<double>(i) * (lane_h + gap));
}

}  // namespace

std::string timeline_svg(const observation& obs, const timeline_options& o) {
  const std::vector<timeline_lane> lanes = timeline_lanes(obs);
  const std::vector<std::string> missing = missing_lanes(obs);
  const page_layout at = layout_of(missing.size(), lanes.size());
  const svg::axis a = time_axis(obs, lanes);
  svg::drawing d(width, at.height, o.title);
  heading(d, o.title, missing);
  time_scale(d, a, at.top, at.bottom);
  all_lanes(d, a, lanes, at.top);
  markers(d, obs, a, at.top, at.bottom);
  ending(d, obs, a, at.top, at.bottom);
  const double after = end_state(d, obs, o, at.bottom + 84);
  legend(d, after + 8);
  return d.finish();
}

}  // namespace flushcheck
