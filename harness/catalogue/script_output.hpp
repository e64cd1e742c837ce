#pragma once
/// What one of flushcheck's own script targets had produced by a cut, as the
/// model says: what a run's picture compares the reader's bytes with (the
/// "lost" bar of timeline_svg.hpp), for a program whose script says what it
/// writes.
#include <optional>

#include "run.hpp"
#include "timeline_svg.hpp"

namespace flushcheck {

/// For a run of stdio_script or iostream_script with one script argument:
/// the bytes and lines its stdout (or stderr) channels were given by O's
/// cut (with 2>&1, all of them: the reader gets both streams) (written or still in a buffer).
/// nullopt for any other program, a time cut (where it lands is a matter of time), or a script the
/// model cannot parse or does not cover.
std::optional<produced_output> script_produced(const run_options& o, bool on_stderr);

}  // namespace flushcheck
