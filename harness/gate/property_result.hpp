#pragma once
/// What a property gate found (`flushcheck gate`, docs/gate.md "Property
/// gates"): the cases it ran, how each end it promises was tested, and,
/// when the promise broke, the shrunk counterexample, ready to paste; or why
/// it could say nothing about the library. The property stage fills it; the
/// gate reporters print it (one reporter per format, with the cases').
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "observation.hpp"
#include "property_spec.hpp"

namespace flushcheck {

/// A run that broke the promise, shrunk.
struct counterexample {
  promised_term promise;  ///< the term broken and its end: "through_last_flush at _exit"
  std::string check;      ///< the check that failed: "records_through 3 in file:app.log"
  std::string failure;    ///< what arrived against what was promised (the check's words)
  std::string end;        ///< how the run ended: "KILL at marker 1 (after op 4)"
  sink_kind sink{};       ///< stdout's sink
  std::string workload;   ///< the shrunk workload's ops, "; "-separated
  std::string status;     ///< how the program ended ("killed by SIGKILL")
  std::string repro;      ///< the shell line that repeats the run
  std::string case_toml;  ///< a [[case]] block that pins it in the gate file
  /// The driver's last lines on stderr in that run (at most 10, escaped).
  std::string driver_stderr;
  long found_at = 0;  ///< the case (from 1) that first broke it
  double seconds_to_find = 0;
  long shrink_steps = 0;        ///< smaller cases accepted
  long shrink_tries = 0;        ///< candidates run
  bool shrink_stopped = false;  ///< the time budget ended the shrinking
  /// Set when the case shown is the case as found, not shrunk: it did not
  /// break the promise again in a few runs (a race that seldom loses), or
  /// the shrunk case never broke it again; this says which.
  std::string note;
  /// Runs of the case shown, and how many broke it the same way (for a
  /// case not shrunk, its first run is one of them).
  int failed_runs = 0;
  int runs = 0;
  bool rate_stopped = false;  ///< the time budget ended the runs before rate_runs
  /// With a timeline asked for (gate --html): one more run of the case shown.
  std::optional<observation> obs;
  bool deterministic() const { return runs > 0 && failed_runs == runs && !rate_stopped; }
  /// "deterministic (20 of 20 runs)", "fails 7 of 20 runs", "failed 1 of
  /// 21 runs", "... (stopped at --max-seconds)".
  std::string rate() const {
    const std::string of = std::to_string(failed_runs) + " of " + std::to_string(runs) + " runs";
    const std::string stopped = rate_stopped ? " (stopped at --max-seconds)" : "";
    if (deterministic()) return "deterministic (" + of + ")";
    return (note.empty() ? "fails " : "failed ") + of + stopped;
  }
};

/// How the cases that planned one end fared.
struct end_tally {
  long generated = 0;  ///< cases that planned it
  long tested = 0;     ///< of those, its cut or fault happened (or the program ended so)
  long checked = 0;    ///< of those, a check its promise asks was evaluated
  /// Why the others did not test it, and how many each.
  std::map<std::string, long> missed;
  /// Of the tested cases that end with a KILL at a write: those whose every
  /// write cut was checked, derived from one run (property/every_write_cut.hpp),
  /// the cuts they had, and how many of those were run for real to check it.
  long derived = 0;
  long derived_cuts = 0;
  long verified_cuts = 0;
  /// Why the other cases with write cuts were checked at their own cut
  /// only, how many each, and the first one's particulars.
  std::map<std::string, long> not_derived;
  std::map<std::string, std::string> not_derived_example;
};

/// Why a search says nothing about the library.
enum class property_error {
  none,
  spawn,            ///< the driver could not be started (exit 3)
  driver,           ///< the driver failed: refused a workload, died before logging (exit 2)
  harness,          ///< the harness's own set-up failed: a full file sink (exit 4)
  timeout,          ///< a case ran past its timeout_ms: the library hung, or the driver (exit 1)
  nothing_checked,  ///< an end it promises was never tested and checked (exit 1)
};

struct property_result {
  std::string name;
  std::uint64_t seed = 0;
  long cases = 0;           ///< cases run (each tested or not)
  long cases_asked = 0;     ///< --cases
  bool budget_hit = false;  ///< --max-seconds stopped the search early
  double seconds = 0;
  /// Why it could say nothing (property_error); "" when it could.
  property_error error_kind = property_error::none;
  std::string error;
  /// For a driver that failed: its last lines on stderr (at most 10, escaped).
  std::string driver_stderr;
  /// Per end generated: how its cases fared.
  std::map<property_end, end_tally> ends;
  std::optional<counterexample> found;
  std::string repeat;       ///< the command that repeats this search (same seed)
  bool must_break = false;  ///< the property's holds = false: a counterexample is the pass
  bool pass() const {
    return error_kind == property_error::none && found.has_value() == must_break;
  }
  /// Cases that did not test their end (the cut or fault not delivered).
  long untested() const {
    long n = 0;
    for (const auto& [end, t] : ends) n += t.generated - t.tested;
    return n;
  }
};

}  // namespace flushcheck
