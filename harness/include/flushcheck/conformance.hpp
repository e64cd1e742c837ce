#pragma once
/// The conformance properties: each runs the script targets of one toolchain
/// on one sink, cut at markers, and returns a verdict. The GoogleTest suite
/// and `flushcheck matrix` run the same catalogue.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "flushcheck/observation.hpp"
#include "flushcheck/run.hpp"
#include "flushcheck/sink.hpp"

namespace flushcheck {

/// required: ISO C, POSIX or C++ demand it (a failure is a conformance bug).
/// documented: the implementation documents it or its source fixes it;
/// asserted for the detected profile only. observed: recorded, never asserted.
enum class tier { required, documented, observed };
const char* to_string(tier t) noexcept;

/// What the standards leave open is filled in per implementation.
struct impl_profile {
  std::string libc;     ///< "glibc", "musl", or "unknown"
  std::string cxxlib;   ///< "libstdc++", "libc++", or "unknown"
  std::string version;  ///< e.g. "glibc 2.36, libstdc++ 20220819"
};

/// One toolchain's script targets.
struct target_set {
  std::string name;             ///< "gcc-glibc"
  std::string stdio_script;     ///< path of the C target
  std::string iostream_script;  ///< path of the C++ target ("" if none)
  impl_profile profile;
};

/// A target set whose profile is what its targets say of themselves
/// (`stdio_script --version`): the libraries they were built against, not
/// the harness's. Throws spawn_error if a target cannot run.
target_set probe_target_set(std::string name, std::string stdio_script,
                            std::string iostream_script);

/// The set in DIR (its stdio_script, and its iostream_script if there is
/// one: musl's set is C only), probed; nullopt if DIR has no stdio_script.
std::optional<target_set> probe_target_dir(std::string name, const std::string& dir);

enum class lang { c, cxx };

struct verdict {
  bool pass = true;
  std::string observed;     ///< what the run showed, short ("visible at marker 1: 0 of 4")
  std::string explanation;  ///< why it passes or fails, for people
  std::string repro;        ///< one `flushcheck run ...` command line
};

/// The environment the properties give the programs they run: only PATH and
/// LANG, so variables like PYTHONUNBUFFERED or _STDBUF_O cannot leak in.
std::vector<std::string> clean_environment();

/// Runs scripts for one property case and remembers the command for the repro.
class property_context {
 public:
  property_context(const target_set& targets, lang language, sink_kind sink)
      : targets_(targets), lang_(language), sink_(sink) {}

  const target_set& targets() const noexcept { return targets_; }
  lang language() const noexcept { return lang_; }
  sink_kind sink() const noexcept { return sink_; }

  /// Runs SCRIPT with stdout on sink(); o's argv and env are filled in.
  observation run(const std::string& script, run_options o = {});
  /// The command line that repeats the last run.
  const std::string& last_command() const noexcept { return last_; }

 private:
  const target_set& targets_;
  lang lang_;
  sink_kind sink_;
  std::string last_;
};

struct property {
  std::string name;   ///< "stdout.fully_buffered"
  std::string group;  ///< "stdout by destination"
  tier level;
  std::string source;  ///< "ISO C 7.21.3p7"
  std::string claim;   ///< one sentence
  std::vector<lang> langs;
  std::vector<sink_kind> sinks;
  /// Does the check assert for PROFILE? (documented tier: only where known.)
  std::function<bool(const impl_profile&)> applies = [](const impl_profile&) { return true; };
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
  property_case c;
  verdict v;
  bool asserted = true;  ///< false: observed tier, or documented for another profile
};

case_result run_case(const property_case& c, const target_set& targets);

}  // namespace flushcheck
