#pragma once
// explore's reference output, spooled to an unlinked temporary file, and a
// cut run's output compared with it as it arrives: both in bounded memory,
// whatever the program prints and however many cuts there are.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "unique_fd.hpp"

namespace flushcheck::detail {

/// The reference run's bytes of one stream, in a file nobody else sees.
class reference_output {
 public:
  reference_output();  ///< an empty, unlinked file in temp_dir(); throws harness_error
  void append(std::string_view bytes);
  std::uint64_t size() const noexcept { return size_; }
  /// Lines, an unterminated last one counting.
  std::uint64_t lines() const noexcept { return lines_ + (ends_in_newline_ ? 0 : 1); }
  /// Up to N bytes from offset AT.
  std::string read(std::uint64_t at, std::size_t n) const;
  /// The lines that start at offset AT (a line's start), as long as they fit
  /// in BUDGET bytes (the first always, cut to BUDGET): what a report keeps.
  std::vector<std::string> lines_from(std::uint64_t at, std::size_t budget) const;

 private:
  unique_fd fd_;
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
};

}  // namespace flushcheck::detail
