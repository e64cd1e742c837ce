// The flushcheck CLI. Exit status: 0 it ran (whatever the child did),
// 2 usage error, 3 the program could not be started, 4 harness failure.
#include <unistd.h>
#include <csignal>
#include <cstdio>
#include <iostream>

#include <CLI/CLI.hpp>

#include "commands.hpp"
#include "flushcheck/error.hpp"

namespace {

volatile sig_atomic_t g_child_group = 0;

// Ctrl-C or a kill of the CLI must not leave the child (in its own session,
// out of reach of the terminal) running.
extern "C" void on_fatal_signal(int sig) {
  if (g_child_group > 0) ::kill(-g_child_group, SIGKILL);
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

}  // namespace

namespace flushcheck::cli {
void remember_child(int pid) { g_child_group = pid; }
}  // namespace flushcheck::cli

int main(int argc, char** argv) {
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) ::signal(sig, on_fatal_signal);
  ::signal(SIGPIPE, SIG_IGN);  // the child's dispositions are reset at spawn

  CLI::App app{"flushcheck: test buffering semantics from the outside", "flushcheck"};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "Help for every command");
  flushcheck::cli::run_command run_cmd(app);
  flushcheck::cli::matrix_command matrix_cmd(app);
  flushcheck::cli::count_command count_cmd(app);
  flushcheck::cli::explore_command explore_cmd(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    return 0;
  } catch (const CLI::CallForAllHelp&) {
    std::cout << app.help("", CLI::AppFormatMode::All);
    return 0;
  } catch (const CLI::ParseError& e) {
    std::cerr << "flushcheck: " << e.what() << " (see flushcheck --help)\n";
    return flushcheck::cli::exit_usage;
  }
  try {
    if (app.got_subcommand(run_cmd.app)) return run_cmd.execute();
    if (app.got_subcommand(matrix_cmd.app)) return matrix_cmd.execute();
    if (app.got_subcommand(count_cmd.app)) return count_cmd.execute();
    if (app.got_subcommand(explore_cmd.app)) return explore_cmd.execute();
  } catch (const flushcheck::usage_error& e) {
    std::cerr << "flushcheck: " << e.what() << "\n";
    return flushcheck::cli::exit_usage;
  } catch (const flushcheck::spawn_error& e) {
    std::cerr << "flushcheck: cannot start " << e.what() << "\n";
    return flushcheck::cli::exit_spawn;
  } catch (const std::exception& e) {
    std::cerr << "flushcheck: harness failure: " << e.what() << "\n";
    return flushcheck::cli::exit_harness;
  }
  return flushcheck::cli::exit_usage;
}
