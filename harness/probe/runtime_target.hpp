#pragma once
/// The runtimes' interpreters of the script language (targets/runtimes/,
/// docs/script.md "In other runtimes"): how each is started is the language
/// table's (languages.hpp); discovery finds which of them this machine can run.
#include <string>
#include <vector>

#include "profile.hpp"

namespace flushcheck {

/// One runtime as found on this machine: its command, or why it cannot run.
struct runtime_target {
  lang language = lang::python;
  std::vector<std::string> argv;  ///< interpreter and script file (empty if missing)
  std::string version;            ///< what `--version` said: "python 3.11.2"
  std::string missing;            ///< why it cannot run here; empty when it can

  /// ARGV with FLAGS after the interpreter (Python's -u), then SCRIPT.
  std::vector<std::string> command(const std::string& script,
                                   const std::vector<std::string>& flags = {}) const;
};

/// Every runtime of the language table, with DIR the directory of the built targets
/// (its runtimes/ holds the scripts and the compiled interpreters), each
/// probed with --version when PROBE says so (a JVM start-up: a test binary
/// that only lists cases leaves it out). A runtime whose interpreter or
/// target is missing is kept, with the reason and the package to install.
std::vector<runtime_target> discover_runtimes(const std::string& dir, bool probe = true);

/// What T's `--version` says ("python 3.11.2"); sets T.missing if it fails.
std::string probe_version(runtime_target& t);

}  // namespace flushcheck
