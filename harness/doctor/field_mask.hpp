#pragma once
/// What doctor masks in every run's output before comparing two: the fields
/// that vary between otherwise equal runs (a pid, the time: bunyan's "pid"
/// and "time"), and each match of an --ignore pattern (ignore_pattern.hpp).
///
/// A line is cut into fields, runs of digits joined by one of - : . / T , +
/// (1234, 2026-12-05T14:00:00.123), and the text around them. Where two runs
/// of the program on one sink wrote lines of the same index with the same
/// text, the fields that differ vary: that field of that line is masked in
/// every run. A timestamp is one field, so that a clock whose seconds
/// agreed in two runs is masked whole once its milliseconds differed.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ignore_pattern.hpp"

namespace flushcheck {

/// A field: digits alone (a pid, a count) or digit runs joined (a date, a clock).
enum class field_kind : std::uint8_t { number, timestamp };
/// "pid-like number", "timestamp".
std::string_view to_string(field_kind k);

/// The fields of one kind and place (the FIELD-th of their lines) that vary.
struct varying_field {
  field_kind kind = field_kind::number;
  std::size_t field = 0;  ///< among its line's fields, from 0
  std::size_t lines = 0;  ///< lines where it varies
  std::string example;    ///< the first seen, with the text before it: "pid":1234
};

class field_mask {
 public:
  explicit field_mask(std::vector<ignore_pattern> ignore = {});

  /// The fields that differ where whole lines of A and B (two runs on one
  /// sink) of the same index have the same text, up to the first pair of
  /// lines whose text differs (past it, lines need not pair up).
  void learn(std::string_view a, std::string_view b);
  /// Nothing is masked: outputs are compared byte for byte.
  bool empty() const noexcept { return places_.empty() && ignore_.empty(); }
  /// LINE, the INDEX-th line of an output (from 0, without its newline),
  /// each --ignore match and then each varying field replaced.
  std::string masked(std::size_t index, std::string_view line) const;

  /// The varying fields by kind and place, those of the most lines first.
  std::vector<varying_field> varying() const;
  const std::vector<ignore_pattern>& ignored() const noexcept { return ignore_; }
  /// "compared around fields that vary between runs: pid-like numbers at
  /// "pid":1234 (field 1, 5 lines)", or "compared around what --ignore '...'
  /// matched", for people; "" when empty().
  std::string describe() const;

  /// What a varying field becomes.
  static constexpr std::string_view placeholder = "<varies>";

 private:
  /// A varying field, in 8 bytes: a mask holds one for each line of up to
  /// 16 MiB outputs. Past these widths nothing more is learnt.
  struct place {
    std::uint32_t line;
    std::uint16_t field;
    field_kind kind;
  };
  std::string ignored(std::string_view line) const;
  bool learn_line(std::size_t index, const std::string& a, const std::string& b,
                  std::vector<place>& found);
  void add(const std::vector<place>& found);

  std::vector<ignore_pattern> ignore_;
  std::vector<place> places_;            // by line, then field, each once
  std::vector<varying_field> examples_;  // the first of each kind and field
};

}  // namespace flushcheck
