#pragma once
// Usage errors that say what to type instead: a misspelled verb, a
// program's arguments given without the "--" before them.
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

namespace flushcheck::cli {

/// "'rnu' is not a verb (run, matrix, ...): did you mean run?" when ARGV's
/// first word that is no option names none of APP's verbs; nullopt else.
std::optional<std::string> unknown_verb(CLI::App& app, int argc, char** argv);

/// E's message, and, for an argument a verb did not expect before any "--",
/// where a program's arguments go.
std::string parse_error_text(const CLI::ParseError& e, int argc, char** argv);

}  // namespace flushcheck::cli
