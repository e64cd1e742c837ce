// Escaping bytes for people, for a shell and for HTML.
#include "escape.hpp"

#include <algorithm>
#include <cstdio>

namespace flushcheck {

namespace {

/// C as the text "\xHH".
std::string hex_byte(unsigned char c) {
  char hex[8];
  std::snprintf(hex, sizeof hex, "\\x%02x", c);
  return hex;
}

/// C as printable() shows it: \n and \r as text, \xHH for another control
/// or a byte above ASCII, else C itself.
void append_printable(std::string& out, unsigned char c) {
  if (c == '\n')
    out += "\\n";
  else if (c == '\r')
    out += "\\r";
  else if (c < 0x20 || c >= 0x7f)
    out += hex_byte(c);
  else
    out += static_cast<char>(c);
}

}  // namespace

std::string printable(const std::string& data, std::size_t max) {
  std::string out;
  for (std::size_t i = 0; i < data.size() && i < max; ++i)
    append_printable(out, static_cast<unsigned char>(data[i]));
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

std::string posix_line(const std::string& line, bool bash_quoted) {
  return bash_quoted ? "bash -c " + shell_quote(line) : line;
}

namespace {

/// The length of the UTF-8 sequence that lead byte C starts: 2 to 4, or 0
/// for a byte that starts none.
std::size_t sequence_length(unsigned char c) {
  if (c >= 0xf0 && c <= 0xf4) return 4;
  if (c >= 0xe0 && c <= 0xef) return 3;
  if (c >= 0xc2 && c <= 0xdf) return 2;
  return 0;
}

/// The well-formed N-byte sequence at S[I] is one XML 1.0 refuses: an
/// overlong form, a surrogate, above U+10FFFF, U+FFFE or U+FFFF.
bool refused_sequence(const std::string& s, std::size_t i, std::size_t n) {
  const auto c = static_cast<unsigned char>(s[i]);
  const auto next = static_cast<unsigned char>(s[i + 1]);
  if (n == 3 && c == 0xe0 && next < 0xa0) return true;   // overlong
  if (n == 3 && c == 0xed && next >= 0xa0) return true;  // surrogate
  if (n == 4 && c == 0xf0 && next < 0x90) return true;   // overlong
  if (n == 4 && c == 0xf4 && next >= 0x90) return true;  // > U+10FFFF
  // U+FFFE and U+FFFF, which XML 1.0 excludes
  return n == 3 && c == 0xef && next == 0xbf && static_cast<unsigned char>(s[i + 2]) >= 0xbe;
}

/// Length of the valid UTF-8 sequence at S[I] that XML 1.0 allows, 0 if none.
std::size_t xml_char(const std::string& s, std::size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  if (c < 0x80) return c >= 0x20 || c == '\t' || c == '\n' || c == '\r' ? 1 : 0;
  const std::size_t n = sequence_length(c);
  if (n == 0 || i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k)
    if ((static_cast<unsigned char>(s[i + k]) & 0xc0) != 0x80) return 0;
  return refused_sequence(s, i, n) ? 0 : n;
}

/// The N-byte character at S[I] as markup text: an entity for the five that
/// markup reserves and for the line breaks and the tab, else itself.
std::string markup_char(const std::string& s, std::size_t i, std::size_t n) {
  const char c = s[i];
  return c == '&'    ? "&amp;"
         : c == '<'  ? "&lt;"
         : c == '>'  ? "&gt;"
         : c == '"'  ? "&quot;"
         : c == '\'' ? "&#39;"
         : c == '\n' ? "&#10;"
         : c == '\r' ? "&#13;"
         : c == '\t' ? "&#9;"
                     : s.substr(i, n);
}

}  // namespace

std::string markup_escape(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = xml_char(s, i);
    if (n == 0) {
      out += hex_byte(static_cast<unsigned char>(s[i++]));
      continue;
    }
    out += markup_char(s, i, n);
    i += n;
  }
  return out;
}

namespace {

/// A C1 control (U+0080..U+009F, UTF-8 C2 80..C2 9F): CSI and OSC to some terminals.
bool c1_control(const std::string& s, std::size_t i, std::size_t n) {
  return n == 2 && static_cast<unsigned char>(s[i]) == 0xc2 &&
         static_cast<unsigned char>(s[i + 1]) < 0xa0;
}

}  // namespace

std::string terminal_text(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = xml_char(s, i);
    const bool plain = n > 0 && s[i] != '\r' && !c1_control(s, i, n);
    if (!plain || s[i] == 0x7f) {
      out += hex_byte(static_cast<unsigned char>(s[i++]));
      continue;
    }
    out.append(s, i, n);
    i += n;
  }
  return out;
}

std::string error_line(const std::string& s) {
  std::string out;
  for (char c : terminal_text(s)) out += c == '\n' ? "\\n" : c == '\t' ? "\\t" : std::string(1, c);
  return out;
}

std::string markdown_text(const std::string& s) {
  std::string out;
  for (char c : terminal_text(s)) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '\n': out += ' '; break;
      case '|': out += "\\|"; break;
      default: out += c;
    }
  }
  return out;
}

std::string markdown_code(const std::string& s) {
  std::string text = terminal_text(s);
  for (char& c : text)
    if (c == '\n' || c == '\t') c = ' ';
  std::size_t longest = 0, run = 0;
  for (char c : text) longest = std::max(longest, run = c == '`' ? run + 1 : 0);
  const std::string fence(longest + 1, '`');
  const bool pad = !text.empty() && (text.front() == '`' || text.back() == '`');
  return fence + (pad ? " " : "") + text + (pad ? " " : "") + fence;
}

std::string cut_text(const std::string& s, std::size_t max) {
  if (s.size() <= max) return s;
  std::size_t end = max < 3 ? 0 : max - 3;
  while (end > 0 && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) --end;  // a continuation
  return s.substr(0, end) + "...";
}

}  // namespace flushcheck
