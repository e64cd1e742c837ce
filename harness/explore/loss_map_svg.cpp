// explore's loss map on the SVG layer (svg.hpp): which cut loses what where.
// A column per cut point (markers and write boundaries) in the order the
// program reached them, a row per sink and signal (or fault), the pty's
// first: the baseline. A cell's shade is the lines its run lost.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <map>

#include "escape.hpp"
#include "explore.hpp"
#include "number_format.hpp"
#include "signals.hpp"
#include "svg.hpp"

namespace flushcheck {
namespace {

using svg::attr;

constexpr double name_w = 170, top = 96, cell_h = 24;

struct map_row {
  std::string name;  ///< "pipe · SIGKILL", "pipe · EAGAIN"
  const explored_sink* sink = nullptr;
  std::map<std::string, const explored_cut*> cells;  ///< by column
};

/// The cut point of C: "marker:2", "write:3", "after-write:3" (stderr's too).
std::string column_of(const explored_cut& c) {
  std::string when = c.fault ? "write:" + std::to_string(c.fault->n) : c.cut.when_text();
  return when.starts_with("stderr:") ? when.substr(7) : when;
}

std::string row_of(const explored_sink& s, const explored_cut& c) {
  const std::string what = c.fault ? c.fault->text().substr(0, c.fault->text().find('@'))
                                   : "SIG" + signal_name(c.cut.signal);
  return std::string(to_string(s.sink)) + " · " + what;
}

/// The sinks, the pty's first (the baseline), the others in their order.
std::vector<const explored_sink*> pty_first(const std::vector<explored_sink>& result) {
  std::vector<const explored_sink*> sinks;
  for (const auto& s : result) sinks.push_back(&s);
  std::stable_partition(sinks.begin(), sinks.end(),
                        [](const explored_sink* s) { return s->sink == sink_kind::pty; });
  return sinks;
}

/// The row of sink S and NAME (its signal or fault) that has no run at cut
/// point COLUMN yet, added if there is none: a signal or a sink given twice
/// gets a row each time.
map_row& row_for_cut(std::vector<map_row>& rows, const explored_sink* s, const std::string& name,
                     const std::string& column) {
  auto it = std::find_if(rows.begin(), rows.end(), [&](const map_row& r) {
    return r.sink == s && r.name == name && !r.cells.contains(column);
  });
  if (it == rows.end()) it = rows.insert(rows.end(), {name, s, {}});
  return *it;
}

/// The pty's rows first (the baseline), then the other sinks' in their order.
std::vector<map_row> rows_of(const std::vector<explored_sink>& result) {
  std::vector<map_row> rows;
  for (const explored_sink* s : pty_first(result))
    for (const auto& c : s->cuts) {
      const std::string name = row_of(*s, c), column = column_of(c);
      row_for_cut(rows, s, name, column).cells[column] = &c;
    }
  return rows;
}

/// When the program reached cut point COLUMN in S's uncut run (us; -1: not known).
double reached_at(const explored_sink& s, const std::string& column) {
  std::size_t n = 0;
  const std::string_view number = std::string_view(column).substr(column.rfind(':') + 1);
  if (std::from_chars(number.data(), number.data() + number.size(), n).ec != std::errc()) return -1;
  const observation& ref = s.reference;
  if (column.starts_with("marker:"))
    return n >= 1 && n <= ref.markers.size() ? static_cast<double>(ref.markers[n - 1].t_us) : -1;
  if (!ref.trace) return -1;
  const auto writes = ref.trace->stream_writes(s.on_stderr);
  if (n < 1 || n > writes.size()) return -1;
  return static_cast<double>(writes[n - 1]->t_us) + (column.starts_with("after-") ? 0.5 : 0);
}

/// R's columns in the order its uncut run reached them (unknown last).
std::vector<std::string> row_order(const map_row& r) {
  std::vector<std::pair<double, std::string>> order;
  for (const auto& [column, cut] : r.cells) {
    const double t = reached_at(*r.sink, column);
    order.emplace_back(t < 0 ? 1e300 : t, column);
  }
  std::stable_sort(order.begin(), order.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> out;
  for (const auto& [t, column] : order) out.push_back(column);
  return out;
}

/// R's columns into OUT: each new one right after the column R reached
/// before it.
void merge_columns(std::vector<std::string>& out, const map_row& r) {
  std::size_t at = 0;
  for (const auto& column : row_order(r)) {
    const auto it = std::find(out.begin(), out.end(), column);
    if (it != out.end()) {
      at = std::max(at, static_cast<std::size_t>(it - out.begin()) + 1);
    } else {
      out.insert(out.begin() + static_cast<std::ptrdiff_t>(at), column);
      ++at;
    }
  }
}

/// Every row's columns in program order: the first row's order, and each
/// later row's new columns right after the column it reached before them.
/// (Runs' clocks differ: times are compared only within a row.)
std::vector<std::string> columns_of(const std::vector<map_row>& rows) {
  std::vector<std::string> out;
  for (const auto& r : rows) merge_columns(out, r);
  return out;
}

std::size_t most_lost(const std::vector<map_row>& rows) {
  std::size_t most = 0;
  for (const auto& r : rows)
    for (const auto& [column, c] : r.cells) most = std::max(most, c->delivered ? c->lines_lost : 0);
  return most;
}

/// 0 for no loss, else 1 to 4 by the share of the most any cell lost.
int level_of(std::size_t lost, std::size_t most) {
  if (lost == 0 || most == 0) return 0;
  return std::clamp(static_cast<int>((4 * lost + most - 1) / most), 1, 4);
}

std::string cell_title(const map_row& r, const std::string& column, const explored_cut& c) {
  const std::uint64_t lost_bytes =
      r.sink->reference_bytes > c.bytes ? r.sink->reference_bytes - c.bytes : 0;
  std::string s = r.name + " at " + column + ": ";
  if (!c.delivered)
    return s + "not reached (the run ended first); " + c.status.describe() + "\nrepro: " + c.repro;
  return s + std::to_string(c.lines_lost) + " of " + std::to_string(r.sink->reference_lines) +
         " lines lost (" + std::to_string(lost_bytes) + " bytes); " + c.status.describe() +
         (c.prefix ? "" : "; not a prefix of the uncut run") + "\nrepro: " + c.repro;
}

void cell(svg::drawing& d, const map_row& r, const std::string& column, const explored_cut& c,
          double x, double y, double w, std::size_t most) {
  const int level = c.delivered ? level_of(c.lines_lost, most) : 0;
  std::string a = " class=\"cell" + std::string(c.delivered ? "" : " unreached") + "\"" +
                  attr("fill", c.delivered ? svg::shade(level) : "#d9d9d9") + " stroke=\"#bbb\"" +
                  attr("data-row", r.name) + attr("data-cut", column) +
                  attr("data-lines-lost", std::to_string(c.delivered ? c.lines_lost : 0));
  d.rect(x, y, w, cell_h, a, cell_title(r, column, c));
  if (!c.prefix && c.delivered) d.label(x + w / 2, y + 16, "middle", "≠", " font-size=\"12\"");
}

void column_labels(svg::drawing& d, const std::vector<std::string>& columns, double w) {
  const std::size_t every = std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil(12 / w)));
  for (std::size_t i = 0; i < columns.size(); i += every) {
    const double x = name_w + w * (static_cast<double>(i) + 0.5);
    d.out() << "<text transform=\"translate(" << svg::num(x + 4) << "," << svg::num(top - 6)
            << ") rotate(-60)\" font-size=\"11\">" << svg::text(columns[i]) << "</text>\n";
  }
}

/// The lines lost that LEVEL (1 to 4) shades, as level_of gives it: "1", "2-3".
std::string level_range(int level, std::size_t most) {
  const std::size_t lo = most * static_cast<std::size_t>(level - 1) / 4 + 1;
  const std::size_t hi = most * static_cast<std::size_t>(level) / 4;
  if (lo > hi) return "";
  return lo == hi ? std::to_string(lo) : std::to_string(lo) + "-" + std::to_string(hi);
}

/// A swatch per level of loss and the lines it stands for, at height Y;
/// returns where they end.
double level_keys(svg::drawing& d, std::size_t most, double y) {
  double x = name_w;
  for (int level = 0; level <= 4; ++level) {
    const std::string range = level == 0 ? "0" : level_range(level, most);
    if (range.empty()) continue;
    d.rect(x, y, 14, 14, attr("fill", svg::shade(level)) + " stroke=\"#999\"");
    d.label(x + 18, y + 12, "start", range, " font-size=\"11\"");
    x += 30 + 7 * static_cast<double>(range.size());
  }
  return x;
}

void legend(svg::drawing& d, std::size_t most, double y) {
  d.open_group(" class=\"legend\"");
  d.label(name_w - 8, y + 12, "end", "lines lost:");
  const double x = level_keys(d, most, y);
  d.rect(x + 10, y, 14, 14, " fill=\"#d9d9d9\" stroke=\"#999\"");
  d.label(x + 28, y + 12, "start", "not reached", " font-size=\"11\"");
  d.label(x + 110, y + 12, "start", "≠: not a prefix of the uncut run", " font-size=\"11\"");
  d.close_group();
}

/// The title on one line, cut to what WIDTH holds.
void title_label(svg::drawing& d, const std::string& title, double width) {
  const auto room = static_cast<std::size_t>((width - 20) / 7.5);
  d.label(10, 20, "start", cut_text(title, room), " font-size=\"14\" font-weight=\"bold\"");
}

/// Row R at height Y: its name, then a cell at each column it has a run at.
void map_line(svg::drawing& d, const map_row& r, const std::vector<std::string>& columns, double y,
              double w, std::size_t most) {
  d.label(name_w - 8, y + 16, "end", r.name,
          r.sink->sink == sink_kind::pty ? " font-weight=\"bold\"" : "");
  for (std::size_t k = 0; k < columns.size(); ++k)
    if (auto it = r.cells.find(columns[k]); it != r.cells.end())
      cell(d, r, columns[k], *it->second, name_w + w * static_cast<double>(k), y, w, most);
}

}  // namespace

std::string loss_map_svg(const std::vector<explored_sink>& result, const std::string& title) {
  const std::vector<map_row> rows = rows_of(result);
  const std::vector<std::string> columns = columns_of(rows);
  const double w = std::clamp(780.0 / std::max<std::size_t>(1, columns.size()), 4.0, 28.0);
  const double width = std::max(820.0, name_w + w * static_cast<double>(columns.size()) + 20);
  const double height = top + cell_h * static_cast<double>(rows.size()) + 60;
  const std::size_t most = most_lost(rows);
  svg::drawing d(width, height, title);
  title_label(d, title, width);
  column_labels(d, columns, w);
  for (std::size_t i = 0; i < rows.size(); ++i)
    map_line(d, rows[i], columns, top + cell_h * static_cast<double>(i), w, most);
  legend(d, most, height - 34);
  return d.finish();
}

}  // namespace flushcheck
