#pragma once
/// The conformance matrix as one value, built once from what the columns ran:
/// rows (a property of the catalogue in one language) x columns (named sets of
/// targets: toolchain sets, later runtimes) x sinks, each cell a case_result,
/// with the notes, failures and differences that the reporters
/// (matrix_report.hpp) print. It only holds data; it prints nothing.
#include <array>
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "conformance.hpp"
#include "sink.hpp"

namespace flushcheck {

/// A column: one named set of targets (a toolchain set, and for this
/// machine's default set the runtimes when asked for).
struct matrix_column {
  std::string name;      ///< "default", "musl"
  impl_profile profile;  ///< what its targets say they were built with
  /// Its runtimes: "python 3.11.2", or "ruby: WHY IT CANNOT RUN" (runtime rows skip).
  std::vector<std::string> runtimes;

  /// "glibc 2.36, libstdc++ 12 (20220819)", then "; runtimes: python 3.11.2, ..." if any.
  std::string summary() const;
  /// The column of SET: its name, profile and runtimes.
  static matrix_column of(const target_set& set);
};

/// What one column ran, in any order: the input of make_matrix.
struct column_results {
  matrix_column column;
  std::vector<case_result> results;
};

/// A row: one property in one language, with its cells per column and sink.
struct matrix_row {
  const property* prop = nullptr;  ///< points into the catalogue (static storage)
  lang language = lang::c;
  std::vector<sink_kind> sinks;  ///< the sinks some column ran it on, in catalogue order
  std::vector<std::map<sink_kind, case_result>> cells;  ///< cells[column][sink]

  /// The cell of COLUMN on SINK; nullptr where that column did not run it.
  const case_result* find(std::size_t column, sink_kind sink) const;
  /// Did COLUMN run this row on any sink?
  bool ran_in(std::size_t column) const { return !cells.at(column).empty(); }
  /// cell_text of the cell of COLUMN on SINK, "-" where there is none.
  std::string text(std::size_t column, sink_kind sink) const;
  /// "stdout.buffer_size [C]" ([C++] for the C++ targets).
  std::string label() const;
  /// "stdout.buffer_size [C] pipe": one line of the table with a column per set.
  std::string label(sink_kind sink) const;
};

/// Where a cell is: rows[row], on SINK, in columns[column].
struct cell_ref {
  std::size_t row = 0;
  sink_kind sink = sink_kind::pipe;
  std::size_t column = 0;
};

/// The columns that saw one value on one line (row and sink).
struct matrix_outcome {
  std::string observed;
  /// Ascending. The first one's explanation stands for the others.
  std::vector<std::size_t> columns;
};

/// A line of a documented or observed property where the columns disagree.
struct matrix_difference {
  std::size_t row = 0;
  sink_kind sink = sink_kind::pipe;
  std::vector<matrix_outcome> outcomes;  ///< two or more, ordered by observed value
};

/// One line of the table with a column per language (the runtimes side by
/// side): a property on a sink, its cell in each language of one column.
struct language_line {
  const property* prop = nullptr;
  sink_kind sink = sink_kind::pipe;
  std::vector<const case_result*> cells;  ///< per languages(); nullptr where it did not run
  bool differs = false;                   ///< two languages saw different values
};

/// How one column's cells of one tier came out (matrix::tally): asserted and
/// passing, asserted and failing, a value recorded without a verdict (observed
/// tier, or documented for another implementation), skipped here.
struct verdict_count {
  std::size_t pass = 0;
  std::size_t fail = 0;
  std::size_t observed = 0;
  std::size_t skipped = 0;
};

struct matrix {
  std::vector<matrix_column> columns;
  /// The sink columns of a one-set table: pty, pipe, file and full always
  /// (so that its header stays put), and any other sink a row has.
  std::vector<sink_kind> sinks;
  std::vector<matrix_row> rows;  ///< in catalogue order; only rows some column ran
  /// Cells worth a line under a one-set table, by column, then in line order:
  /// each failure (asserted or not) and each value of an observed property.
  std::vector<cell_ref> notes;
  /// Cells of asserted properties that fail, by column, then by case id.
  std::vector<cell_ref> failures;
  std::vector<matrix_difference> differences;  ///< in line order

  const case_result& at(const cell_ref& cell) const;
  /// Every cell of COLUMN, in line order (row, then sink).
  std::vector<cell_ref> cells_of(std::size_t column) const;
  std::size_t case_count(std::size_t column) const;
  std::size_t failure_count(std::size_t column) const;
  /// COLUMN's cells by tier (indexed by tier: required, documented, observed) and outcome.
  std::array<verdict_count, 3> tally(std::size_t column) const;
  /// The groups of the rows ("stdout by destination", ...), in row order.
  std::vector<std::string> groups() const;
  /// Lines of the table with a column per set: (row, sink) pairs.
  std::size_t line_count() const;
  /// The languages of the rows, in row order (C, C++, then the runtimes).
  std::vector<lang> languages() const;
  /// COLUMN's rows by property and sink, a cell per language: in row order.
  std::vector<language_line> by_language(std::size_t column) const;
};

/// The skipped cells of a column, over its tiers (matrix::tally).
std::size_t skipped_count(const std::array<verdict_count, 3>& tally) noexcept;

/// One tier's counts of a column in words, skipped cells left out: "120
/// pass, 2 FAIL, 12 not asserted"; for the observed tier "10 values".
std::string count_text(const verdict_count& n, tier level);

/// A cell as the tables show it: pass / FAIL where asserted; "skipped: WHY"
/// where the machine cannot check it; otherwise the observed value, in
/// parentheses for a documented property (not asserted for this profile).
std::string cell_text(const case_result& r);

/// A cell of the table with a column per language: the value seen, "FAIL: "
/// before it where asserted and failing, or "skipped: WHY".
std::string value_text(const case_result& r);

/// What a note on R starts with: "FAIL ", "not asserted for this profile: "
/// (a documented property failing elsewhere), "skipped here: " or "" (an
/// observed value).
const char* note_tag(const case_result& r);

/// The matrix of what RAN: one column per element, rows in the order of
/// PROPERTIES (cases of properties not in it are left out).
matrix make_matrix(std::vector<column_results> ran,
                   const std::vector<property>& properties = catalogue());

}  // namespace flushcheck
