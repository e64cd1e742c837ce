#pragma once
/// Numbers as people read them, one way for every reporter: figures with a
/// given number of significant digits or decimals, seconds with their unit,
/// milliseconds, MB/s, ratios, write counts, and a bench row's extra values.
#include <cstdint>
#include <map>
#include <string>

namespace flushcheck {

/// V with DIGITS significant digits ("%.*g"): a figure in a claim's words, or
/// one too large or small to print in full. 6 digits is how a C++ stream prints a double.
std::string significant(double v, int digits = 3);

/// V with DECIMALS digits after the point ("%.*f"): "0.050" for JUnit's seconds.
std::string fixed(double v, int decimals);

/// US microseconds as milliseconds with 6 significant digits: "12.345", "1234.57".
std::string millis(std::int64_t us);
/// US as milliseconds with their unit: "12.345 ms".
std::string format_ms(std::int64_t us);

/// Seconds for people, 3 significant digits in s, ms, us or ns: "1.52 s", "12.3 ms", "850 us";
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

}  // namespace flushcheck
