#pragma once
/// Bytes made safe to print: for people (explanations, the model's MUST and
/// MAY) and for a POSIX shell (repro lines).
#include <cstddef>
#include <string>

namespace flushcheck {

/// Bytes for people: \n, \r and \xHH escapes, cut after MAX bytes with a count.
std::string printable(const std::string& data, std::size_t max);

/// S quoted for a POSIX shell, on one line ($'...' when it has a newline).
std::string shell_quote(const std::string& s);

}  // namespace flushcheck
