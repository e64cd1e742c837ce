#pragma once
/// Gates: what a logging library puts in its CI (docs/gate.md). Run a
/// program with stdout, stderr and its log files as sinks, cut it at a
/// marker or a write, and check what survived with readable checks.
///
///     auto r = flushcheck::gate_run({prog, "file", "--records=20"})
///                  .watch("app.log")
///                  .kill_at_marker(1)
///                  .run();
///     EXPECT_TRUE(flushcheck::records_through(r.file("app.log").content, 19)) << r;
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "capture.hpp"
#include "destination.hpp"
#include "fault_plan.hpp"
#include "gate_expect.hpp"
#include "kill_plan.hpp"
#include "observation.hpp"
#include "reader_policy.hpp"
#include "sink_kind.hpp"

namespace flushcheck {

/// A file the program wrote in its log directory, after the run.
struct log_file {
  std::string path;
  /// false: the read stopped at gate_run::deadline() before the file's end.
  bool whole = true;
  std::string content;   ///< what gate_run::keep() keeps of it (all by default)
  long write_calls = 0;  ///< write-family calls that reached it (from the tracer; -1 untraced)
};

struct gate_result {
  observation obs;
  std::map<std::string, log_file> files;  ///< by the name given to watch()
  /// Each gate_run::expect()'s outcome, in the order they were given.
  std::vector<gate_check> checks;
  /// Records that arrived (gate_run::tag()), per stream and per watched
  /// file (write_target::file(NAME); 0: never written), counted as they
  /// arrived, whatever keep() kept.
  std::map<write_target, long> records;
  /// The shell line that repeats the run: its log directory made again,
  /// then `env -i ... flushcheck run ...` (the log files stay there).
  std::string repro;
  /// gate_run::deadline() ended the run (it ran past it, before its own
  /// timeout) or the reading of a watched log: what was seen is not all.
  bool out_of_time = false;
  /// The watched file NAME; throws std::out_of_range naming what exists if
  /// the program did not write it.
  const log_file& file(const std::string& name) const;
  /// Write-family calls that brought IN (0 for a file never written); -1:
  /// not counted (untraced).
  long writes(const write_target& in) const;
  /// Write-family calls to stdout's sink (stdout+stderr when merged).
  long stdout_writes() const;
  long stderr_writes() const;
  /// The I-th fault given to gate_run::fault(), with the calls it hit (none:
  /// never reached); throws std::out_of_range if there is no such fault.
  const fault_result& fault(std::size_t i = 0) const;
};
std::ostream& operator<<(std::ostream& os, const gate_result& r);

/// Why NAME is the harness's own in a gate program's environment ("the
/// run's fresh log directory" for FLUSHCHECK_LOG_DIR; the marker protocol's
/// fds), which gate_run::env() and a gate file's env may not set; "" for
/// any other name.
std::string_view harness_variable(std::string_view name);

/// How to run a program for a gate. The program gets a fresh log directory
/// (FLUSHCHECK_LOG_DIR in its environment, and "{logdir}" in its arguments
/// is replaced by it), only PATH and LANG besides, and the marker protocol.
/// What a gate_run's setters set, and run() runs.
struct gate_run_settings {
  std::vector<std::string> argv;
  std::vector<std::string> env;
  std::vector<std::string> watch;
  sink_kind out = sink_kind::pipe;
  std::optional<sink_kind> err = sink_kind::pipe;
  std::string cut = "never";  ///< kill_plan's text, "{logdir}" replaced at the run
  std::chrono::milliseconds timeout{20000};
  std::vector<std::string> faults;
  reader_policy reader;
  std::vector<gate_expect> expect;
  std::string tag = "rec ";
  keep_policy keep{keep_policy::kind::all, 0};
  bool nonblock = false;
  bool traced = true;
  bool timeline = false;
  std::optional<std::chrono::steady_clock::time_point> deadline;
  std::function<void(int)> on_spawn;
};

class gate_run {
 public:
  explicit gate_run(std::vector<std::string> argv);
  gate_run& stdout_to(sink_kind k);
  gate_run& stderr_to(sink_kind k);
  gate_run& stderr_to_stdout();
  /// Both sinks: stdout's, and stderr's own or stdout's (2>&1; a destination
  /// of neither: a pipe).
  gate_run& sinks(sink_kind out, const destination& err);
  /// "GLOG_logtostderr=1"; "{logdir}" replaced. run() throws usage_error
  /// for one that is no NAME=VALUE or sets a harness_variable().
  gate_run& env(std::string name_value);
  /// After the run, reads the file in the log directory whose name contains
  /// TEXT ("app.log"; glog's "log.INFO." among host, user, date and pid);
  /// symlinks are skipped. result.file(TEXT) is it.
  gate_run& watch(std::string text);
  gate_run& cut(const kill_plan& k);
  /// A cut as --kill writes it: "KILL@marker:2", "TERM@file:{logdir}/app.log:write:3"
  /// ({logdir} as in the arguments). Throws usage_error for a bad plan.
  gate_run& cut(std::string spec);
  gate_run& kill_at_marker(long n, int sig = SIGKILL) { return cut(kill_plan::at_marker(n, sig)); }
  gate_run& kill_at_write(long n, int sig = SIGKILL) { return cut(kill_plan::at_write(n, sig)); }
  gate_run& timeout(std::chrono::milliseconds t);
  /// A write that fails or comes up short (docs/faults.md): "EAGAIN@write:3",
  /// "ENOSPC@file:{logdir}/app.log:write:2" ({logdir} as in the arguments).
  /// Parsed by run(), which throws usage_error for a bad spec.
  gate_run& fault(std::string spec);
  /// How stdout's sink is read: "paused", "close-after=100", ... (docs/cli.md);
  /// throws usage_error at once for a bad policy.
  gate_run& reader(const std::string& policy);
  /// Checks E on the stream it names as the bytes arrive (a watched file:
  /// as it is read after the run), in bounded memory whatever it holds:
  /// result.checks has the outcome. exit_code and signal read the status.
  gate_run& expect(gate_expect e);
  /// What a record is for expect() and result.records: TAG then a number ("rec ").
  gate_run& tag(std::string tag);
  /// What result keeps of each stream and watched file: all by default, for
  /// the checks below that read a whole text; keep_policy{} (the ends) or
  /// none when expect() does the checking and the output may be large.
  gate_run& keep(keep_policy k);
  /// O_NONBLOCK on the program's stdout and stderr, as from a non-blocking parent.
  gate_run& nonblock(bool on = true);
  /// Without the tracer (write counts unknown: -1 per file, 0 per sink),
  /// unless a write cut or a fault needs it. For many threads at once: a
  /// traced program's threads share one CPU (docs/tracing.md), which hides
  /// the tears of threads that write at the same time.
  gate_run& untraced() {
    s_.traced = false;
    return *this;
  }
  /// Called with the program's pid (its process group) when it starts, as
  /// run_options::on_spawn: the CLI's signal handler kills that group.
  gate_run& on_spawn(std::function<void(int)> f) {
    s_.on_spawn = std::move(f);
    return *this;
  }
  /// Also stop each write to stdout at its exit (run_options::timeline):
  /// the result's observation can be drawn as `run --html` draws a run.
  gate_run& timeline() {
    s_.timeline = true;
    return *this;
  }
  /// No later than T (a search's budget): the run's deadline is the
  /// smaller of timeout() and T, and watched log files are read no longer
  /// than until T. The repro line keeps timeout(); the result says when T
  /// ended the run (gate_result::out_of_time).
  gate_run& deadline(std::chrono::steady_clock::time_point t) {
    s_.deadline = t;
    return *this;
  }
  /// Runs the program (traced unless untraced()); throws spawn_error if it cannot start.
  gate_result run() const;

 private:
  gate_run_settings s_;
};

/// Records are lines that contain TAG followed by a number ("rec 7"); the
/// numbers in the order they appear in TEXT.
std::vector<long> record_numbers(const std::string& text, const std::string& tag = "rec ");

/// Records 0..LAST all arrived, in order, none twice (more after LAST may).
gate_check records_through(const std::string& text, long last, const std::string& tag = "rec ");
/// What arrived is records 0..k-1 for some k <= LOGGED: a prefix, in order,
/// no gap, no duplicate. (What a library promises for a SIGKILL it cannot see.)
gate_check records_prefix(const std::string& text, long logged, const std::string& tag = "rec ");
/// At least LEAST records arrived, their numbers increasing, none twice:
/// all but a few (what a logger that loses at most the record of a failed
/// write promises, or one that flushes every N records at a kill).
gate_check records_at_least(const std::string& text, long least, const std::string& tag = "rec ");
/// What arrived is increasing record numbers (some may be missing: an
/// overrun queue drops), none twice.
gate_check in_order(const std::string& text, const std::string& tag = "rec ");
/// Records 0..LOGGED-1 each arrived exactly once, in any order: what many
/// writers at once (threads) can promise, where records_through's order cannot.
gate_check each_once(const std::string& text, long logged, const std::string& tag = "rec ");
/// Every line that holds a record is whole: TEXT ends with '\n'.
gate_check no_torn_record(const std::string& text);
/// The threaded mode, for many writers at once: every line of TEXT is one
/// whole record, matching WHOLE_LINE (an ECMAScript regex of one record's
/// line, matched by Boost.Regex: record_pattern.hpp;
/// R"(\[[^\]]*\] \[app\] \[(info|error)\] rec \d+ (info|error))"), and
/// TEXT ends with '\n'. A line that does not match is torn: two records run
/// together, or one cut short. Throws usage_error for a bad pattern.
gate_check no_torn_record(const std::string& text, const std::string& whole_line);
/// Exactly one write-family call per record that arrived.
gate_check one_write_per_record(long write_calls, const std::string& text,
                                const std::string& tag = "rec ");
/// EXPECT, checks of one stream (not exit_code or signal), on each of TEXT's
/// prefixes: [i] their outcomes, in EXPECT's order, had the stream ended
/// after its first ENDS[i] bytes (each at most TEXT's size): what the
/// writes before a derived cut left (property/every_write_cut.hpp).
std::vector<std::vector<gate_check>> check_prefixes(std::string_view text,
                                                    const std::vector<gate_expect>& expect,
                                                    const std::string& tag,
                                                    const std::vector<std::uint64_t>& ends);
/// At marker M (1-based) the reader of stdout (or stderr) already had
/// NEEDLE: the line was visible before the program went on.
gate_check visible_at_marker(const observation& obs, std::size_t marker, bool on_stderr,
                             const std::string& needle);

}  // namespace flushcheck
