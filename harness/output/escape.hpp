#pragma once
/// Bytes made safe to print: for people (explanations, the model's MUST and
/// MAY), for a POSIX shell (repro lines) and for HTML or SVG text.
#include <cstddef>
#include <string>

namespace flushcheck {

/// Bytes for people: \n, \r and \xHH escapes, cut after MAX bytes with a count.
std::string printable(const std::string& data, std::size_t max);

/// S quoted for a POSIX shell, on one line ($'...' when it has a newline).
std::string shell_quote(const std::string& s);

/// S as HTML or XML text or a quoted attribute value: <, >, &, " and ' as
/// entities (&lt; &gt; &amp; &quot; &#39;); every other byte unchanged.
std::string html_escape(const std::string& s);

}  // namespace flushcheck
