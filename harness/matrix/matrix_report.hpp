#pragma once
/// One reporter per format for the conformance matrix (matrix.hpp), each in
/// its own file (src/matrix_{text,markdown,json,html}.cpp), like Catch2's
/// reporters. Each takes the finished value and returns the whole output.
#include <string>

#include <nlohmann/json.hpp>

#include "matrix.hpp"

namespace flushcheck {

/// by_sink: for each column, a line per row and a column per sink, then the
/// notes (`flushcheck matrix`). by_column: a line per row and sink, a column
/// per set, then the differences and the failures (`matrix --all`).
/// by_language: for each column, a line per property and sink and a column
/// per language, each cell the value seen, then the lines where languages
/// differ with each one's repro (`matrix --runtimes`, docs/runtimes.md).
enum class matrix_layout { by_sink, by_column, by_language };

/// The table for a terminal, columns aligned with spaces.
std::string to_text(const matrix& m, matrix_layout layout);

/// The same as a Markdown table and lists (docs/matrix.md).
std::string to_markdown(const matrix& m, matrix_layout layout);

/// Every column, row and cell and the differences, one schema whatever the
/// layout (kind "matrix", json_document.hpp; docs/cli.md).
nlohmann::json to_json(const matrix& m);

/// One self-contained HTML page, a column per set (the by_column table).
std::string to_html(const matrix& m);

}  // namespace flushcheck
