#pragma once
/// `flushcheck doctor -- PROG`: why a program's output goes missing or comes
/// late, and which change fixes it, each fix verified by running with it.
/// The diagnosis is doctor_diagnosis.hpp, the fixes doctor_fixes.hpp, the
/// reporters doctor_report.hpp.
#include <chrono>
#include <stdexcept>
#include <string>
#include <vector>

#include "flushcheck/doctor_diagnosis.hpp"
#include "flushcheck/doctor_fixes.hpp"
#include "flushcheck/program_kind.hpp"

namespace flushcheck {

struct doctor_report {
  std::vector<std::string> argv;
  program_kind kind;
  std::chrono::milliseconds deadline{0};
  diagnosis found;
  std::vector<doctor_fix> fixes;  ///< every fix tried, those that help first
  /// Variables of the caller's environment that change buffering and that
  /// the runs did not get (they run in the clean environment), one note each.
  std::vector<std::string> notes;
};

/// The program wrote nothing to stdout on any sink: nothing to diagnose.
struct no_output_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Identifies the program, runs the diagnosis and, if something is lost or
/// late, tries the fixes. Throws spawn_error (not found, not executable) and
/// no_output_error.
doctor_report doctor(const doctor_options& o);

}  // namespace flushcheck
