#pragma once
// The control channel's bytes split into marker lines (docs/markers.md): a
// marker is a label and '\n'; a line longer than 64 KiB is not a marker and
// is dropped up to its newline, so memory stays bounded whatever the
// program writes to fd 3.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace flushcheck::detail {

class marker_lines {
 public:
  static constexpr std::size_t max_label = 65536;

  /// Takes BYTES as they come; returns the labels of the lines they complete.
  std::vector<std::string> feed(std::string_view bytes);
  /// Whether a line over max_label has been dropped.
  bool dropped_a_line() const noexcept { return dropped_; }

 private:
  /// C onto the line; a line that grows past max_label is dropped up to its
  /// newline.
  void append(char c);

  std::string line_;         // the marker line so far
  bool discarding_ = false;  // inside a line too long to be a marker
  bool dropped_ = false;
};

}  // namespace flushcheck::detail
