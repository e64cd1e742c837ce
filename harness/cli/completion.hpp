#pragma once
// Bash completion for flushcheck, written from the CLI's own definitions:
// the verbs, each verb's options, and the values of the enumerated ones
// (option_values.hpp). `flushcheck --completion=bash` prints it; the build
// writes it for the package (/usr/share/bash-completion/completions).
#include <string>

#include <CLI/CLI.hpp>

namespace flushcheck::cli {

/// The script, for APP (the top app with every verb added).
std::string bash_completion(const CLI::App& app);

}  // namespace flushcheck::cli
