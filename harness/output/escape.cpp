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

namespace {

/// Length of the valid UTF-8 sequence at S[I] that XML 1.0 allows, 0 if none.
std::size_t xml_char(const std::string& s, std::size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  if (c < 0x80) return c >= 0x20 || c == '\t' || c == '\n' || c == '\r' ? 1 : 0;
  const std::size_t n = c >= 0xf0 && c <= 0xf4   ? 4
                        : c >= 0xe0 && c <= 0xef ? 3
                        : c >= 0xc2 && c <= 0xdf ? 2
                                                 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k)
    if ((static_cast<unsigned char>(s[i + k]) & 0xc0) != 0x80) return 0;
  if (n == 3 && c == 0xe0 && static_cast<unsigned char>(s[i + 1]) < 0xa0) return 0;   // overlong
  if (n == 3 && c == 0xed && static_cast<unsigned char>(s[i + 1]) >= 0xa0) return 0;  // surrogate
  if (n == 4 && c == 0xf0 && static_cast<unsigned char>(s[i + 1]) < 0x90) return 0;   // overlong
  if (n == 4 && c == 0xf4 && static_cast<unsigned char>(s[i + 1]) >= 0x90) return 0;  // > U+10FFFF
  if (n == 3 && c == 0xef && static_cast<unsigned char>(s[i + 1]) == 0xbf &&
      static_cast<unsigned char>(s[i + 2]) >= 0xbe)
    return 0;  // U+FFFE and U+FFFF, which XML 1.0 excludes
  return n;
}

}  // namespace

std::string markup_escape(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = xml_char(s, i);
    if (n == 0) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", static_cast<unsigned char>(s[i++]));
      out += hex;
      continue;
    }
    const char c = s[i];
    out += c == '&'    ? "&amp;"
           : c == '<'  ? "&lt;"
           : c == '>'  ? "&gt;"
           : c == '"'  ? "&quot;"
           : c == '\'' ? "&#39;"
           : c == '\n' ? "&#10;"
           : c == '\r' ? "&#13;"
           : c == '\t' ? "&#9;"
                       : s.substr(i, n);
    i += n;
  }
  return out;
}

std::string cut_text(const std::string& s, std::size_t max) {
  if (s.size() <= max) return s;
  std::size_t end = max < 3 ? 0 : max - 3;
  while (end > 0 && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) --end;  // a continuation
  return s.substr(0, end) + "...";
}

}  // namespace flushcheck
