#pragma once
/// The doctor's diagnosis (`flushcheck doctor`, doctor.hpp): where a
/// program's output is lost or late, for one of its streams.
///
/// The program is explored (explore.hpp) with the stream on a pty, a pipe
/// and a file. The pty run is the reference: there it sends its output when
/// it means to, so the pty shows, for any amount of output produced, how
/// much of it a reader would have by then. On the pipe and the file it is cut
/// by SIGKILL and SIGTERM at the entry of its writes (by then it had produced
/// everything up to the end of that write) and after its last, compared at
/// its own end, and, if it is still running at the deadline, stopped there as
/// a container stop does. A cut loses the whole lines the pty would have
/// delivered at the same point but the reader did not get; a cut its run
/// never reached shows nothing and is only counted. Where the outputs differ
/// in fields that vary between runs (a pid, the time), or with --ignore,
/// they are compared line by line around them (field_mask.hpp).
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "field_mask.hpp"
#include "ignore_pattern.hpp"
#include "observation.hpp"
#include "run.hpp"
#include "sink_kind.hpp"

namespace flushcheck {

/// The stream a diagnosis looks at: stdout (stderr to a pipe), stderr
/// (stdout to a pipe), or both on one sink (2>&1).
enum class doctor_stream { out, err, merged };
/// "stdout", "stderr", "2>&1".
std::string_view to_string(doctor_stream s);

struct doctor_options {
  std::vector<std::string> argv;
  std::vector<std::string> env;  ///< the whole environment of every run
  doctor_stream stream = doctor_stream::out;
  /// A program still running then is stopped (SIGTERM, or SIGKILL).
  std::chrono::milliseconds deadline{2000};
  /// How long the program took to end by itself on the pty in doctor's
  /// first diagnosis, when it did: every run of a later one (the other
  /// streams', a fix's) may then last run_limit() (doctor_reference.hpp).
  std::optional<std::chrono::milliseconds> ended_in;
  std::size_t max_cuts = 8;  ///< write-boundary cuts per sink and signal, sampled evenly
  /// Worker processes that run the pipe's and the file's cuts side by side
  /// (explore_options::jobs); the report is the same for any number.
  int jobs = 1;
  /// --ignore: each match masked in every run's output before comparing.
  std::vector<ignore_pattern> ignore;
  /// Where the files are that a fix loads into a runtime (targets/runtimes:
  /// flushcheck_autoflush.pm, flushcheck_sync.rb, flushcheck_blocking.js).
  std::string helpers_dir;
  /// Called with each run's process group (so that Ctrl-C can kill it).
  std::function<void(int)> on_spawn;
};

/// One cut, and what the reader had against what a pty reader would have had,
/// in whole lines (bytes, when the output has no newline at all).
struct doctor_cut {
  sink_kind sink = sink_kind::pipe;
  std::string cut;             ///< "KILL@write:3", "TERM@time:2000", "its own end"
  std::size_t had_bytes = 0;   ///< produced by the cut: bytes of the output
  std::size_t pty_bytes = 0;   ///< of them, those a pty reader had at that point (whole lines)
  std::size_t got_bytes = 0;   ///< those that reached this sink's reader (whole lines)
  std::size_t lost_lines = 0;  ///< lines of the excess
  std::string repro;
  run_options run;  ///< the run that shows it (repro is its command line)
  /// What buffering cost: bytes the pty would have delivered that did not arrive.
  std::size_t excess() const { return pty_bytes > got_bytes ? pty_bytes - got_bytes : 0; }
};

struct doctor_sink {
  sink_kind sink = sink_kind::pipe;
  observation reference;   ///< traced, uncut (stopped by the deadline if it runs on)
  bool on_stderr = false;  ///< the stream is stderr (on a sink of its own)
  bool ended = true;       ///< ended by itself before its limit
  /// How long its runs could last: the deadline, or for a program that
  /// ended by itself, run_limit() of how long it took (doctor_reference.hpp).
  std::chrono::milliseconds limit{0};
  long writes = 0;        ///< write-family calls to the stream's destination
  std::size_t lines = 0;  ///< lines of the stream (an unterminated last one counting)
  std::size_t most_lines_per_write = 0;
  /// Every write but the last ended a line: nothing whole waited in a buffer.
  bool writes_end_lines = true;
  /// The most a line came later than the program produced it (as the pty run
  /// shows), in ms: doctor_diagnosis.cpp, lateness.
  std::int64_t late_ms = 0;
  std::vector<doctor_cut> cuts;
  /// Cuts whose run never reached them (the program wrote less that time, or
  /// met the deadline first): they show nothing, and are left out of CUTS.
  std::size_t unreached = 0;
  /// The stream's output of the reference run.
  const stream_observation& output() const { return on_stderr ? reference.err : reference.out; }
};

/// The runs on the three sinks and what they show, for one stream.
struct diagnosis {
  doctor_stream stream = doctor_stream::out;
  std::vector<doctor_sink> sinks;  ///< pty, pipe, file
  /// The output on the pipe or the file is not a prefix of the pty's (of
  /// what both wrote, for a run stopped at the deadline), the runs ended
  /// otherwise, or an output was past what a run keeps (16 MiB): the program
  /// writes something else there (or in another order), and the pty is no
  /// reference.
  bool no_reference = false;
  /// Why, in words (doctor_reference.hpp, reference_gap): the first sink's.
  std::string no_reference_why;
  /// What was masked in every run's output before comparing: the --ignore
  /// patterns and, where the pipe's or the file's output differed from the
  /// pty's, the fields that varied between two runs on one sink (a second
  /// pty run's and the first's, each cut's and its sink's reference run).
  /// Empty: the outputs were compared byte for byte.
  field_mask mask;
  /// Held everywhere: on the pty too, the first write carried HELD_LINES
  /// whole lines (2 or more), HELD_MS after the program's first traced call:
  /// a buffer of the program's own holds them on every sink, and a kill
  /// before it is written loses them all.
  std::size_t held_lines = 0;
  std::int64_t held_ms = 0;
  /// The cut that lost most; nullptr if none lost anything a pty would have had.
  const doctor_cut* worst() const;
  bool lost() const { return worst() != nullptr; }
  std::int64_t late_ms() const;   ///< the most a line came late, on any sink
  std::size_t unreached() const;  ///< cuts not reached, on every sink
  /// Late and held: more than this.
  static constexpr std::int64_t late_threshold_ms = 100;
  bool late() const { return late_ms() > late_threshold_ms; }
  bool held() const { return held_lines >= 2 && held_ms > late_threshold_ms; }
  /// A verdict, and nothing lost, late or held.
  bool safe() const { return !no_reference && !lost() && !late() && !held(); }
  /// Whether the stream had any output, on any sink.
  bool wrote() const;
};

/// The runs of O on the three sinks for O.stream: references, cuts, what
/// they lost.
diagnosis diagnose(const doctor_options& o);

}  // namespace flushcheck
