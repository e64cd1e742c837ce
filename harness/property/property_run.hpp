#pragma once
/// One property case, run: the driver with the case's workload, cut and
/// fault (a gate_run), and the promise's checks on what arrived. A run says
/// something about the library only when its end happened as planned and
/// nothing of the harness failed; otherwise the outcome says why not.
#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "gate_file.hpp"
#include "property_promise.hpp"
#include "property_spec.hpp"
#include "workload_case.hpp"

namespace flushcheck {

/// How a case runs besides what it is.
struct case_run_options {
  std::function<void(int)> on_spawn;  ///< as gate_run::on_spawn
  /// The search's budget: the run's deadline is the smaller of the spec's
  /// timeout_ms and this, and a watched log is read no longer than it.
  std::optional<std::chrono::steady_clock::time_point> deadline;
  /// Keep the run's observation with its timeline (write calls per
  /// destination, when each returned), for a picture of it.
  bool timeline = false;
};

/// Why an outcome says nothing about the library, by whose failure.
enum class case_error {
  none,
  spawn,    ///< the driver could not be started
  driver,   ///< the driver refused the workload (exit 64) or failed before logging
  harness,  ///< the harness's own set-up failed (a full file sink)
  timeout,  ///< the driver ran past its timeout_ms
};
/// How many kinds there are: the worker wire bounds them.
inline constexpr std::size_t case_error_count = static_cast<std::size_t>(case_error::timeout) + 1;

/// How a case with a KILL at a write was checked when every write cut of
/// its workload was asked for (every_write_cut.hpp).
struct case_derivation {
  /// Write cuts derived from the uncut run and checked (0: none; see not_derived).
  long cuts = 0;
  long verified = 0;  ///< of them, run for real to check the derivation
  /// The case's `at` of the cut whose run this outcome is: the first cut
  /// that broke the promise, else the last.
  long at = 0;
  /// Why the cuts were not derived, in words that group alike cases
  /// ("more than one process or thread ran"): the case ran its own cut, as
  /// without a derivation. "" when they were.
  std::string not_derived;
  std::string detail;  ///< not_derived, said of this case ("write cut 3, run for real, left ...")
};

/// How a tested case broke its promise: its first broken check, by the
/// term that promised it and the check. Two runs of a case break it the
/// same way when these are equal (the search's rating and shrinking).
struct breach {
  promised_term term;  ///< "through_last_flush at _exit"
  check_id check{};
  bool operator==(const breach&) const = default;
  /// "through_last_flush at _exit: records_through"
  std::string text() const;
};
std::ostream& operator<<(std::ostream& os, const breach& b);
/// B's text, or "(none)".
std::ostream& operator<<(std::ostream& os, const std::optional<breach>& b);

struct workload_outcome {
  case_plan plan;
  /// Why the case says nothing: see case_error (none: it ran).
  case_error error_kind = case_error::none;
  std::string error;
  /// The search's budget ended the run before it did: no verdict.
  bool out_of_budget = false;
  /// "": the planned end happened (the cut or the fault was delivered, or
  /// the program ended by itself). Else why not, in words that group alike
  /// cases: "the driver never reached marker 1: does it speak the marker
  /// protocol?", "the run ended before its cut's write to stdout".
  std::string missed;
  std::vector<promised_term> terms;       ///< each check's promise term
  std::vector<gate_check_result> checks;  ///< in the order of promised_checks()
  std::string status;                     ///< how the program ended
  std::string repro;                      ///< the shell line that repeats the run
  /// The last lines the driver wrote to stderr: at most 10 lines and 2,000
  /// bytes, each escaped (printable()): what a counterexample shows.
  std::string driver_stderr;
  /// Processes and threads the tracer followed in the run (0: untraced).
  int processes = 0;
  /// With case_run_options::timeline: the run, for its picture.
  std::optional<observation> obs;
  /// When every write cut was asked for and the case has them.
  std::optional<case_derivation> derivation;
  /// The case tested its end: it ran, its end happened, nothing failed.
  bool tested() const { return error_kind == case_error::none && !out_of_budget && missed.empty(); }
  /// How a tested case broke its promise, the way a shrunk candidate must
  /// fail to count; nullopt: the promise held, or the case was not tested.
  std::optional<breach> broken() const;
  /// Tested, and every check held.
  bool kept() const { return tested() && !broken(); }
  /// The first broken check's index (a tested case only).
  std::optional<std::size_t> first_broken() const;
  /// At least one of the promise's checks was evaluated (the case was tested
  /// and its end promises something checkable for its records).
  bool checked() const { return tested() && !checks.empty(); }
};

/// Runs C against SPEC.
workload_outcome run_workload_case(const property_spec& spec, const workload_case& c,
                                   const case_run_options& o = {});

/// What run_case_whole keeps of each stream and watched file: a derivation
/// needs the records' stream whole, and one longer is not derived.
inline constexpr std::size_t kept_whole = std::size_t{64} << 20;

/// A run of a case, and the gate's result it came from (none: it could not start).
struct case_run {
  workload_outcome out;
  std::optional<gate_result> result;
};

/// C run as run_workload_case runs it, each stream and watched file kept
/// up to kept_whole bytes, and traced; uncut when UNCUT (its ops and the
/// end op with no cut: what a derivation of its cuts starts from; no
/// check is asked of it, and its missed end is not judged).
case_run run_case_whole(const property_spec& spec, const workload_case& c,
                        const case_run_options& o, bool uncut);

/// Runs SPEC's driver once on `log LEVEL 0` (its lowest level), with a
/// marker when it generates marker cuts, then `return 0`, before any case:
/// a driver that refuses it, cannot run (126, 127), dies or fails before its
/// first record, never reaches its marker, or whose records' writes the
/// tracer cannot see when cuts or faults need them, is a driver that failed
/// (error_kind driver), not a library that broke a promise. Traced when the
/// spec is, or cuts or faults at writes need it (its outcome's processes
/// then says whether the driver runs one thread).
workload_outcome run_driver_check(const property_spec& spec, const case_run_options& o = {});

/// A [[case]] block for the gate file that repeats C and expects what broke
/// (CHECK): it fails while the bug is there (for a holds = false property,
/// it says holds = false, and passes while the bug is there). Every value is
/// as the gate file spells it, placeholders kept.
std::string case_toml(const property_spec& spec, const workload_case& c, const gate_expect& check,
                      const std::string& name);

}  // namespace flushcheck
