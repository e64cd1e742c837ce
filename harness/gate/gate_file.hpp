#pragma once
/// Gate files: a gate without C++ (docs/gate.md, "A gate file"). A TOML
/// file names a program, how to run and cut it, and what must have
/// survived; `flushcheck gate FILE` runs each case with gate_run and the
/// gate checks of gate.hpp. Parsing (toml++) is gate_file_parse.cpp,
/// running gate_file_run.cpp, and each output format one reporter.
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "destination.hpp"
#include "gate.hpp"
#include "gate_expect.hpp"
#include "logger_table.hpp"
#include "property_spec.hpp"
#include "write_target.hpp"

namespace flushcheck {

/// What a case adds to docs/loggers.md's table (FLUSHCHECK_LOGGERS_TABLE).
struct gate_row {
  std::string config, death, tier = "observation", note;
  write_target in;  ///< whose records are counted
};

struct gate_case {
  std::string name;
  int line = 0;
  std::vector<std::string> argv;  ///< placeholders replaced; "{logdir}" at run time
  std::vector<std::string> env;   ///< "NAME=value"
  sink_kind stdout_sink = sink_kind::pipe;
  destination stderr_sink{sink_kind::pipe};  ///< a sink, or merged into stdout's (2>&1)
  std::vector<std::string> watch;
  std::string cut = "never";  ///< kill_plan syntax: "KILL@marker:1"; "{logdir}" replaced at the run
  std::vector<std::string> faults;
  std::string reader = "prompt";
  long timeout_ms = 20000;
  bool traced = true;
  std::vector<gate_expect> expect;
  std::optional<gate_row> row;
};

struct gate_file {
  std::string path;
  std::string library;  ///< names the rows in docs/loggers.md
  long records = 0;     ///< records each case logs ("{records}"; the rows' count)
  std::string tag = "rec ";
  std::vector<gate_case> cases;
  std::vector<property_spec> properties;  ///< [[property]] tables (docs/gate.md, "Property gates")
};

/// Reads and checks PATH; throws usage_error "PATH:LINE: reason" for a file
/// that is not TOML, an unknown key, a wrong type, a bad sink, cut, fault
/// or reader, a case without expectations, or two cases with one name. In
/// its strings "{here}" is the file's directory, "{records}" its records,
/// and "{NAME}" VALUE for each "NAME=VALUE" of VARS (`--var`; what CMake's
/// flushcheck_add_gate_file passes for PROGRAMS).
gate_file parse_gate_file(const std::string& path, const std::vector<std::string>& vars = {});
/// The same for TEXT, named PATH in messages ("{here}" is PATH's directory).
gate_file parse_gate_text(std::string_view text, const std::string& path,
                          const std::vector<std::string>& vars = {});

struct gate_check_result {
  gate_expect expect;
  gate_check outcome;  ///< what the check said (before holds = false turns it)
  /// A check that could not look fails whatever holds says.
  bool pass() const { return outcome.checked && outcome.ok == expect.holds; }
  /// For a failed check: "records_through 49 in file:app.log: ..." (and
  /// "it held: ..." for holds = false, "could not check: ..." when unchecked).
  std::string failure() const;
};

struct gate_case_result {
  std::string name;
  std::vector<gate_check_result> checks;
  std::string status;  ///< how the program ended ("exited 0", "killed by SIGKILL")
  std::string repro;   ///< the shell line that repeats the run
  double seconds = 0;
  /// Why the program could not be started ("" when it ran): no checks then.
  std::string error;
  /// Why what the run saw is the harness's failure (a full file sink): the
  /// checks then say nothing, and the case is an error, never a verdict.
  std::string harness_failure;
  /// The case's row for docs/loggers.md, when the case has one.
  std::optional<loggers::row> row;
  /// Records ("rec N") that arrived, per stream or log file its checks read.
  std::map<write_target, long> arrived;
  bool pass() const;
};

/// Runs CASE of FILE (its records tag) and checks every expectation. A
/// program that cannot be started is a result with ERROR set. ON_SPAWN as
/// gate_run::on_spawn.
gate_case_result run_gate_case(const gate_file& file, const gate_case& c,
                               std::function<void(int)> on_spawn = {});

}  // namespace flushcheck
