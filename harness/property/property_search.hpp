#pragma once
/// A property gate's search: check that the driver runs, generate cases from
/// a seed, run each against the promise, and shrink the first that breaks it
/// to the smallest case that still breaks it the same way (the same term,
/// the same check), then say how often that case breaks it (docs/gate.md,
/// "Property gates"). A case whose cut or fault never came is counted, not
/// judged; a promised end that no case tested is an error, never a pass.
#include <cstdint>
#include <functional>
#include <string>

#include "property_result.hpp"
#include "property_spec.hpp"

namespace flushcheck {

/// Where a search is, for a live progress line.
struct search_progress {
  enum class phase { searching, shrinking, rating };
  phase now = phase::searching;
  long cases = 0;  ///< cases run so far
  long cases_asked = 0;
  double seconds = 0;  ///< since the search started
  long shrink_steps = 0;
  long shrink_tries = 0;
  int runs = 0;  ///< rating: runs so far, of rate_runs
};

struct search_options {
  long cases = 100;
  std::uint64_t seed = 0;
  /// Bounds the search; the shrinking and the runs that rate the case
  /// found get as long again. No run lasts past its phase's end.
  double max_seconds = 30;
  /// A shrunk candidate counts as failing when it fails the same way in
  /// most of this many runs (stopping once the majority is known); a case
  /// found that does not fail again in this many runs is not shrunk.
  int reruns = 5;
  /// Runs of the case shown that give its failure rate.
  int rate_runs = 20;
  /// A case that ends with a KILL at a write is checked at every write cut
  /// of its workload, derived from one run where that is sound
  /// (every_write_cut.hpp); false: at the one it drew (--derive=off).
  bool derive = true;
  /// Worker processes that run the search's cases (workers.hpp); the
  /// result is the same for any number. Shrinking and rating run here, one
  /// run after another.
  int jobs = 1;
  std::function<void(int)> on_spawn;  ///< as gate_run::on_spawn
  /// Called after each case, candidate and rating run.
  std::function<void(const search_progress&)> on_progress;
  /// Run the case shown once more with its timeline kept (gate --html).
  bool timeline = false;
  /// How a user repeats the search ("flushcheck gate F --case P --cases N
  /// --max-seconds T --seed S", inside a `bash -c` when a word has a
  /// newline): the result's repeat line, as it is.
  std::string repeat;
};

property_result search_property(const property_spec& spec, const search_options& o);

/// A seed from the system's entropy, for a search not given one.
std::uint64_t fresh_seed();

}  // namespace flushcheck
