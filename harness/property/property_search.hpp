#pragma once
/// A property gate's search: generate cases from a seed, run each against
/// the promise, and shrink the first that breaks it to the smallest case
/// that still breaks it the same way (the same term, the same check), then
/// say how often that case breaks it (docs/gate.md, "Property gates").
#include <cstdint>
#include <functional>

#include "property_result.hpp"
#include "property_spec.hpp"

namespace flushcheck {

struct search_options {
  long cases = 100;
  std::uint64_t seed = 0;
  /// Bounds the search; the shrinking, separately, gets as long again.
  double max_seconds = 30;
  /// A shrunk candidate counts as failing when it fails the same way in
  /// most of this many runs (stopping once the majority is known).
  int reruns = 5;
  /// Runs of the shrunk case that give its failure rate.
  int rate_runs = 20;
  std::function<void(int)> on_spawn;  ///< as gate_run::on_spawn
  /// How a user repeats the search ("flushcheck gate F --case P"): the seed is added.
  std::string repeat;
};

property_result search_property(const property_spec& spec, const search_options& o);

/// A seed from the system's entropy, for a search not given one.
std::uint64_t fresh_seed();

}  // namespace flushcheck
