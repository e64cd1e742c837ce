#include "destination.hpp"

namespace flushcheck {

std::string_view destination::name() const noexcept {
  if (merged_) return "stdout";
  return kind_ ? to_string(*kind_) : std::string_view();
}

}  // namespace flushcheck
