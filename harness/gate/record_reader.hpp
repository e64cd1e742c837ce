#pragma once
/// A stream's lines and the record each holds, read as the bytes arrive: a
/// gate checks a log of any size in bounded memory (record_checks.hpp).
/// A record is TAG then a number ("rec 7"): the first TAG of a line, then
/// the number as strtol reads it (spaces, a sign, decimal digits; clamped
/// to long's range).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace flushcheck {

/// The first match of NEEDLE in a stream fed in pieces, found across their
/// boundaries; it holds NEEDLE and at most its length less one byte.
class stream_find {
 public:
  explicit stream_find(std::string needle) : needle_(std::move(needle)) {}
  /// Feeds PIECE. The first time NEEDLE is complete: where in PIECE its last
  /// byte ends (one past it). After that, nullopt until reset().
  std::optional<std::size_t> feed(std::string_view piece);
  void reset() {
    carry_.clear();
    found_ = false;
  }

 private:
  /// Where NEEDLE ends in PIECE, with what came before it; nullopt if not
  /// there, and then CARRY_ keeps what a match across the next boundary needs.
  std::optional<std::size_t> match_end(std::string_view piece);

  std::string needle_, carry_;
  bool found_ = false;
};

/// One line, given to the reader's callback when it ends.
struct record_line {
  std::string_view head;     ///< its first bytes (at most the reader's KEEP), no '\n'
  std::uint64_t size = 0;    ///< its whole length, without the '\n'
  std::uint64_t number = 0;  ///< 1-based
  bool terminated = true;    ///< false: the stream's last bytes, with no '\n' after them
  std::optional<long> record;
};

class record_reader {
 public:
  /// ON_LINE gets each line; KEEP: how many of a line's first bytes its head holds.
  record_reader(std::string tag, std::size_t keep, std::function<void(const record_line&)> on_line);
  void feed(std::string_view bytes);
  /// The stream ended: a last line without '\n' is given now.
  void finish();

 private:
  // tag: looking for it; space, digits_next, digits: reading the number after it;
  // done: a number was read; none: TAG had no number after it.
  enum class phase { tag, space, digits_next, digits, done, none };
  void piece(std::string_view p);
  void number(std::string_view p);
  void end_line(bool terminated);

  stream_find tag_;
  std::size_t keep_;
  std::function<void(const record_line&)> on_line_;
  std::string head_;
  std::uint64_t size_ = 0, lines_ = 0;
  phase phase_ = phase::tag;
  bool negative_ = false;
  std::uint64_t value_ = 0;  // saturates one past LONG_MAX
};

}  // namespace flushcheck
