// Fixed-width text tables.
#include "text_table.hpp"

namespace flushcheck {

std::string pad(std::string_view s, std::size_t w, bool right) {
  if (s.size() >= w) return std::string(s);
  const std::string fill(w - s.size(), ' ');
  return right ? fill + std::string(s) : std::string(s) + fill;
}

std::string text_row(std::string_view indent, const std::vector<text_column>& columns,
                     const std::vector<std::string>& cells) {
  std::string out(indent);
  for (std::size_t i = 0; i < columns.size() && i < cells.size(); ++i) {
    const text_column& c = columns[i];
    if (i > 0) out.append(c.gap, ' ');
    const std::string& cell = cells[i];
    if (c.cut && c.width > 3 && cell.size() > c.width)
      out += cell.substr(0, c.width - 3) + "...";
    else
      out += pad(cell, c.width, c.right);
  }
  return out;
}

}  // namespace flushcheck
