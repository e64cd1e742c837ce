#pragma once
/// `flushcheck explore`: run any program once traced, then cut it at every
/// marker and at every write boundary of one stream (stdout, or stderr)
/// (and between a write and the fsync that follows it), with each requested
/// signal, or fail each of its writes with each requested fault, and report
/// per run what survived and which lines were lost. The KILL cuts at writes
/// are derived from the traced run where that is sound (derived_cuts.hpp),
/// all of them, a sample run to check. Memory stays bounded:
/// the reference output is spooled to a file, each cut's output compared
/// with it as it arrives, and a cut keeps only what KEEP says.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "run.hpp"

namespace flushcheck {

struct explore_options {
  /// argv, env, stdin, timeout; the other stream's sink (stderr's, or
  /// stdout's when exploring stderr; stderr_sink nullopt: 2>&1); what the
  /// reference run keeps (keep).
  run_options base;
  /// The sinks the explored stream goes to, one exploration each.
  std::vector<sink_kind> sinks{sink_kind::pipe};
  /// Explore stderr's writes and output instead of stdout's (base.stdout_sink
  /// then takes stdout; with 2>&1 there is only stdout's).
  bool on_stderr = false;
  std::vector<int> signals{SIGKILL};
  /// Faults to inject at each write to the stream, one run each ("EAGAIN",
  /// "short:1": the WHAT of --fault); those runs are not cut.
  std::vector<std::string> faults;
  /// More cuts than this (per sink, all signals) are shown sampled evenly,
  /// the first and last boundary always in; the report says so. And at most
  /// this many derived cuts are run to check them.
  std::size_t max_cuts = 200;
  /// What each cut keeps of its output, of its torn tail and of the lines it
  /// lost (their counts are whole whatever it keeps).
  keep_policy keep{keep_policy::kind::ends, 4096};
  /// Derive the KILL cuts at write boundaries from the uncut, traced run
  /// where that is sound (derived_cuts.hpp): every one of them is had, and
  /// only a sample is run for real, to check. False: each cut is run.
  bool derive = true;
  /// Worker processes for the cuts run for real (workers.hpp): the cuts,
  /// and the report, are the same for any number.
  int jobs = 1;
};

struct explored_cut {
  kill_plan cut;                    ///< never for a fault run
  std::optional<fault_plan> fault;  ///< the fault of a fault run
  bool delivered = false;           ///< the cut was reached; a fault run: the fault was applied
  wait_status status = wait_status::exited(0);
  std::string survived;            ///< the stream's bytes at the reader, as KEEP keeps them
  std::uint64_t bytes = 0;         ///< all of them
  std::size_t lines_survived = 0;  ///< whole lines of the reference run that arrived
  /// Where those lines end in the output (a cut: the offset of its first
  /// line not wholly there).
  std::uint64_t whole_bytes = 0;
  std::size_t lines_lost = 0;     ///< lines of the reference run that did not arrive
  std::vector<std::string> lost;  ///< the first of them, as many as KEEP's bytes hold
  std::string torn;               ///< a partial line at the end (or what diverged), as kept
  bool prefix = true;             ///< survived is a prefix of the reference output
  std::string repro;              ///< the command line that repeats this run
  bool derived = false;           ///< computed from the uncut run's trace, not run
};

/// How an exploration had its KILL cuts at write boundaries: derived from
/// the uncut run, or each run (derived_cuts.hpp).
struct cut_derivation {
  /// Why they were run rather than derived ("" if derived): --derive=off,
  /// or what in the uncut run makes a derivation unsound.
  std::string not_derived;
  std::size_t derived = 0;   ///< the cuts derived: every such cut, shown in the report or not
  std::size_t verified = 0;  ///< of them, run for real and found as derived
  std::size_t torn = 0;      ///< of them, those that tear a line
  /// How a cut run for real differed from its derivation: the program does
  /// not take the same path every time, and every cut shown was run. "": none did.
  std::string disagreed;
};

struct explored_sink {
  sink_kind sink = sink_kind::pipe;   ///< of the explored stream
  bool on_stderr = false;             ///< the explored stream is stderr
  observation reference;              ///< the uncut, traced run
  std::uint64_t reference_bytes = 0;  ///< the explored stream's, all of them
  std::size_t reference_lines = 0;    ///< its lines, an unterminated last one counting
  long writes = 0;                    ///< write-family calls to the stream's destination
  long syncs = 0;                     ///< fsync, fdatasync and sync_file_range of it
  /// The writes a sync follows (1-based, the last write left out): each gets
  /// an after-write:N cut, between the write and its sync.
  std::vector<long> synced_writes;
  long markers = 0;
  std::size_t cuts_total = 0;  ///< boundaries x signals, plus writes x faults
  bool sampled = false;        ///< cuts shows fewer than cuts_total
  cut_derivation derivation;
  /// In program order: an even sample of at most max_cuts of all (every
  /// one, if they are as many), and the derived cuts run to check them.
  std::vector<explored_cut> cuts;
};

/// Runs the exploration. Throws spawn_error if the program cannot start.
std::vector<explored_sink> explore(const explore_options& o);

nlohmann::json to_json(const std::vector<explored_sink>& result);
/// The table for people, one block per sink.
std::string to_text(const std::vector<explored_sink>& result);

/// The loss map (loss_map_svg.cpp): a column per cut point in program order,
/// a row per sink and signal (or fault), the pty's rows first; each cell
/// shaded by the lines its run lost, its <title> the numbers and the repro.
std::string loss_map_svg(const std::vector<explored_sink>& result, const std::string& title);
/// One self-contained page: the loss map, then the table (explore_html.cpp).
std::string to_html(const std::vector<explored_sink>& result, const std::string& title);

}  // namespace flushcheck
