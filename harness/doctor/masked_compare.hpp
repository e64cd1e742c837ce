#pragma once
/// Two runs' outputs held side by side line by line, around what a
/// field_mask masks (field_mask.hpp): doctor's comparisons where fields vary
/// between runs. The Nth line of one run is the Nth of the other, however
/// long its masked fields are, so an offset carries over by its line.
#include <cstddef>
#include <string>
#include <string_view>

#include "field_mask.hpp"

namespace flushcheck {

/// Where DATA's first N whole lines end (all of them, when it has fewer).
std::size_t end_of_lines(std::string_view data, std::size_t n);

/// DATA's size with each line masked by M: the same for two runs that wrote
/// the same lines around M, however long their varying fields (a pid of 3
/// digits in one run, of 5 in the next).
std::size_t masked_size(const field_mask& m, std::string_view data);

/// How many of OUT's first whole lines are REF's, compared around M.
std::size_t matching_lines(const field_mask& m, std::string_view ref, std::string_view out);

/// Offset AT of FROM at the same place of TO: in the same line, as far into
/// it as TO's line goes; TO's end when TO has fewer lines.
std::size_t same_place(std::string_view from, std::size_t at, std::string_view to);

/// Whether B is a prefix of A compared around M: each of B's whole lines is
/// A's, and an unterminated last one is the start of A's.
bool masked_prefix(const field_mask& m, std::string_view a, std::string_view b);

/// The first line where two outputs differ compared around M: its index
/// (from 0) and each side's, masked ("" past its end).
struct line_difference {
  std::size_t line = 0;
  std::string a, b;
};
line_difference first_difference(const field_mask& m, std::string_view a, std::string_view b);

}  // namespace flushcheck
