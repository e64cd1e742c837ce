// `flushcheck doctor`: what the program is, the diagnosis, and the fixes.
#include "flushcheck/doctor.hpp"

#include <algorithm>

#include "flushcheck/escape.hpp"
#include "flushcheck/run.hpp"

namespace flushcheck {

doctor_report doctor(const doctor_options& o) {
  doctor_report r;
  r.argv = o.argv;
  r.kind = identify(o.argv, o.env);
  r.deadline = o.deadline;
  r.notes = buffering_notes(current_environment());
  r.found = diagnose(o);
  const bool wrote = std::any_of(r.found.sinks.begin(), r.found.sinks.end(),
                                 [](const auto& s) { return !s.reference.out.data.empty(); });
  if (!wrote) {
    const auto& pty = r.found.sinks.front();
    throw no_output_error(printable(o.argv.front(), 200) + " wrote nothing to stdout " +
                          (pty.ended ? "before it ended (" + pty.reference.status.describe() + ")"
                                     : "in " + std::to_string(o.deadline.count()) +
                                           " ms (still running: try a "
                                           "longer --deadline)") +
                          ": nothing to diagnose");
  }
  r.fixes = try_fixes(o, r.kind, r.found);
  return r;
}

}  // namespace flushcheck
