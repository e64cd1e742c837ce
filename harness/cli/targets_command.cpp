// `flushcheck targets build`: this machine's targets, built with its own
// compilers (target_build.hpp); what a portable flushcheck does on first use.
#include <iostream>

#include "commands.hpp"
#include "error.hpp"
#include "escape.hpp"
#include "install_layout.hpp"
#include "option_values.hpp"
#include "target_build.hpp"
#include "target_set.hpp"
#include "usage.hpp"

namespace flushcheck::cli {

namespace {

/// --into and --sources: where the targets go, and where their sources are.
void add_directory_options(targets_command& c) {
  c.app->add_option("--into", c.into,
                    "directory of the targets, built beside it and renamed over it (default: "
                    "this machine's, where a portable flushcheck keeps them: "
                    "~/.cache/flushcheck/targets/HASH)");
  c.app->add_option("--sources", c.sources,
                    "the targets' sources, a copy of the tree targets/ (default: the portable "
                    "build's BIN/../share/flushcheck/targets)");
}

/// --sets and --no-runtimes: which toolchain sets and targets are built.
void add_selection_options(targets_command& c) {
  c.app
      ->add_option("--sets", c.sets,
                   "build only these toolchain sets (" + set_names() + "), comma-separated")
      ->delimiter(',');
  c.app->add_flag("--no-runtimes", c.no_runtimes,
                  "leave out the runtimes' targets (Python, Node.js, ..., Java, Go, Rust): for a "
                  "root whose runtimes are not this machine's");
}

/// The help's footer: where the targets come from, the default set's compilers, the exit statuses.
std::string targets_footer() {
  return "A portable flushcheck builds them on first use; a build tree or a package has them.\n"
         "The default set's compilers are cc and c++, or those CC and CXX name (CXX set and\n"
         "empty: the default set is C only), as make and CMake take them.\n" +
         exit_footer({{exit_ok, "the default set built (with --sets: every set named)"},
                      {exit_usage,
                       "usage (no targets' sources there, no such set, a blank CC or CXX, a "
                       "directory that is a symlink or another user's, no HOME)"},
                      {exit_harness, "a set that had to build did not"}});
}

}  // namespace

targets_command::targets_command(CLI::App& parent) {
  app = parent.add_subcommand("targets", "Build the targets with this machine's compilers");
  add_option_with_values(app, "action", action,
                         "build: every toolchain set this machine's compilers can build (cc and "
                         "c++, musl-gcc, clang with libc++ and libstdc++, static glibc)",
                         word_values({"build"}))
      ->required();
  add_directory_options(*this);
  add_selection_options(*this);
  app->footer(targets_footer());
}

int targets_command::execute() {
  if (action != "build") throw usage_error(action + ": not an action of targets (build)");
  check_compiler_variables();
  const std::string dir = into.empty() ? machine_targets_dir() : into;
  const std::string src = sources.empty() ? portable_sources_dir() : sources;
  const auto recipes = sets.empty() ? set_recipes() : set_recipes(sets);
  const auto outcomes = build_target_sets(src, dir, recipes, !no_runtimes);
  bool ok = !outcomes.empty();
  for (const auto& o : outcomes) {
    // A compiler's message may hold any byte (an ESC): never raw to the terminal.
    std::cout << terminal_text(o.name + ": " +
                               (o.skipped.empty() ? "built in " + o.dir : "skipped: " + o.skipped))
              << "\n";
    if (!o.skipped.empty() && (!sets.empty() || &o == &outcomes.front())) ok = false;
  }
  return ok ? exit_ok : exit_harness;
}

}  // namespace flushcheck::cli
