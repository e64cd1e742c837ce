#pragma once
/// `doctor --ignore REGEX`: an ECMAScript regex whose every match in a line
/// is masked in every run's output before doctor compares them (a request
/// id, a duration). Boost.Regex, as gate's record_pattern, which says why
/// not std::regex: bounded work, and what it cannot do is an error.
#include <memory>
#include <string>
#include <string_view>

namespace flushcheck {

class ignore_pattern {
 public:
  /// PATTERN in ECMAScript (Perl) syntax; throws usage_error ("PATTERN: why").
  explicit ignore_pattern(const std::string& pattern);

  /// The pattern as given.
  const std::string& text() const noexcept { return text_; }
  /// LINE with each match that is not empty replaced by `placeholder`.
  /// Throws std::runtime_error when matching LINE would take more than
  /// Boost.Regex's bound on work.
  std::string masked(std::string_view line) const;

  static constexpr std::string_view placeholder = "<ignored>";

 private:
  struct impl;
  std::string text_;
  std::shared_ptr<const impl> impl_;  // shared: the options are copied for each fix
};

}  // namespace flushcheck
