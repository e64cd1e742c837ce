#pragma once
/// The runs doctor's page draws (doctor_html.cpp): the cut that lost most,
/// run again traced and timed, and the same cut under each fix that helped.
#include <string>
#include <vector>

#include "doctor.hpp"
#include "timeline_svg.hpp"

namespace flushcheck {

struct doctor_picture {
  std::string caption;  ///< "the worst cut: KILL@write:2 on a pipe", "with PYTHONUNBUFFERED=1"
  observation obs;
  timeline_options options;
  std::string repro;
};

/// None when nothing was lost. Else the worst cut of R, then per fix that
/// helped the same cut of the program as the fix changes it: on the same
/// sink (a terminal's: on a pty) with the same signal, where it had made the
/// same output (a write:N cut moves to the write that ends it), or at the
/// same time, or at its own end. Runs the program once, then once per fix
/// (twice for a write:N cut: an uncut run finds the write).
std::vector<doctor_picture> doctor_pictures(const doctor_report& r);

}  // namespace flushcheck
