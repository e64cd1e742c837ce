// Escaping bytes for people, for a shell and for HTML.
#include "escape.hpp"

#include <cstdio>

namespace flushcheck {

std::string printable(const std::string& data, std::size_t max) {
  std::string out;
  for (std::size_t i = 0; i < data.size() && i < max; ++i) {
    unsigned char c = static_cast<unsigned char>(data[i]);
    if (c == '\n')
      out += "\\n";
    else if (c == '\r')
      out += "\\r";
    else if (c < 0x20 || c >= 0x7f) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", c);
      out += hex;
    } else
      out += static_cast<char>(c);
  }
  if (data.size() > max) out += "... (" + std::to_string(data.size() - max) + " more bytes)";
  return out;
}

std::string shell_quote(const std::string& s) {
  if (s.find('\n') != std::string::npos) {  // $'...' keeps the repro on one line
    std::string q = "$'";
    for (char c : s)
      q += c == '\n'   ? std::string("\\n")
           : c == '\'' ? std::string("\\'")
           : c == '\\' ? std::string("\\\\")
                       : std::string(1, c);
    return q + "'";
  }
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string html_escape(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace flushcheck
