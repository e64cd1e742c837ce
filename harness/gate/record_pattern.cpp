// A whole record's line as a Boost.Regex (record_pattern.hpp says why not std::regex).
#include "record_pattern.hpp"

#include <boost/regex.hpp>

#include "error.hpp"

namespace flushcheck {

struct record_pattern::impl {
  boost::regex re;
};

record_pattern::record_pattern(const std::string& pattern) : impl_(std::make_unique<impl>()) {
  try {
    impl_->re.assign(pattern, boost::regex::ECMAScript);
  } catch (const boost::regex_error& e) {
    throw usage_error("bad pattern '" + pattern + "': " + e.what());
  }
}

record_pattern::~record_pattern() = default;
record_pattern::record_pattern(record_pattern&&) noexcept = default;
record_pattern& record_pattern::operator=(record_pattern&&) noexcept = default;

bool record_pattern::matches(std::string_view line) const {
  return boost::regex_match(line.begin(), line.end(), impl_->re);
}

}  // namespace flushcheck
