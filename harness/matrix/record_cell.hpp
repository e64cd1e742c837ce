#pragma once
/// One cell of a matrix record as a value: what the JSON reporter writes,
/// what --merge and --baseline read back (once, at the edge) and what a
/// baseline compares. Its strings are in the record's form: every byte as
/// the code point of the same value (bytes_as_code_points), so that a cell
/// run here and a cell read from a record compare alike.
#include <string>

#include <nlohmann/json.hpp>

#include "conformance.hpp"
#include "verdict.hpp"

namespace flushcheck {

struct record_cell {
  std::string id;      ///< "stdout.first_line_early/c/pipe"
  std::string column;  ///< its toolchain set: "default"
  std::string sink;    ///< "pipe"
  bool asserted = false;
  verdict outcome;  ///< observed, explanation and repro in the record's form
};

/// R, run on the set named COLUMN, as a record holds it.
record_cell cell_of(const case_result& r, const std::string& column);

/// A record's cell (untrusted: a field of the wrong type reads as empty).
record_cell read_cell(const nlohmann::json& cell);

/// The one way a cell is written into a record (docs/cli.md).
nlohmann::json to_json(const record_cell& c);

/// Its verdict and observed value in words: "pass, observed 0/0", "FAIL,
/// ...", "not asserted, ...", "skipped (tmpfs)". What a baseline compares.
std::string verdict_text(const record_cell& c);

}  // namespace flushcheck
