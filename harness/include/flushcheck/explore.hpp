#pragma once
/// `flushcheck explore`: run any program once traced, then cut it at every
/// marker and at every write boundary of its stdout (and between a write
/// and the fsync that follows it), with each requested
/// signal, or fail each of its writes to stdout with each requested fault,
/// and report per run what survived and which lines were lost.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "flushcheck/run.hpp"

namespace flushcheck {

struct explore_options {
  run_options base;  ///< argv, env, stderr sink, stdin, timeout
  std::vector<sink_kind> stdout_sinks{sink_kind::pipe};
  std::vector<int> signals{SIGKILL};
  /// Faults to inject at each write to stdout, one run each ("EAGAIN",
  /// "short:1": the WHAT of --fault); those runs are not cut.
  std::vector<std::string> faults;
  /// More cuts than this (per sink, all signals) are sampled evenly, the
  /// first and last boundary always in; the report says so.
  std::size_t max_cuts = 200;
};

struct explored_cut {
  kill_plan cut;                    ///< never for a fault run
  std::optional<fault_plan> fault;  ///< the fault of a fault run
  bool delivered = false;           ///< the cut was reached; a fault run: the fault was applied
  wait_status status = wait_status::exited(0);
  std::string survived;            ///< stdout bytes at the reader
  std::size_t lines_survived = 0;  ///< whole lines of the reference run that arrived
  std::vector<std::string> lost;   ///< lines of the reference run that did not
  std::string torn;                ///< a partial line at the end, if any
  bool prefix = true;              ///< survived is a prefix of the reference output
};

struct explored_sink {
  sink_kind sink = sink_kind::pipe;
  observation reference;  ///< the uncut, traced run
  long writes = 0;        ///< write-family calls to stdout's destination
  long syncs = 0;         ///< fsync, fdatasync and sync_file_range of it
  /// The writes a sync follows (1-based, the last write left out): each gets
  /// an after-write:N cut, between the write and its sync.
  std::vector<long> synced_writes;
  long markers = 0;
  std::size_t cuts_total = 0;  ///< boundaries x signals, plus writes x faults
  bool sampled = false;
  std::vector<explored_cut> cuts;
};

/// Runs the exploration. Throws spawn_error if the program cannot start.
std::vector<explored_sink> explore(const explore_options& o);

nlohmann::json to_json(const std::vector<explored_sink>& result);
/// The table for people, one block per sink.
std::string explore_table(const std::vector<explored_sink>& result);

}  // namespace flushcheck
