#pragma once
/// Text tables for a terminal, one way for every reporter (matrix, bench,
/// explore, count): fixed-width columns, each left- or right-aligned.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace flushcheck {

/// S padded with spaces to W characters: on the right (left-aligned, as
/// std::left << std::setw(W)), or on the left with RIGHT. A longer S is kept whole.
std::string pad(std::string_view s, std::size_t w, bool right = false);

/// One column of a table.
struct text_column {
  std::size_t width = 0;  ///< cells are padded to it; 0: not padded (a last, free column)
  bool right = false;     ///< aligned right, as numbers are
  std::size_t gap = 1;    ///< spaces before it (the first column's come after the indent)
  bool cut = false;       ///< a longer cell is cut to the width, ending in "..."
};

/// CELLS laid out in COLUMNS after INDENT: one line, without its newline.
std::string text_row(std::string_view indent, const std::vector<text_column>& columns,
                     const std::vector<std::string>& cells);

}  // namespace flushcheck
