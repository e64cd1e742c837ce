// Two runs' outputs compared line by line around what varies between runs
// (masked_compare.hpp).
#include "masked_compare.hpp"

#include <algorithm>

#include "output_lines.hpp"

namespace flushcheck {

namespace {

/// Whether lines A and B, the INDEX-th of their outputs, are the same around M.
bool same_line(const field_mask& m, std::size_t index, std::string_view a, std::string_view b) {
  return a == b || m.masked(index, a) == m.masked(index, b);
}

/// Whether B, the unterminated last line of an output, is the start of A,
/// its INDEX-th line, around M.
bool starts_line(const field_mask& m, std::size_t index, std::string_view a, std::string_view b) {
  if (a.substr(0, b.size()) == b) return true;
  const std::string ma = m.masked(index, a), mb = m.masked(index, b);
  return ma.compare(0, mb.size(), mb) == 0;
}

}  // namespace

std::size_t end_of_lines(std::string_view data, std::size_t n) {
  std::size_t end = 0;
  for (; n > 0; --n) {
    const std::size_t nl = data.find('\n', end);
    if (nl == std::string_view::npos) break;
    end = nl + 1;
  }
  return end;
}

std::size_t masked_size(const field_mask& m, std::string_view data) {
  if (m.empty()) return data.size();
  std::size_t size = 0, index = 0;
  output_lines lines(data);
  while (const auto l = lines.next()) size += m.masked(index++, l->text).size() + l->whole;
  return size;
}

std::size_t matching_lines(const field_mask& m, std::string_view ref, std::string_view out) {
  output_lines r(ref), o(out);
  for (std::size_t n = 0;; ++n) {
    const auto a = r.next(), b = o.next();
    if (!a || !b || !a->whole || !b->whole || !same_line(m, n, a->text, b->text)) return n;
  }
}

std::size_t same_place(std::string_view from, std::size_t at, std::string_view to) {
  const std::string_view before = from.substr(0, std::min(at, from.size()));
  const auto line = static_cast<std::size_t>(std::count(before.begin(), before.end(), '\n'));
  const std::size_t column = before.size() - (before.rfind('\n') + 1);  // npos + 1 is 0
  std::size_t start = 0;
  for (std::size_t i = 0; i < line; ++i) {
    const std::size_t nl = to.find('\n', start);
    if (nl == std::string_view::npos) return to.size();  // TO has fewer lines
    start = nl + 1;
  }
  const std::size_t end = std::min(to.find('\n', start), to.size());
  return start + std::min(column, end - start);
}

bool masked_prefix(const field_mask& m, std::string_view a, std::string_view b) {
  output_lines x(a), y(b);
  for (std::size_t index = 0;; ++index) {
    const auto lb = y.next();
    if (!lb) return true;
    const auto la = x.next();
    if (!la) return false;
    if (!lb->whole) return starts_line(m, index, la->text, lb->text);
    if (!la->whole || !same_line(m, index, la->text, lb->text)) return false;
  }
}

line_difference first_difference(const field_mask& m, std::string_view a, std::string_view b) {
  output_lines x(a), y(b);
  for (std::size_t index = 0;; ++index) {
    const auto la = x.next(), lb = y.next();
    if (!la || !lb || la->whole != lb->whole || !same_line(m, index, la->text, lb->text))
      return {index, la ? m.masked(index, la->text) : "", lb ? m.masked(index, lb->text) : ""};
  }
}

}  // namespace flushcheck
