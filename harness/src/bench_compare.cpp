// `flushcheck bench --compare FILE`: the rows of a saved report whose ratio
// to their suite's baseline moved by more than a threshold, or whose write
// count changed at all (counts are exact).
#include <algorithm>
#include <cstdio>

#include "flushcheck/bench_report.hpp"

namespace flushcheck {
namespace {

const bench_suite* find_suite(const bench_report& r, const std::string& name) {
  for (const auto& s : r.suites)
    if (s.name == name) return &s;
  return nullptr;
}

const bench_row* find(const bench_suite& s, const std::string& name) {
  for (const auto& r : s.rows)
    if (r.name == name) return &r;
  return nullptr;
}

std::string ratio_move(double before, double now) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "ratio %.3g -> %.3g (%+.0f%%)", before, now,
                (now / before - 1) * 100);
  return buf;
}

/// What moved between BEFORE and NOW, the same row; "" when nothing did.
std::string moved(const bench_row& before, const bench_row* now, double threshold) {
  if (!now) return "not in this run";
  if (!now->measured()) return "not measured in this run: " + now->skipped;
  if (before.write_calls >= 0 && now->write_calls >= 0 && before.write_calls != now->write_calls)
    return "write calls " + std::to_string(before.write_calls) + " -> " +
           std::to_string(now->write_calls);
  // Either way alike: twice the ratio and half of it are both a move of 100%.
  if (before.ratio > 0 && now->ratio > 0 &&
      std::max(now->ratio / before.ratio, before.ratio / now->ratio) - 1 > threshold)
    return ratio_move(before.ratio, now->ratio);
  return "";
}

}  // namespace

std::vector<bench_change> bench_compare(const bench_report& before, const bench_report& now,
                                        double threshold) {
  std::vector<bench_change> out;
  for (const auto& old_suite : before.suites) {
    const bench_suite* suite = find_suite(now, old_suite.name);
    if (!suite) continue;  // a suite not run this time is not compared
    for (const auto& row : old_suite.rows) {
      if (!row.measured()) continue;
      std::string what = moved(row, find(*suite, row.name), threshold);
      if (!what.empty()) out.push_back({old_suite.name, row.name, what});
    }
  }
  return out;
}

}  // namespace flushcheck
