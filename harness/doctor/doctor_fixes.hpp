#pragma once
/// The doctor's fixes: one table of changes (a variable, an interpreter flag,
/// a line loaded into a runtime, a well-known program's own switch, stdbuf,
/// a terminal), each tried by running the whole diagnosis again with it
/// (doctor_fixes.cpp).
#include <string>
#include <vector>

#include "doctor_diagnosis.hpp"
#include "program_kind.hpp"

namespace flushcheck {

/// A change tried: the same runs with it.
struct doctor_fix {
  std::string name;    ///< "PYTHONUNBUFFERED=1"
  std::string advice;  ///< what to change, for people
  std::string source;  ///< the documentation it comes from
  bool helps = false;
  std::string result;  ///< "no line lost or late ...", "still loses 3 lines (...)"
  /// The runs with the fix: their command line and environment, and the
  /// sink it puts the stream on (a terminal), if it changes that; ARGV and
  /// ENV empty: the program's own.
  std::vector<std::string> argv, env;
  std::optional<sink_kind> sink;
};

/// Each fix of the table that applies to KIND and to a stream whose
/// diagnosis in FOUND shows something lost, late or held, tried with every
/// diagnosis of FOUND again (none when all are safe or without a verdict),
/// those that help first.
std::vector<doctor_fix> try_fixes(const doctor_options& o, const program_kind& kind,
                                  const std::vector<diagnosis>& found);

}  // namespace flushcheck
