#include "marker_lines.hpp"

namespace flushcheck::detail {

std::vector<std::string> marker_lines::feed(std::string_view bytes) {
  std::vector<std::string> labels;
  for (char c : bytes) {
    if (c == '\n') {
      if (!discarding_) labels.push_back(std::move(line_));
      line_.clear();
      discarding_ = false;
    } else if (!discarding_) {
      append(c);
    }
  }
  return labels;
}

void marker_lines::append(char c) {
  line_ += c;
  if (line_.size() <= max_label) return;
  line_.clear();
  line_.shrink_to_fit();
  discarding_ = dropped_ = true;
}

}  // namespace flushcheck::detail
