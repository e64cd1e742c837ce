#include "record_reader.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>

namespace flushcheck {

std::optional<std::size_t> stream_find::feed(std::string_view piece) {
  if (found_) return std::nullopt;
  const std::optional<std::size_t> end = match_end(piece);
  if (end) found_ = true;
  return end;
}

std::optional<std::size_t> stream_find::match_end(std::string_view piece) {
  if (needle_.empty()) return 0;
  const std::size_t k = needle_.size() - 1;
  // A match that starts in what came before: CARRY_ and PIECE's first K bytes.
  const std::string joint = carry_ + std::string(piece.substr(0, k));
  std::size_t at = joint.find(needle_);
  if (at != std::string::npos) return at + needle_.size() - carry_.size();
  if (at = piece.find(needle_); at != std::string_view::npos) return at + needle_.size();
  carry_ = piece.size() >= k ? std::string(piece.substr(piece.size() - k))
                             : joint.substr(joint.size() - std::min(joint.size(), k));
  return std::nullopt;
}

record_reader::record_reader(std::string tag, std::size_t keep,
                             std::function<void(const record_line&)> on_line)
    : tag_(std::move(tag)), keep_(keep), on_line_(std::move(on_line)) {}

void record_reader::feed(std::string_view bytes) {
  while (!bytes.empty()) {
    const auto nl = bytes.find('\n');
    piece(bytes.substr(0, nl));
    if (nl == std::string_view::npos) return;
    end_line(true);
    bytes.remove_prefix(nl + 1);
  }
}

void record_reader::finish() {
  if (size_ != 0) end_line(false);
}

void record_reader::piece(std::string_view p) {
  if (head_.size() < keep_) head_.append(p.substr(0, keep_ - head_.size()));
  size_ += p.size();
  if (phase_ == phase::tag) {
    const auto end = tag_.feed(p);
    if (!end) return;
    phase_ = phase::space;
    p.remove_prefix(*end);
  }
  if (phase_ != phase::done && phase_ != phase::none) number(p);
}

/// strtol's grammar, a byte at a time: spaces, a sign, then digits.
void record_reader::number(std::string_view p) {
  constexpr auto past_max = static_cast<std::uint64_t>(LONG_MAX) + 1;
  for (const char c : p) {
    if (phase_ == phase::space && (c == ' ' || (c >= '\t' && c <= '\r'))) continue;
    if (phase_ == phase::space && (c == '+' || c == '-')) {
      negative_ = c == '-';
      phase_ = phase::digits_next;
      continue;
    }
    if (c < '0' || c > '9') {
      phase_ = phase_ == phase::digits ? phase::done : phase::none;
      return;
    }
    phase_ = phase::digits;
    const auto d = static_cast<std::uint64_t>(c - '0');
    value_ = value_ >= past_max / 10 ? past_max : std::min(past_max, value_ * 10 + d);
  }
}

void record_reader::end_line(bool terminated) {
  record_line l{head_, size_, ++lines_, terminated, std::nullopt};
  if (phase_ == phase::digits || phase_ == phase::done) {
    constexpr auto max = static_cast<std::uint64_t>(LONG_MAX);
    l.record = negative_ ? (value_ > max ? LONG_MIN : -static_cast<long>(value_))
                         : static_cast<long>(std::min(value_, max));
  }
  on_line_(l);
  head_.clear();
  size_ = 0;
  tag_.reset();
  phase_ = phase::tag;
  negative_ = false;
  value_ = 0;
}

}  // namespace flushcheck
