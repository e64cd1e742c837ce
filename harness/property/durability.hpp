#pragma once
/// The durability table (docs/loggers.md, `flushcheck durability`): for a
/// logger configuration (a [[property]] of a gate file: its driver, stream,
/// levels and threads) and each way a run may end, what happens to the
/// records, found the way a property is: the strongest promise (every
/// record logged arrived, in order, and no line torn) searched at that end
/// alone, and its counterexample, if any, classified: kept, lost, torn, or
/// racy with its rate. Whatever the library promises, this says what it does.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "property_result.hpp"
#include "property_search.hpp"
#include "property_spec.hpp"

namespace flushcheck {

enum class durability_kind {
  kept,        ///< no case lost or tore a record
  lost,        ///< a case lost records, every time it ran
  torn,        ///< a case left a line cut short, every time
  racy,        ///< a case lost or tore records in some of its runs
  hung,        ///< a case ran past its timeout_ms: the program did not end so
  not_tested,  ///< no case ended so (the driver refuses the end, or the budget ran out)
  error,       ///< the harness could not tell: the driver did not start, or its own set-up failed
};
/// "kept", "lost", "torn", "racy", "hung", "n/a", "error".
std::string to_string(durability_kind k);

/// What one end does to one configuration's records.
struct durability_cell {
  property_end end = property_end::return_;
  durability_kind kind = durability_kind::not_tested;
  long cases = 0;        ///< cases that checked the end (their cut or fault came, a record counted)
  std::string workload;  ///< a shrunk case that lost or tore ("" when kept)
  std::string what;      ///< what arrived of it, or why it says nothing
  std::string rate;      ///< "deterministic (20 of 20 runs)", "fails 7 of 20 runs"
  /// Where that case was cut or failed, and stdout's sink: "ENOSPC at write
  /// 1 to file:app.log, then return 0; stdout on pipe" ("" when kept).
  std::string ended;
  /// Why the search said nothing of the library (error, hung, n/a): exit 3
  /// for a driver that did not start, 4 for the harness's own failure.
  property_error error = property_error::none;
};

/// A configuration's row.
struct durability_row {
  std::string file;      ///< the gate file, as given
  std::string property;  ///< the [[property]]'s name
  std::string finding;   ///< its `finding` key ("" when none): a link to docs/findings.md
  std::vector<durability_cell> cells;  ///< one per end of property_ends(), in that order
};

/// Whether A and B are one logger configuration: the same driver, streams,
/// records, tracing and timeout, whatever they promise and whichever cuts
/// and faults they generate. The table has a row per configuration.
bool same_configuration(const property_spec& a, const property_spec& b);
/// P, a property of ROW's configuration, taken into ROW: its cuts and
/// faults added to ROW's, and its finding if ROW has none.
void merge_configuration(property_spec& row, const property_spec& p);

/// SPEC's configuration probed at every end with O's cases, seed and budget
/// (per end); ON_CELL is told each cell as it is known.
durability_row probe_durability(
    const property_spec& spec, const std::string& file, const search_options& o,
    const std::function<void(const durability_row&, const durability_cell&)>& on_cell = {});

/// The cell a search at one end (R, of a spec promising all and whole lines
/// there) makes.
durability_cell cell_of(property_end end, const property_result& r);

/// For people: one line, "P at KILL: lost: log info 0; marker cut (deterministic ...)".
std::string to_text(const durability_row& r, const durability_cell& c);
/// The table as Markdown: a row per configuration, a column per end, each
/// cell its kind and what was lost; a configuration links to its file (from
/// DOCS_DIR, where the page is) and its finding.
std::string to_markdown(const std::vector<durability_row>& rows, const std::string& docs_dir);
/// The table as an SVG heat map (svg.hpp): a square per cell, coloured by
/// kind, its exact text in a <title>.
std::string to_svg(const std::vector<durability_row>& rows);
/// One JSON object (kind "durability").
nlohmann::json to_json(const std::vector<durability_row>& rows);

}  // namespace flushcheck
