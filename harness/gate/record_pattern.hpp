#pragma once
/// A regex of one whole record's line, for the threaded no_torn_record
/// check (gate.hpp) and gate files. Boost.Regex, not std::regex: libstdc++'s
/// matcher recurses once per character (a 30,000-byte line overflowed the
/// stack here) and its compiler overflows a signed integer on a back
/// reference such as \99999999999999999999; Boost.Regex 1.74 matches without
/// recursion and reports what it cannot do as an error.
#include <memory>
#include <string>
#include <string_view>

namespace flushcheck {

class record_pattern {
 public:
  /// PATTERN in ECMAScript (Perl) syntax; throws usage_error for a bad one.
  explicit record_pattern(const std::string& pattern);
  ~record_pattern();
  record_pattern(record_pattern&&) noexcept;
  record_pattern& operator=(record_pattern&&) noexcept;

  /// Whether all of LINE matches. Throws std::runtime_error when matching
  /// LINE would take more than Boost.Regex's bound on work.
  bool matches(std::string_view line) const;

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace flushcheck
