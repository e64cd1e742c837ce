#pragma once
/// `flushcheck doctor -- PROG`: why a program's output goes missing or comes
/// late, and which change fixes it, each fix verified by running with it.
/// The diagnosis is doctor_diagnosis.hpp, the fixes doctor_fixes.hpp, the
/// reporters doctor_report.hpp.
#include <chrono>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "doctor_diagnosis.hpp"
#include "doctor_fixes.hpp"
#include "program_kind.hpp"

namespace flushcheck {

/// What the doctor concludes, worst first.
enum class doctor_verdict {
  lost,        ///< a cut or its own end lost output a pty reader had (exit 1)
  held,        ///< held on every sink, a terminal too, until late (exit 1)
  no_verdict,  ///< the pty is no reference for a stream (exit 6)
  late,        ///< nothing lost, but lines came late (exit 0)
  safe,        ///< nothing lost, late or held (exit 0)
};
/// "lost", "held", "no verdict", "late", "safe".
std::string_view to_string(doctor_verdict v);

/// The program's own switch that gives a terminal what a pipe gets (no
/// pager, no colour: program_switches.hpp), for a pty that was no reference.
struct terminal_switch {
  std::vector<std::string> args;  ///< the switch, right after the program's name
  std::vector<std::string> argv;  ///< the program's command line with it
  std::string effect, source;
};

struct doctor_report {
  std::vector<std::string> argv;
  program_kind kind;
  std::chrono::milliseconds deadline{0};
  /// One diagnosis per stream the program wrote: stdout, stderr, and both on
  /// one sink (2>&1) when it wrote to both.
  std::vector<diagnosis> views;
  std::vector<doctor_fix> fixes;  ///< every fix tried, those that help first
  /// When a stream had no verdict and the program has such a switch: run
  /// doctor again with it.
  std::optional<terminal_switch> plain_terminal;
  /// Variables of the caller's environment that change buffering for a
  /// program of this kind and that the runs did not get (they run in the
  /// clean environment), one note each.
  std::vector<std::string> notes;

  /// The worst of the streams' verdicts; 2>&1 in another order than on the
  /// pty is a finding (diagnosis::no_reference there), not "no verdict".
  doctor_verdict verdict() const;
  /// The 2>&1 diagnosis, when the program wrote both streams; nullptr else.
  const diagnosis* merged() const;
  /// 2>&1 came in another order on a pipe or a file than on the pty, where
  /// each stream alone had the pty for a reference.
  bool reordered() const;
};

/// The program wrote nothing to stdout or stderr on any sink: nothing to diagnose.
struct no_output_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Identifies the program, runs the diagnosis of each stream it writes and,
/// if something is lost, late or held, tries the fixes. Throws spawn_error
/// (not found, not executable) and no_output_error.
doctor_report doctor(doctor_options o);

}  // namespace flushcheck
