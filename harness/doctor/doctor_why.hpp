#pragma once
/// Why a program's stream is held back, in words both reporters give.
#include <string>

#include "doctor_diagnosis.hpp"
#include "program_kind.hpp"

namespace flushcheck {

/// Why the stream of D is held back, from what the runs show: a reason is
/// named only where the runs bear it out (lines on the pty, blocks elsewhere).
std::string why(const program_kind& k, const diagnosis& d);

}  // namespace flushcheck
