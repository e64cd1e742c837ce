#pragma once
/// The numbers of a bench report as people read them, one way for every
/// reporter (text, Markdown, HTML): seconds with their unit, MB/s, ratios to
/// the baseline, write counts, and a row's extra values.
#include <cstdint>
#include <map>
#include <string>

namespace flushcheck::detail {

/// V in "%.3g": a figure in a claim's words, or one too large or small to print in full.
std::string number(double v);

/// 3 significant digits in s, ms, us or ns: "1.52 s", "12.3 ms", "850 us";
/// "-" for 0, a negative or a non-finite number.
std::string format_seconds(double s);

/// Bytes per second in MB/s (1 MB = 1e6 bytes): one decimal from 100 MB/s
/// ("1234.5 MB/s"), 3 significant digits below ("12.3 MB/s", "0.0042 MB/s",
/// trailing zeros dropped); "-" for 0, a negative or a non-finite number.
std::string format_throughput(double bytes_per_s);

/// A ratio to the baseline: "3.10x"; "-" for 0, a negative or a non-finite number.
std::string format_ratio(double r);

/// A write count: "2442"; "-" when not counted (negative: the -1 of bench_row).
std::string format_calls(std::int64_t calls);

/// A row's extra values as "k=v, k=v" in key order: whole numbers without a
/// decimal point, others with 4 significant digits; "-" for a non-finite value.
std::string format_values(const std::map<std::string, double>& values);

}  // namespace flushcheck::detail
