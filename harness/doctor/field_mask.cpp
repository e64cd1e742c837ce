// Fields that vary between runs, found line by line, and what is masked
// before doctor compares two outputs (field_mask.hpp).
#include "field_mask.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <utility>

#include "escape.hpp"
#include "output_lines.hpp"

namespace flushcheck {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

/// What joins two digit runs into one field: a date's, a clock's, a
/// fraction's separators, and ISO 8601's T and offset sign.
bool joins(char c) { return std::string_view("-:./T,+").find(c) != std::string_view::npos; }

/// A line cut into fields and the text around them:
/// text[0] fields[0] text[1] ... fields[n-1] text[n].
struct split_line {
  std::vector<std::string_view> text, fields;
};

/// Where the field that starts at AT of LINE ends.
std::size_t field_end(std::string_view line, std::size_t at) {
  while (at < line.size() && is_digit(line[at])) ++at;
  while (at + 1 < line.size() && joins(line[at]) && is_digit(line[at + 1]))
    for (++at; at < line.size() && is_digit(line[at]);) ++at;
  return at;
}

split_line split(std::string_view line) {
  split_line s;
  std::size_t from = 0;
  for (std::size_t at = 0; at < line.size();) {
    if (!is_digit(line[at])) {
      ++at;
      continue;
    }
    const std::size_t end = field_end(line, at);
    s.text.push_back(line.substr(from, at - from));
    s.fields.push_back(line.substr(at, end - at));
    from = at = end;
  }
  s.text.push_back(line.substr(from));
  return s;
}

field_kind kind_of(std::string_view field) {
  return std::all_of(field.begin(), field.end(), is_digit) ? field_kind::number
                                                           : field_kind::timestamp;
}

/// FIELD with what names it in the text BEFORE it (after its last space,
/// comma or bracket, 16 bytes at most): "pid":1234.
std::string example_of(std::string_view before, std::string_view field) {
  const auto cut = before.find_last_of(" ,{[(");
  std::string_view name = cut == std::string_view::npos ? before : before.substr(cut + 1);
  if (name.size() > 16) name.remove_prefix(name.size() - 16);
  return std::string(name) + std::string(field);
}

/// "pid-like numbers at "pid":1234 (field 1, 5 lines)".
std::string group_text(const varying_field& v) {
  return std::string(to_string(v.kind)) + "s at " + printable(v.example, 48) + " (field " +
         std::to_string(v.field + 1) + ", " + std::to_string(v.lines) + " line" +
         (v.lines == 1 ? "" : "s") + ")";
}

/// "--ignore 'a' and --ignore 'b'".
std::string ignore_text(const std::vector<ignore_pattern>& patterns) {
  std::string out;
  for (std::size_t i = 0; i < patterns.size(); ++i)
    out += (i == 0                     ? ""
            : i + 1 == patterns.size() ? " and "
                                       : ", ") +
           std::string("--ignore ") + shell_quote(patterns[i].text());
  return out;
}

}  // namespace

std::string_view to_string(field_kind k) {
  return k == field_kind::number ? "pid-like number" : "timestamp";
}

field_mask::field_mask(std::vector<ignore_pattern> ignore) : ignore_(std::move(ignore)) {}

std::string field_mask::ignored(std::string_view line) const {
  std::string out(line);
  for (const auto& p : ignore_) out = p.masked(out);
  return out;
}

void field_mask::learn(std::string_view a, std::string_view b) {
  output_lines x(a), y(b);
  std::vector<place> found;
  for (std::size_t index = 0; index < std::numeric_limits<std::uint32_t>::max(); ++index) {
    const auto la = x.next(), lb = y.next();
    if (!la || !lb || !la->whole || !lb->whole) break;
    if (ignore_.empty() && la->text == lb->text) continue;
    if (!learn_line(index, ignored(la->text), ignored(lb->text), found)) break;
  }
  add(found);
}

/// The fields of lines A and B (the INDEX-th of two runs) that differ,
/// onto FOUND; false when their text differs (they are other lines).
bool field_mask::learn_line(std::size_t index, const std::string& a, const std::string& b,
                            std::vector<place>& found) {
  if (a == b) return true;
  const split_line x = split(a), y = split(b);
  if (x.text != y.text) return false;
  const std::size_t fields = std::min<std::size_t>(x.fields.size(), 1 << 16);
  for (std::size_t k = 0; k < fields; ++k) {
    if (x.fields[k] == y.fields[k]) continue;
    const field_kind kind = kind_of(x.fields[k]);
    found.push_back({static_cast<std::uint32_t>(index), static_cast<std::uint16_t>(k), kind});
    const auto seen = std::find_if(examples_.begin(), examples_.end(),
                                   [&](const auto& e) { return e.kind == kind && e.field == k; });
    if (seen == examples_.end())
      examples_.push_back({kind, k, 0, example_of(x.text[k], x.fields[k])});
  }
  return true;
}

/// FOUND (in order, as learn found them) into places_, each place once.
void field_mask::add(const std::vector<place>& found) {
  if (found.empty()) return;
  const auto known = static_cast<std::ptrdiff_t>(places_.size());
  places_.insert(places_.end(), found.begin(), found.end());
  std::inplace_merge(places_.begin(), places_.begin() + known, places_.end(),
                     [](const place& p, const place& q) {
                       return std::pair(p.line, p.field) < std::pair(q.line, q.field);
                     });
  places_.erase(std::unique(places_.begin(), places_.end(),
                            [](const place& p, const place& q) {
                              return p.line == q.line && p.field == q.field;
                            }),
                places_.end());
}

std::string field_mask::masked(std::size_t index, std::string_view line) const {
  std::string s = ignored(line);
  const auto from = std::lower_bound(places_.begin(), places_.end(), index,
                                     [](const place& p, std::size_t i) { return p.line < i; });
  if (from == places_.end() || from->line != index) return s;
  const split_line parts = split(s);
  std::string out;
  auto p = from;
  for (std::size_t k = 0; k < parts.fields.size(); ++k) {
    out += parts.text[k];
    while (p != places_.end() && p->line == index && p->field < k) ++p;
    const bool varies = p != places_.end() && p->line == index && p->field == k;
    out += varies ? placeholder : parts.fields[k];
  }
  out += parts.text.back();
  return out;
}

std::vector<varying_field> field_mask::varying() const {
  std::map<std::pair<field_kind, std::size_t>, std::size_t> lines;
  for (const auto& p : places_) ++lines[{p.kind, p.field}];
  std::vector<varying_field> out;
  for (const auto& e : examples_)
    if (const auto n = lines.find({e.kind, e.field}); n != lines.end())
      out.push_back({e.kind, e.field, n->second, e.example});
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    return a.lines != b.lines ? a.lines > b.lines : a.field < b.field;
  });
  return out;
}

std::string field_mask::describe() const {
  if (empty()) return "";
  const std::vector<varying_field> groups = varying();
  std::string out = "compared around ";
  if (!groups.empty()) {
    out += "fields that vary between runs: ";
    constexpr std::size_t shown = 4;
    for (std::size_t i = 0; i < std::min(groups.size(), shown); ++i)
      out += (i == 0 ? "" : ", ") + group_text(groups[i]);
    if (groups.size() > shown) out += ", and " + std::to_string(groups.size() - shown) + " more";
  }
  if (!ignore_.empty())
    out += (groups.empty() ? "what " : "; and what ") + ignore_text(ignore_) + " matched";
  return out;
}

}  // namespace flushcheck
