#pragma once
/// The conformance properties: each runs the script targets of one toolchain
/// on one sink, cut at markers, and returns a verdict. The GoogleTest suite
/// and `flushcheck matrix` run the same catalogue.
#include <functional>
#include <string>
#include <vector>

#include "observation.hpp"
#include "profile.hpp"
#include "run.hpp"
#include "sink.hpp"
#include "target_set.hpp"
#include "verdict.hpp"

namespace flushcheck {

/// required: ISO C, POSIX or C++ demand it (a failure is a conformance bug).
/// documented: the implementation documents it or its source fixes it;
/// asserted for the detected profile only. observed: recorded, never asserted.
enum class tier { required, documented, observed };
const char* to_string(tier t) noexcept;

/// Runs scripts for one property case and remembers the command for the repro.
class property_context {
 public:
  property_context(const target_set& targets, lang language, sink_kind sink)
      : targets_(targets), lang_(language), sink_(sink) {}

  const target_set& targets() const noexcept { return targets_; }
  lang language() const noexcept { return lang_; }
  sink_kind sink() const noexcept { return sink_; }

  /// Runs SCRIPT with stdout on sink(); o's argv and env are filled in (env:
  /// the clean environment unless O sets one). FLAGS go to a runtime's
  /// interpreter, before its script file (Python's -u).
  observation run(const std::string& script, run_options o = {},
                  const std::vector<std::string>& flags = {});
  /// The command line that repeats the last run.
  const std::string& last_command() const noexcept { return last_; }

 private:
  const target_set& targets_;
  lang lang_;
  sink_kind sink_;
  std::string last_;
};

/// The `applies` of a property that holds for every profile.
inline bool applies_everywhere(const impl_profile&) noexcept { return true; }

/// One entry of the catalogue, written with designated initializers
/// (`{.name = ..., .group = ..., ..., .check = ...}`); members in this order.
struct property {
  std::string name;   ///< "stdout.fully_buffered"
  std::string group;  ///< "stdout by destination"
  tier level = tier::required;
  std::string source;  ///< "ISO C 7.21.3p7"
  std::string claim;   ///< one sentence
  std::vector<lang> langs;
  std::vector<sink_kind> sinks;
  /// Does the check assert for PROFILE? (documented tier: only where known.)
  /// Left out: everywhere; never an empty function.
  std::function<bool(const impl_profile&)> applies = applies_everywhere;
  std::function<verdict(property_context&)> check;
};

/// One property on one language and sink: the unit a test or a matrix cell runs.
struct property_case {
  const property* prop;
  lang language;
  sink_kind sink;
  std::string id() const;  ///< "stdout.fully_buffered/c/pipe"
};

/// Every property, in the order of docs/semantics.md.
const std::vector<property>& catalogue();

/// Every (property, language, sink) of the catalogue, those of languages the
/// set has no target for left out.
std::vector<property_case> cases(const target_set& targets);

/// Result of one case on one target set, with tier-aware meaning.
struct case_result {
  property_case prop_case;  ///< the property, language and sink checked
  verdict outcome;          ///< what the check found
  bool asserted = true;     ///< false: observed tier, or documented for another profile
};

case_result run_case(const property_case& c, const target_set& targets);

}  // namespace flushcheck
