// `doctor --ignore REGEX` as a Boost.Regex (ignore_pattern.hpp says why).
#include "ignore_pattern.hpp"

#include <iterator>

#include <boost/regex.hpp>

#include "error.hpp"

namespace flushcheck {

struct ignore_pattern::impl {
  boost::regex re;
};

ignore_pattern::ignore_pattern(const std::string& pattern) : text_(pattern) {
  auto i = std::make_shared<impl>();
  try {
    i->re.assign(pattern, boost::regex::ECMAScript);
  } catch (const boost::regex_error& e) {
    throw usage_error(pattern + ": not a regex (" + e.what() + ")");
  }
  impl_ = std::move(i);
}

std::string ignore_pattern::masked(std::string_view line) const {
  std::string out;
  // An empty match masks nothing: it would only put the placeholder between bytes.
  boost::regex_replace(std::back_inserter(out), line.begin(), line.end(), impl_->re,
                       std::string(placeholder),
                       boost::regex_constants::format_literal | boost::match_not_null);
  return out;
}

}  // namespace flushcheck
