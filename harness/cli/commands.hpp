#pragma once
// One struct per CLI verb: it declares its flags on construction and runs on execute().
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "bench.hpp"
#include "interrupts.hpp"
#include "run.hpp"

namespace flushcheck::cli {

inline constexpr int exit_ok = 0;
inline constexpr int exit_failed = 1;  ///< `gate`: a case failed; `bench --compare`: a row moved
inline constexpr int exit_usage = 2;
inline constexpr int exit_spawn = 3;
inline constexpr int exit_harness = 4;
inline constexpr int exit_no_output =
    5;  ///< `doctor`: the program wrote nothing to stdout or stderr
inline constexpr int exit_no_verdict =
    6;  ///< `doctor`: output differs run to run; `matrix --baseline`: nothing compared

/// --stderr (a sink kind or "stdout"), --stdin and --input into O; throws usage_error.
void apply_stderr_and_stdin(run_options& o, const std::string& stderr_kind,
                            const std::string& stdin_kind, const std::string& input);

/// O's environment is the caller's; its repro lines name only PATH, the
/// locale and the variables that change buffering (buffering_variables()).
void use_caller_environment(run_options& o);

/// The variables of ENV that change buffering for the program ARGV (by its
/// kind: PYTHONUNBUFFERED only where Python may run), one note each.
std::vector<std::string> environment_notes(const std::vector<std::string>& argv,
                                           const std::vector<std::string>& env);

/// --fault, once per fault; the same help for every verb that takes it.
void add_fault_option(CLI::App* app, std::vector<std::string>& faults);
/// The parsed --fault values; throws usage_error.
std::vector<fault_plan> parse_faults(const std::vector<std::string>& faults);

struct run_command {
  explicit run_command(CLI::App& parent);
  int execute();
  CLI::App* app;
  std::string stdout_kind = "pipe";
  std::string stderr_kind = "pipe";
  std::string stdin_kind = "null";
  std::string input;
  std::string kill = "never";
  std::string keep = "ends:8M";
  std::string reader = "prompt";
  std::string pipe_size;
  bool nonblock = false;
  std::vector<std::string> faults;
  bool timeline = false;
  long timeout_ms = 10000;
  std::string json;  ///< --json[=FILE]: "-" stdout, else a file (report_file.hpp)
  std::string html;  ///< --html FILE: the page with the run's timeline
  bool trace = false;
  std::vector<std::string> command;
};

struct count_command {
  explicit count_command(CLI::App& parent);
  int execute();
  CLI::App* app;
  std::string backend = "ptrace";
  std::string stdout_kind = "pipe";
  long timeout_ms = 60000;
  bool all = false;
  std::string json;
  std::vector<std::string> faults;
  std::vector<std::string> command;
};

struct explore_command {
  explicit explore_command(CLI::App& parent);
  int execute();
  CLI::App* app;
  std::string stdout_kinds = "pipe";
  std::string stderr_kind = "pipe";
  std::string stdin_kind = "null";
  std::string input;
  std::string signals = "KILL";
  std::string faults;
  std::string stream = "stdout";
  std::string keep = "ends:4K";
  std::size_t max_cuts = 200;
  std::string derive = "on";
  int jobs = 0;  ///< --jobs (0: the CPUs, usage.hpp)
  long timeout_ms = 10000;
  std::string json;
  std::string html;  ///< --html FILE: the loss map page
  std::vector<std::string> command;
};

struct doctor_command {
  explicit doctor_command(CLI::App& parent);
  int execute();
  CLI::App* app;
  long timeout_ms = 2000;
  std::size_t max_cuts = 8;
  int jobs = 0;  ///< --jobs (0: the CPUs, usage.hpp)
  std::string json;
  std::string html;  ///< --html FILE: the page with pictures
  std::vector<std::string> command;
};

struct matrix_command {
  explicit matrix_command(CLI::App& parent);
  int execute();
  CLI::App* app;
  std::string json, markdown;  ///< --json[=FILE], --markdown[=FILE]
  bool properties = false;
  bool all = false;
  bool runtimes = false;
  std::string html;
  std::string targets_dir;
  std::string baseline;            ///< --baseline FILE: compare with a saved record
  std::string record;              ///< --record FILE: the record compared, instead of a run
  std::vector<std::string> merge;  ///< --merge FILE...: saved records side by side
  int jobs = 0;                    ///< --jobs (0: the CPUs, usage.hpp)
};

struct gate_command {
  explicit gate_command(CLI::App& parent);
  int execute();
  CLI::App* app;
  std::string file;
  std::vector<std::string> only;
  std::vector<std::string> vars;
  bool list = false;
  std::string json;
  std::string junit;
  std::string html;
  std::optional<long> cases;          ///< per property (else its own `cases`, else 100)
  std::string seed;                   ///< a decimal from 0 to 2^64-1 ("": a fresh one)
  std::optional<double> max_seconds;  ///< per property (else its own `max_seconds`, else 30)
  std::string derive = "on";          ///< --derive (option_values.hpp)
  int jobs = 0;                       ///< --jobs (0: the CPUs, usage.hpp)
};

struct bench_command {
  explicit bench_command(CLI::App& parent);
  int execute();
  bench_options options() const;  ///< the flags as options; throws usage_error
  /// The --compare report, refused when its sizes or suites do not match.
  std::optional<bench_report> saved_report(const bench_options& o) const;
  CLI::App* app;
  std::vector<std::string> suites;
  std::string toolchain = "default";
  int repeat = 3;
  long timeout_ms = 120000;
  bool quick = false;
  std::string json_file, html_file, markdown_file, compare_file;
  double threshold = 0.2;
  std::string program;
};

struct model_command {
  explicit model_command(CLI::App& parent);
  int execute();
  CLI::App* app;
  long cases = 100;
  std::optional<std::uint64_t> seed;
  std::optional<std::string> only;  ///< one property (unset: all six)
  std::string set = "default";
  std::string targets_dir;
  double max_seconds = 300;  ///< bounds each property's search, and its shrinking again
};

struct targets_command {
  explicit targets_command(CLI::App& parent);
  int execute();
  CLI::App* app;
  std::string action;  ///< "build", its one action
  std::string into;
  std::string sources;
  std::vector<std::string> sets;  ///< --sets: only these (default: all)
  bool no_runtimes = false;
};

/// `flushcheck durability FILE...`: the durability table of gate files' properties.
struct durability_command {
  explicit durability_command(CLI::App& parent);
  int execute();
  CLI::App* app;
  std::vector<std::string> files;
  std::vector<std::string> vars;
  std::vector<std::string> only;  ///< --case
  long cases = 100;               ///< per end
  double max_seconds = 30;        ///< per end
  std::string derive = "on";      ///< --derive (option_values.hpp)
  int jobs = 0;                   ///< --jobs (0: the CPUs, usage.hpp)
  std::string seed = "1";
  std::string json, markdown, svg;
  std::string links_from = "docs";
};

/// `flushcheck workload check -- DRIVER [ARG...]`: the helper conformance kit.
struct workload_command {
  explicit workload_command(CLI::App& parent);
  int execute();
  CLI::App* app;
  std::string action;            ///< "check", its one action
  std::vector<std::string> env;  ///< --env NAME=VALUE
  long timeout_ms = 20000;
  std::string json;
  std::vector<std::string> command;  ///< the driver, before the workload
};

}  // namespace flushcheck::cli
