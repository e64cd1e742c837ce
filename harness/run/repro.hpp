#pragma once
/// The command line that repeats a run: every verdict carries one.
#include <string>

#include "run.hpp"

namespace flushcheck {

/// The one `env -i ... flushcheck run ...` command line that repeats a run
/// with options O (its environment, sinks, stdin, kill, trace, program).
/// FIRST, a command and " && " with its words shell_quote'd, runs before
/// it, inside the same `bash -c` when the line needs one.
std::string repro_command(const run_options& o, const std::string& first = "");

/// Names the binary that prints repro lines (the CLI: itself). A repro line
/// then starts with BINARY's path, or with plain `flushcheck` when the PATH
/// the line gives (its `env -i PATH=...`) finds BINARY by that name, so that
/// a line pasted into a shell runs the same binary. Unset (a program of your
/// own with the gate API): `flushcheck`.
void set_repro_program(const std::string& binary);

/// The word that starts any other line that runs flushcheck ("search
/// again: ..."), run in a shell whose PATH is DIRS (the caller's): plain
/// `flushcheck` when DIRS finds the binary set_repro_program named, else
/// that binary's path.
std::string flushcheck_word(const std::string& dirs);

/// ARGV as one line for people: each argument shell-quoted, cut after MAX
/// bytes ("python3 -c 'print(1)'"): a page's or a table's name for a run.
std::string command_line(const std::vector<std::string>& argv, std::size_t max);

}  // namespace flushcheck
