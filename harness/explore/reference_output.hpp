#pragma once
// explore's reference output, spooled to an unlinked temporary file, and a
// cut run's output compared with it as it arrives: both in bounded memory,
// whatever the program prints and however many cuts there are.
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "capture.hpp"
#include "unique_fd.hpp"

namespace flushcheck::detail {

/// A line by its XXH3-64 and its length (newline left out): what a fault
/// run's lines are matched by, so that neither run's lines are held.
struct line_key {
  std::uint64_t hash = 0, size = 0;
  bool operator==(const line_key&) const = default;
};

/// The most bytes of a torn tail, and of lost lines, a cut keeps under KEEP.
inline std::size_t text_budget(const keep_policy& keep) {
  return keep.what == keep_policy::kind::all ? SIZE_MAX : keep.bytes;
}

/// The reference run's bytes of one stream, in a file nobody else sees,
/// and the key of each of its lines.
class reference_output {
 public:
  reference_output();  ///< an empty, unlinked file in temp_dir(); throws harness_error
  void append(std::string_view bytes);
  std::uint64_t size() const noexcept { return size_; }
  /// Lines, an unterminated last one counting.
  std::uint64_t lines() const noexcept { return lines_ + (ends_in_newline_ ? 0 : 1); }
  /// Up to N bytes from offset AT.
  std::string read(std::uint64_t at, std::size_t n) const;
  /// The same into OUT, whose memory is reused from one call to the next.
  void read(std::uint64_t at, std::size_t n, std::string& out) const;
  /// The lines that start at offset AT (a line's start), as long as they fit
  /// in BUDGET bytes (the first always, cut to BUDGET): what a report keeps.
  std::vector<std::string> lines_from(std::uint64_t at, std::size_t budget) const;
  /// Each line's key, in order, an unterminated last one included.
  std::vector<line_key> keys() const;
  /// The whole (newline-terminated) lines' keys, in order, not copied.
  const std::vector<line_key>& whole_lines() const noexcept { return keys_; }
  /// What a run would keep under KEEP had it read the first SIZE bytes.
  std::string kept(std::uint64_t size, const keep_policy& keep) const;

 private:
  void key_lines(std::string_view bytes);

  unique_fd fd_;
  std::vector<line_key> keys_;  // the whole lines'
  xxh3_stream line_hash_;       // of the line being spooled
  std::uint64_t line_size_ = 0;
  std::uint64_t size_ = 0;
  std::uint64_t lines_ = 0;
  bool ends_in_newline_ = true;
};

/// A cut run's output against the reference, fed as it arrives.
class prefix_match {
 public:
  /// TORN_BUDGET: the most bytes of a torn or diverging tail kept.
  prefix_match(const reference_output& ref, std::size_t torn_budget)
      : ref_(ref), budget_(torn_budget) {}
  void feed(std::string_view bytes);

  std::uint64_t bytes() const noexcept { return total_; }
  /// The output so far is a prefix of the reference.
  bool prefix() const noexcept { return !diverged_; }
  /// Whole reference lines that arrived, in order, from the start.
  std::uint64_t lines() const noexcept { return lines_; }
  /// Where they end: the offset of the first line not (wholly) arrived.
  std::uint64_t whole_bytes() const noexcept { return whole_; }
  /// What came after them (a partial line, or where it diverged), cut to the budget.
  const std::string& torn() const noexcept { return torn_; }

 private:
  void take_matched(std::uint64_t at, std::string_view bytes);
  void keep_torn(std::string_view bytes);

  const reference_output& ref_;
  std::size_t budget_;
  std::uint64_t total_ = 0;
  std::uint64_t whole_ = 0;
  std::uint64_t lines_ = 0;
  bool diverged_ = false;
  std::string torn_;
  std::string want_;  // the reference's bytes a feed is compared with
};

/// A fault run's output against the reference, fed as it arrives: the
/// reference's lines that arrived in order (a fault may drop lines in the
/// middle) and those that did not. A line that is no reference line still
/// to come (the ends of two lines glued where a failed write dropped the
/// bytes between them) is torn, and skipped. Lines are matched by key, so
/// memory is the keys (16 bytes a line), a count per distinct line and what
/// KEEP holds of the text.
class line_match {
 public:
  line_match(const reference_output& ref, const keep_policy& keep);
  void feed(std::string_view bytes);
  /// The output ended: its last line, unterminated, counts; the reference
  /// lines not matched are lost.
  void finish();

  std::size_t survived() const noexcept { return survived_; }
  std::size_t lost_lines() const noexcept { return lost_lines_; }
  /// The first lost lines, as many as KEEP's bytes hold (the first always).
  std::vector<std::string>& lost() noexcept { return lost_; }
  /// The torn lines, each with its newline, as KEEP keeps them.
  std::string torn();

 private:
  void add_to_line(std::string_view piece);
  void on_line();
  void match(const line_key& got);
  void take_next(const line_key& got);
  void lose_next();

  const reference_output& ref_;
  std::vector<line_key> keys_;
  std::unordered_map<std::uint64_t, std::size_t> ahead_;  // by hash ^ size: lines to come
  std::size_t next_ = 0;                                  // the reference line to match
  std::uint64_t next_at_ = 0;                             // where it starts
  xxh3_stream hash_;                                      // of the line arriving
  std::uint64_t size_ = 0;                                // its bytes
  std::string text_;                                      // its first bytes, at most cap_
  std::size_t cap_;
  std::size_t budget_;  // of lost lines' text
  std::size_t survived_ = 0, lost_lines_ = 0;
  std::vector<std::string> lost_;
  capture torn_;
  bool ended_in_newline_ = true;
};

}  // namespace flushcheck::detail
