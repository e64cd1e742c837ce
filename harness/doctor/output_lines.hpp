#pragma once
/// The lines of an output, one at a time: doctor compares outputs line by
/// line where fields vary between runs (field_mask.hpp).
#include <optional>
#include <string_view>

namespace flushcheck {

/// One line of an output, without its newline.
struct output_line {
  std::string_view text;
  bool whole = true;  ///< a newline ended it (false: an unterminated last line)
};

/// DATA's lines in order; next() is nullopt past the last.
class output_lines {
 public:
  explicit output_lines(std::string_view data) noexcept : rest_(data) {}

  std::optional<output_line> next() noexcept {
    if (rest_.empty()) return std::nullopt;
    const std::size_t nl = rest_.find('\n');
    const output_line line{rest_.substr(0, nl), nl != std::string_view::npos};
    rest_.remove_prefix(line.whole ? nl + 1 : rest_.size());
    return line;
  }

 private:
  std::string_view rest_;
};

}  // namespace flushcheck
