#pragma once
/// `flushcheck doctor -- PROG`: why a program's output goes missing or comes
/// late, and which change fixes it, each fix verified by running with it.
///
/// The program runs on a pty, a pipe and a file. On a pty it shows when it
/// means its lines to appear (the baseline); on a pipe and a file it is cut
/// by SIGKILL and SIGTERM at the entry of its writes (what it had produced
/// by then is everything up to the end of that write), or, if it is still
/// running at the deadline, stopped there as a container stop does.
#include <chrono>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "flushcheck/kill_plan.hpp"
#include "flushcheck/observation.hpp"
#include "flushcheck/program_kind.hpp"
#include "flushcheck/sink_kind.hpp"

namespace flushcheck {

struct doctor_options {
  std::vector<std::string> argv;
  std::vector<std::string> env;  ///< the whole environment of every run
  /// A program still running then is stopped (SIGTERM, or SIGKILL).
  std::chrono::milliseconds deadline{2000};
  std::size_t max_cuts = 8;  ///< write-boundary cuts per sink and signal, sampled evenly
  /// Called with each run's process group (so that Ctrl-C can kill it).
  std::function<void(int)> on_spawn;
};

/// One cut: what the program had produced by it, and what arrived.
struct doctor_cut {
  sink_kind sink = sink_kind::pipe;
  kill_plan cut;
  std::size_t had_lines = 0;  ///< lines (a partial one counts) produced by the cut
  std::size_t got_lines = 0;  ///< of them, those at the reader
  /// Lines the cut may take on a pty too: a write cut interrupts the write
  /// that carries them (the pty's most per write); a stop at the deadline, 0.
  std::size_t in_flight = 0;
  std::string repro;
  std::size_t lost() const { return had_lines > got_lines ? had_lines - got_lines : 0; }
  /// Lost beyond what is in flight: what buffering cost.
  std::size_t excess() const { return lost() > in_flight ? lost() - in_flight : 0; }
};

struct doctor_sink {
  sink_kind sink = sink_kind::pipe;
  observation reference;  ///< traced, uncut (or stopped at the deadline)
  bool ended = true;      ///< ended by itself before the deadline
  long writes = 0;        ///< write-family calls to stdout's destination
  std::size_t most_lines_per_write = 0;
  std::int64_t late_ms = 0;  ///< the most a line arrived later than on the pty
  std::vector<doctor_cut> cuts;
};

/// The runs on the three sinks and what they show.
struct diagnosis {
  std::vector<doctor_sink> sinks;  ///< pty, pipe, file
  /// Lines a cut may lose on the pty: what one write there carries (1 for a
  /// program whose lines go out one by one). More is a loss.
  std::size_t baseline = 1;
  /// The cut that lost most beyond what it had in flight; nullptr if none did.
  const doctor_cut* worst() const;
  bool lost() const { return worst() != nullptr; }
  std::int64_t late_ms() const;  ///< the most a line came late, on any sink
};

/// The runs of O on the three sinks: references, cuts, what they lost.
diagnosis diagnose(const doctor_options& o);

/// A change tried: the same runs with it.
struct doctor_fix {
  std::string name;    ///< "PYTHONUNBUFFERED=1"
  std::string advice;  ///< what to change, for people
  std::string source;  ///< the documentation it comes from
  bool helps = false;
  std::string result;  ///< "no line lost", "still loses 3 lines (SIGKILL@write:1 on pipe)"
};

struct doctor_report {
  std::vector<std::string> argv;
  program_kind kind;
  std::chrono::milliseconds deadline{0};
  diagnosis found;
  std::vector<doctor_fix> fixes;  ///< every fix tried, those that help first
  /// Late: a line came later than this, on some sink, than on the pty.
  static constexpr std::int64_t late_threshold_ms = 100;
};

/// Each fix of the table that applies to KIND, tried with the whole
/// diagnosis (none when FOUND shows nothing lost or late), those that help first.
std::vector<doctor_fix> try_fixes(const doctor_options& o, const program_kind& kind,
                                  const diagnosis& found);

/// The program wrote nothing to stdout on any sink: nothing to diagnose.
struct no_output_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Identifies the program, runs the diagnosis and, if something is lost or
/// late, tries the fixes. Throws spawn_error (not found, not executable) and
/// no_output_error.
doctor_report doctor(const doctor_options& o);

/// For people: what it is, where output is lost or late and why, the fixes.
std::string doctor_text(const doctor_report& r);
nlohmann::json doctor_json(const doctor_report& r);

}  // namespace flushcheck
