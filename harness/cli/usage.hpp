#pragma once
// Usage errors that say what to type instead: a misspelled verb, a
// program's arguments given without the "--" before them, a number out of range.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

namespace flushcheck::cli {

/// "'rnu' is not a verb (run, matrix, ...): did you mean run?" when ARGV's
/// first word that is no option names none of APP's verbs; nullopt else.
std::optional<std::string> unknown_verb(CLI::App& app, int argc, char** argv);

/// ARGV with the old spellings that still work (docs/cli.md) in today's:
/// bench's "--json FILE" and "--markdown FILE" become "--json=FILE" and
/// "--markdown=FILE" (a bare --json is stdout now). Nothing else changes.
std::vector<std::string> with_old_spellings(int argc, char** argv);

/// E's message, and, for an argument a verb did not expect before any "--",
/// where a program's arguments go.
std::string parse_error_text(const CLI::ParseError& e, int argc, char** argv);

/// Checks that an option's value is a whole number from LO to HI, and says
/// so in flushcheck's words ("0 is not a number from 1 to 86400000"), not in
/// CLI::Range's, whose wording changes with CLI11's version.
CLI::Validator in_range(long lo, long hi);

/// --jobs N on APP, into JOBS: how many worker processes run its
/// independent runs side by side (workers.hpp), 1 to 1024. JOBS 0 (the
/// flag not given) means jobs_or_cpus()'s default.
CLI::Option* add_jobs_option(CLI::App* app, int& jobs);
/// JOBS, or when 0 the CPUs this process may use (sched_getaffinity).
int jobs_or_cpus(int jobs);

/// Each exit status (commands.hpp) and what it means across the verbs:
/// the man page's EXIT STATUS.
const std::vector<std::pair<int, std::string>>& exit_statuses();

/// A verb's "Exit status: 0 WHAT, 2 usage error, ..." line, wrapped as the
/// help's footers are: each {status, meaning} of OWN in order, a meaning ""
/// said in the usual words (usage error, PROG could not be started, harness
/// failure). The numbers come from commands.hpp, never typed again.
std::string exit_footer(const std::vector<std::pair<int, std::string>>& own);

}  // namespace flushcheck::cli
