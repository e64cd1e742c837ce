// A logger configuration probed at each end, and its row of the durability
// table (durability.hpp).
#include "durability.hpp"

#include <algorithm>

namespace flushcheck {

std::string to_string(durability_kind k) {
  switch (k) {
    case durability_kind::kept: return "kept";
    case durability_kind::lost: return "lost";
    case durability_kind::torn: return "torn";
    case durability_kind::racy: return "racy";
    case durability_kind::hung: return "hung";
    case durability_kind::error: return "error";
    case durability_kind::not_tested: break;
  }
  return "n/a";
}

namespace {

/// SPEC with one promise: at END, every record logged arrived, in order
/// (each once after `threads`), and no line is torn. Its own promises, its
/// `holds` and its `cases` go: this asks what happens, not what is promised.
property_spec strongest_at(const property_spec& spec, property_end end) {
  property_spec probe = spec;
  probe.holds = true;
  probe.promises.clear();
  promise& p = probe.promises[end];
  p.all = true;
  p.no_torn_record = true;
  return probe;
}

/// The kind of CE, a counterexample to the strongest promise.
durability_kind kind_of(const counterexample& ce) {
  if (ce.failed_runs < ce.runs) return durability_kind::racy;
  return ce.promise.id == promise_term_id::no_torn_record ? durability_kind::torn
                                                          : durability_kind::lost;
}

}  // namespace

bool same_configuration(const property_spec& a, const property_spec& b) {
  return a.argv == b.argv && a.env == b.env && a.watch == b.watch && a.in == b.in &&
         a.sinks == b.sinks && a.stderr_sink == b.stderr_sink && a.levels == b.levels &&
         a.threads == b.threads && a.traced == b.traced && a.timeout_ms == b.timeout_ms;
}

namespace {

/// TO with each of FROM it lacks, in FROM's order after its own.
template <typename T>
void add_missing(std::vector<T>& to, const std::vector<T>& from) {
  for (const auto& x : from)
    if (std::find(to.begin(), to.end(), x) == to.end()) to.push_back(x);
}

}  // namespace

void merge_configuration(property_spec& row, const property_spec& p) {
  add_missing(row.cuts, p.cuts);
  add_missing(row.faults, p.faults);
  if (row.finding.empty()) row.finding = p.finding;
}

namespace {

/// The kind of a search that ended in ERROR: the program hung, the harness
/// could not tell (spawn, harness), or no case ended so (nothing checked, a
/// driver that refuses the end).
durability_kind kind_of(property_error error) {
  switch (error) {
    case property_error::timeout: return durability_kind::hung;
    case property_error::spawn:
    case property_error::harness: return durability_kind::error;
    default: return durability_kind::not_tested;
  }
}

}  // namespace

durability_cell cell_of(property_end end, const property_result& r) {
  const long checked = r.ends.contains(end) ? r.ends.at(end).checked : 0;
  durability_cell c{end, durability_kind::kept, checked, "", "", "", "", property_error::none};
  if (r.found) {
    c.kind = kind_of(*r.found);
    c.workload = r.found->workload;
    c.what = r.found->failure;
    c.rate = r.found->rate();
    // The workload says how an end of its own came; a cut's or a fault's
    // place is said apart.
    c.ended = (is_cut(end) || end == property_end::fault ? r.found->end + "; " : "") +
              "stdout on " + std::string(to_string(r.found->sink));
  } else if (r.error_kind != property_error::none) {
    c.kind = kind_of(r.error_kind);
    // An end the driver's language lacks needs no repro line, with this
    // machine's paths, in a published table; an error keeps it.
    c.what = c.kind == durability_kind::not_tested ? r.error.substr(0, r.error.find("; repeat: "))
                                                   : r.error;
    c.error = r.error_kind;
  } else {
    c.what = std::to_string(checked) + " cases checked it (of " + std::to_string(r.cases) +
             "), each kept every record";
  }
  return c;
}

durability_row probe_durability(
    const property_spec& spec, const std::string& file, const search_options& o,
    const std::function<void(const durability_row&, const durability_cell&)>& on_cell) {
  durability_row row{file, spec.name, spec.finding, {}};
  for (property_end end : property_ends()) {
    search_options at = o;
    at.repeat.clear();
    row.cells.push_back(cell_of(end, search_property(strongest_at(spec, end), at)));
    if (on_cell) on_cell(row, row.cells.back());
  }
  return row;
}

}  // namespace flushcheck
