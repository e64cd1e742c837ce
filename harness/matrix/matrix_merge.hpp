#pragma once
/// Several matrix records (matrix --json, of other machines or releases) as
/// one matrix value, so that every reporter of matrix_report.hpp prints them
/// side by side (`matrix --merge FILE...`).
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "matrix.hpp"

namespace flushcheck {

/// One saved record and the label its columns get ("bookworm": its file
/// name without ".json").
struct labelled_record {
  std::string label;
  nlohmann::json record;
};

/// A column per record and toolchain set, named "LABEL/SET" ("trixie/musl"),
/// in the order given; a row per property and language of the catalogue that
/// any record has. Cells of properties this flushcheck does not know are left
/// out and counted in UNKNOWN. Throws usage_error naming the label of a
/// record that is not one.
matrix merge_records(const std::vector<labelled_record>& records, std::size_t& unknown);

/// The merged matrix M as JSON (matrix_json.cpp): to_json(M) with each
/// record's label and machine in place of this machine's.
nlohmann::json to_json(const matrix& m, const std::vector<labelled_record>& records);

}  // namespace flushcheck
