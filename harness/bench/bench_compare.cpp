// `flushcheck bench --compare FILE`: the rows of a saved report whose ratio
// to their suite's baseline moved by more than a threshold, or whose write
// count changed at all (counts are exact).
#include <algorithm>
#include <cstdio>

#include "bench_report.hpp"
#include "error.hpp"
#include "number_format.hpp"

namespace flushcheck {
namespace {

const bench_suite* find_suite(const bench_report& r, const std::string& name) {
  for (const auto& s : r.suites)
    if (s.name == name) return &s;
  return nullptr;
}

/// "ratio 3.1 -> 6.2 (moved 100%, slower)": the move as the gate measures it.
std::string ratio_move(double before, double now) {
  const double moved = (std::max(now / before, before / now) - 1) * 100;
  return "ratio " + significant(before) + " -> " + significant(now) + " (moved " + fixed(moved, 0) +
         "%, " + (now > before ? "slower" : "faster") + ")";
}

/// What moved between BEFORE and NOW, the same row; "" when nothing did.
std::string moved(const bench_row& before, const bench_row* now, double threshold) {
  if (!now) return "not in this run";
  if (!now->measured()) return "not measured in this run: " + now->skipped;
  if (before.write_calls >= 0 && before.write_calls != now->write_calls)
    return "write calls " + std::to_string(before.write_calls) + " -> " +
           (now->write_calls >= 0 ? std::to_string(now->write_calls) : "not counted");
  // Either way alike: twice the ratio and half of it are both a move of 100%.
  if (before.ratio > 0 && now->ratio > 0 &&
      std::max(now->ratio / before.ratio, before.ratio / now->ratio) - 1 > threshold)
    return ratio_move(before.ratio, now->ratio);
  return "";
}

/// The measured rows of OLD_SUITE, the saved report's, against SUITE, this
/// run's, into OUT.
void compare_suite(const bench_suite& old_suite, const bench_suite& suite, double threshold,
                   bench_comparison& out) {
  for (const auto& row : old_suite.rows) {
    if (!row.measured()) continue;
    ++out.compared;
    std::string what = moved(row, find_row(suite, row.name), threshold);
    if (!what.empty()) out.moved.push_back({old_suite.name, row.name, what});
  }
}

}  // namespace

bench_comparison bench_compare(const bench_report& before, const bench_report& now,
                               double threshold) {
  if (before.quick != now.quick)
    throw usage_error(std::string("the saved report was run ") +
                      (before.quick ? "with" : "without") + " --quick and this one " +
                      (now.quick ? "with" : "without") + ": their sizes differ");
  bench_comparison out;
  for (const auto& old_suite : before.suites) {
    const bench_suite* suite = find_suite(now, old_suite.name);
    if (!suite) continue;  // a suite not run this time is not compared
    compare_suite(old_suite, *suite, threshold, out);
  }
  return out;
}

}  // namespace flushcheck
