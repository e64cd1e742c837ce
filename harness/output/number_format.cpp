// Numbers as text: one formatting for every reporter.
#include "number_format.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>

namespace flushcheck {

std::string significant(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  return buf;
}

std::string fixed(double v, int decimals) {
  char buf[400];  // "%.*f" of DBL_MAX is 309 digits before the point
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string millis(std::int64_t us) { return significant(static_cast<double>(us) / 1000.0, 6); }

std::string format_ms(std::int64_t us) { return millis(us) + " ms"; }

namespace {

/// V (>= 0.9995) with 3 significant digits: "850", "12.3", "1.52"; "%.3g" from 1e6.
std::string three_digits(double v) {
  if (v >= 999.5e3) return significant(v);
  if (v >= 99.95) return fixed(v, 0);
  if (v >= 9.995) return fixed(v, 1);
  return fixed(v, 2);
}

/// TEXT without the zeros after its decimal point ("0.00420" -> "0.0042", "10.00" -> "10").
std::string drop_trailing_zeros(std::string text) {
  if (text.find('.') == std::string::npos) return text;
  while (text.back() == '0') text.pop_back();
  if (text.back() == '.') text.pop_back();
  return text;
}

bool positive(double v) { return std::isfinite(v) && v > 0; }

}  // namespace

std::string format_seconds(double s) {
  if (!positive(s)) return "-";
  if (s >= 0.9995) return three_digits(s) + " s";
  if (s >= 0.9995e-3) return three_digits(s * 1e3) + " ms";
  if (s >= 0.9995e-6) return three_digits(s * 1e6) + " us";
  return three_digits(s * 1e9) + " ns";
}

std::string format_throughput(double bytes_per_s) {
  if (!positive(bytes_per_s)) return "-";
  const double mb = bytes_per_s / 1e6;
  if (mb >= 1e15 || mb < 1e-6) return significant(mb) + " MB/s";
  if (mb >= 99.95) return fixed(mb, 1) + " MB/s";
  const int decimals = 2 - static_cast<int>(std::floor(std::log10(mb)));
  return drop_trailing_zeros(fixed(mb, decimals)) + " MB/s";
}

std::string format_ratio(double r) {
  if (!positive(r)) return "-";
  return fixed(r, 2) + "x";
}

std::string format_calls(std::int64_t calls) { return calls < 0 ? "-" : std::to_string(calls); }

std::string format_values(const std::map<std::string, double>& values) {
  std::string out;
  for (const auto& [key, v] : values) {
    if (!out.empty()) out += ", ";
    char buf[64];
    if (!std::isfinite(v))
      std::snprintf(buf, sizeof buf, "-");
    else if (v == std::floor(v) && std::fabs(v) < 1e15)
      std::snprintf(buf, sizeof buf, "%.0f", v + 0.0);  // + 0.0: -0 prints as 0
    else
      std::snprintf(buf, sizeof buf, "%.4g", v);
    out += key + "=" + buf;
  }
  return out;
}

}  // namespace flushcheck
