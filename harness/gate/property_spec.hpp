#pragma once
/// A property gate's promise, as a gate file's [[property]] table states it
/// (docs/gate.md, "Property gates"): the driver that speaks the workload
/// protocol (docs/workload.md), what flushcheck may generate, and what the
/// library promises for each way a run can end. property_parse.cpp reads it;
/// the property stage generates cases from it and checks them.
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "destination.hpp"
#include "kill_plan.hpp"
#include "property_end.hpp"
#include "write_target.hpp"

namespace flushcheck {

/// The workload protocol's levels, lowest first (workload.h's order).
const std::vector<std::string>& workload_levels();

/// The terms a promise is made of (docs/gate.md, "Promises"), as code names them.
enum class promise_term_id {
  all,
  through_last_flush,
  prefix,
  each_once,
  in_order,
  no_torn_record,
  through_last_level,
  lost_at_most,
  max_writes_per_record,
};
/// How many terms there are: term_name() names each, the worker wire bounds them.
inline constexpr std::size_t promise_term_count =
    static_cast<std::size_t>(promise_term_id::max_writes_per_record) + 1;
/// "all", "through_last_flush", ...: how gate files, reports and checks' labels name T.
std::string_view term_name(promise_term_id t);

/// What a library promises for one way to end (docs/gate.md's vocabulary).
struct promise {
  bool all = false;                       ///< every record logged arrived, in order
  bool through_last_flush = false;        ///< every record logged before the last flush
  std::optional<int> through_last_level;  ///< ... before the last record at this level or above
  bool prefix = false;     ///< what arrived is records 0..k-1: no gap, twice, reorder
  bool each_once = false;  ///< every record logged arrived once, in any order
  bool in_order = false;   ///< what arrived is a subsequence of the records: in order, none twice
  std::optional<long> lost_at_most;  ///< every record logged but at most this many, in order
  bool no_torn_record = false;       ///< every record's line is whole
  std::string torn_pattern;          ///< ... and matches this whole-line regex
  double max_writes_per_record = 0;  ///< 0: not promised (checked where all records must arrive)
  /// "all, prefix" (or "nothing"): how reports and the [[case]] name it.
  std::string text() const;
  /// No term: it checks nothing.
  bool empty() const { return text() == "nothing"; }
  /// This and what ALWAYS promises.
  void add(const promise& always);
};

/// One term of a promise at one end, as a case checks it and a breach names
/// it: "lost_at_most 2 at _exit", "all at KILL (as a prefix)".
struct promised_term {
  promise_term_id id{};
  std::string value;  ///< the term's value as a gate file spells it ("2", "info"); "" for none
  property_end end{};
  /// `all`, checked as a prefix: a cut at a write or a time leaves the count
  /// of records logged unknown.
  bool as_prefix = false;
  std::string text() const;
  bool operator==(const promised_term&) const = default;
};

/// One [[property]] table.
struct property_spec {
  std::string name;
  int line = 0;
  std::vector<std::string> argv;     ///< the driver; the workload's ops are appended
  std::vector<std::string> command;  ///< argv as the file spells it ("{driver}"), for [[case]]s
  std::vector<std::string> env;      ///< "NAME=value"
  std::vector<std::string> watch;
  /// env and watch as the file spells them (placeholders kept), for [[case]]s.
  std::vector<std::string> raw_env, raw_watch;
  write_target in;                           ///< where the records are: stdout, stderr, file:NAME
  std::string raw_in;                        ///< in, as the file spells it
  std::vector<sink_kind> sinks;              ///< stdout sinks to generate from
  destination stderr_sink{sink_kind::pipe};  ///< a sink, or merged into stdout's
  std::vector<std::string> levels;           ///< the levels the workloads log at
  int threads = 0;                           ///< at most this many threads (0: one)
  /// Where TERM and KILL come: at marker 1, the N-th write to IN, or a time.
  std::vector<kill_plan::when_kind> cuts;
  std::vector<std::string> faults;  ///< what a failed write is: ENOSPC, EIO, EAGAIN, short
  /// The ends generated, each with its promise ([property.always] added to each).
  std::map<property_end, promise> promises;
  long timeout_ms = 20000;
  bool traced = true;
  /// false: the promise is known to break (a finding, a wrong configuration):
  /// the property passes when it finds a counterexample, and fails when its
  /// cases all keep the promise.
  bool holds = true;
  /// What docs/findings.md says of the behaviour this property pins (a
  /// link, "findings.md#..."), for the durability table; "" for none.
  std::string finding;
  /// The [defaults] keys a [[case]] pasted into the file would take but
  /// this property's runs do not: "args" (already in argv and command),
  /// "cut", "faults", "reader" (a property generates its own). The pinned
  /// case sets each, so that it runs as the property's case did.
  std::vector<std::string> undone_defaults;
  /// Cases to generate when `--cases` does not say (0: its default, 100):
  /// what a property that breaks only on long workloads needs.
  long cases = 0;
  /// Seconds of search when `--max-seconds` does not say (0: its default,
  /// 30): what a property whose break is rare and whose driver is slow needs.
  long max_seconds = 0;
  /// Fills what was left empty with the defaults, which depend on IN (and
  /// the spellings as the file has them with the values, for a spec made in C++):
  /// stdout's sinks pipe, pty and file for records on stdout (else pipe);
  /// every level; cuts at a marker and a write;
  /// every fault.
  void complete();
};

}  // namespace flushcheck
