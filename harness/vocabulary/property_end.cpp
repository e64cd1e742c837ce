// The ways a property's run ends, and their names (property_end.hpp).
#include "property_end.hpp"

#include <cstddef>
#include <iterator>

namespace flushcheck {

const std::vector<property_end>& property_ends() {
  static const std::vector<property_end> all = {
      property_end::return_, property_end::exit,   property_end::underscore_exit,
      property_end::abort,   property_end::throw_, property_end::term,
      property_end::kill,    property_end::fault};
  return all;
}

std::string end_name(property_end e) {
  static const char* const names[] = {"return", "exit", "_exit", "abort",
                                      "throw",  "TERM", "KILL",  "fault"};
  static_assert(std::size(names) == static_cast<std::size_t>(property_end::fault) + 1,
                "a name for every property_end, in its order");
  return names[static_cast<int>(e)];
}

bool is_cut(property_end e) { return e == property_end::term || e == property_end::kill; }

std::optional<property_end> parse_end(const std::string& name) {
  for (property_end e : property_ends())
    if (end_name(e) == name) return e;
  return std::nullopt;
}

}  // namespace flushcheck
