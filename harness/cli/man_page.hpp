#pragma once
// flushcheck(1), written from the CLI's own definitions: each verb's
// description, options, their values (option_values.hpp), defaults and
// footer (its exit statuses), so the page cannot drift from --help.
// `flushcheck --manpage` prints it; the build writes flushcheck.1 with it.
#include <string>

#include <CLI/CLI.hpp>

namespace flushcheck::cli {

/// The page in man(7) markup, for APP (the top app with every verb added).
std::string man_page(const CLI::App& app);

}  // namespace flushcheck::cli
