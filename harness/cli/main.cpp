// The flushcheck CLI. Exit status: 0 it ran (whatever the child did; for
// `gate`, every case passed), 1 a gate case failed, 2 usage error, 3 the program could not be
// started, 4 harness failure.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <functional>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "commands.hpp"
#include "completion.hpp"
#include "error.hpp"
#include "escape.hpp"
#include "install_layout.hpp"
#include "interrupts.hpp"
#include "man_page.hpp"
#include "option_values.hpp"
#include "report_file.hpp"
#include "repro.hpp"
#include "usage.hpp"
#include "version.hpp"

namespace {

/// A closed fd 0, 1 or 2 would be handed to the first file the harness
/// opens (a sink), and the report written into it: hold them with
/// /dev/null opened read-only, so that a write fails (EBADF) as it would.
void hold_closed_standard_fds() {
  for (int fd = 0; fd <= 2; ++fd)
    if (::fcntl(fd, F_GETFD) < 0 && errno == EBADF) {
      int held = ::open("/dev/null", O_RDONLY);
      if (held >= 0 && held != fd) {
        ::dup2(held, fd);
        ::close(held);
      }
    }
}

/// CODE, or exit 4 with a message when the report did not reach stdout
/// (closed, a full disk): a lost report must not look like a run.
int with_report_written(int code) {
  errno = 0;
  std::cout.flush();
  bool failed = std::fflush(stdout) != 0 || std::ferror(stdout) != 0 || !std::cout;
  if (!failed) return code;
  int e = errno;
  std::cerr << "flushcheck: the report could not be written to stdout"
            << (e != 0 ? std::string(": ") + std::strerror(e) : std::string()) << "\n";
  return flushcheck::cli::exit_harness;
}

/// "--timeout=" with nothing after '=' (before the "--" that starts the
/// program's arguments): CLI11 would take the next argument as its value.
const char* empty_option_value(int argc, char** argv) {
  for (int i = 1; i < argc && std::strcmp(argv[i], "--") != 0; ++i) {
    std::size_t n = std::strlen(argv[i]);
    if (n > 3 && argv[i][0] == '-' && argv[i][1] == '-' && argv[i][n - 1] == '=') return argv[i];
  }
  return nullptr;
}

/// A verb: its command's subcommand, and how the command runs.
struct verb {
  CLI::App* app;
  std::function<int()> execute;
};

template <typename Command>
verb as_verb(Command& c) {
  return {c.app, [&c] { return c.execute(); }};
}

/// Runs the verb APP got.
int execute(CLI::App& app, const std::vector<verb>& verbs) {
  for (const auto& v : verbs)
    if (app.got_subcommand(v.app)) return v.execute();
  return flushcheck::cli::exit_usage;
}

/// The command line as CLI11 reads it: ARGV with the old spellings that
/// still work put in today's words (usage.hpp, with_old_spellings).
class arguments {
 public:
  arguments(int argc, char** argv) : words_(flushcheck::cli::with_old_spellings(argc, argv)) {
    for (auto& w : words_) pointers_.push_back(w.data());
    pointers_.push_back(nullptr);
  }
  int count() const { return static_cast<int>(words_.size()); }
  char** pointers() { return pointers_.data(); }

 private:
  std::vector<std::string> words_;
  std::vector<char*> pointers_;
};

/// --completion=SHELL: prints the completion script for SHELL (bash) and exits 0.
void add_completion_option(CLI::App& app) {
  flushcheck::cli::with_values(
      app.add_option_function<std::string>(
             "--completion",
             [&app](const std::string& shell) {
               if (shell != "bash")
                 throw CLI::ValidationError("--completion", shell + ": only bash");
               throw CLI::CallForVersion(flushcheck::cli::bash_completion(app), 0);
             },
             "Print the bash completion script (for SHELL=bash) and exit")
          ->trigger_on_parse(),
      flushcheck::cli::word_values({"bash"}));
}

/// --version's text. A portable flushcheck with neither XDG_CACHE_HOME nor
/// HOME has no directory for this machine's targets: the text says so, and
/// only a verb that runs the targets refuses to (install_layout.hpp).
std::string version() {
  std::string dir;
  try {
    dir = flushcheck::cli::default_targets_dir();
  } catch (const flushcheck::usage_error& e) {
    return flushcheck::cli::version_line() +
           "toolchain sets: none found: " + flushcheck::error_line(e.what()) + "\n";
  }
  return flushcheck::cli::version_text(dir);
}

/// --version, --manpage and --completion=SHELL: each prints and exits 0
/// (CLI11's CallForVersion carries the text), whatever else is on the line.
void add_self_description(CLI::App& app) {
  app.set_version_flag("--version", version,
                       "Print the version, the commit and the toolchain sets, and exit");
  app.add_flag_callback(
         "--manpage", [&app] { throw CLI::CallForVersion(flushcheck::cli::man_page(app), 0); },
         "Print the man page flushcheck(1) (man(7) markup) and exit")
      ->trigger_on_parse();  // CLI11 2.6 checks require_subcommand before other callbacks
  add_completion_option(app);
}

/// STEP's exit status; an error it throws is one line on stderr and the
/// status of its kind (usage 2, a program that did not start 3, else 4).
int exit_status_of(const std::function<int()>& step) {
  try {
    return step();
  } catch (const flushcheck::usage_error& e) {
    std::cerr << "flushcheck: " << flushcheck::error_line(e.what()) << "\n";
    return flushcheck::cli::exit_usage;
  } catch (const flushcheck::spawn_error& e) {
    std::cerr << "flushcheck: cannot start " << flushcheck::error_line(e.what()) << "\n";
    return flushcheck::cli::exit_spawn;
  } catch (const std::exception& e) {
    std::cerr << "flushcheck: harness failure: " << flushcheck::error_line(e.what()) << "\n";
    return flushcheck::cli::exit_harness;
  }
}

/// Parses ARGV into APP: nullopt to go on to the verb, or the exit status
/// when there is nothing to run (help, --version, a usage error).
std::optional<int> parse(CLI::App& app, int argc, char** argv) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    return with_report_written(0);
  } catch (const CLI::CallForVersion& e) {  // --version, --manpage, --completion
    std::cout << e.what();
    return with_report_written(0);
  } catch (const CLI::CallForAllHelp&) {
    std::cout << app.help("", CLI::AppFormatMode::All);
    return with_report_written(0);
  } catch (const CLI::ParseError& e) {
    std::cerr << "flushcheck: "
              << flushcheck::error_line(flushcheck::cli::parse_error_text(e, argc, argv))
              << " (see flushcheck --help)\n";
    return flushcheck::cli::exit_usage;
  }
  return std::nullopt;
}

/// The process's set-up before any flag is read: the standard fds, the
/// interrupts, SIGPIPE, the program repro lines run.
void set_up_process() {
  hold_closed_standard_fds();
  // Descendants that leave the program's process group (setsid) and outlive
  // their parent become ours: the run kills them at its end (child.hpp), and
  // so does the interrupt thread.
  flushcheck::cli::guard_interrupts();
  ::signal(SIGPIPE, SIG_IGN);  // the child's dispositions are reset at spawn
  // repro lines run this binary when pasted
  flushcheck::set_repro_program(flushcheck::cli::this_binary());
}

/// The top app: one verb required, --help-all, the help's format (which the verbs inherit).
void set_up_app(CLI::App& app) {
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "Help for every command");
  app.formatter(std::make_shared<flushcheck::cli::help_formatter>());
}

/// Every verb's command, each adding its subcommand to the app in this order.
struct commands {
  explicit commands(CLI::App& app)
      : run(app),
        matrix(app),
        count(app),
        explore(app),
        gate(app),
        bench(app),
        doctor(app),
        model(app),
        targets(app),
        workload(app),
        durability(app) {}
  std::vector<verb> verbs() {
    return {as_verb(run),     as_verb(matrix),   as_verb(count),     as_verb(explore),
            as_verb(gate),    as_verb(bench),    as_verb(doctor),    as_verb(model),
            as_verb(targets), as_verb(workload), as_verb(durability)};
  }
  flushcheck::cli::run_command run;
  flushcheck::cli::matrix_command matrix;
  flushcheck::cli::count_command count;
  flushcheck::cli::explore_command explore;
  flushcheck::cli::gate_command gate;
  flushcheck::cli::bench_command bench;
  flushcheck::cli::doctor_command doctor;
  flushcheck::cli::model_command model;
  flushcheck::cli::targets_command targets;
  flushcheck::cli::workload_command workload;
  flushcheck::cli::durability_command durability;
};

/// The usage errors found before CLI11 parses, which it would say less well:
/// an empty value after '=', a verb that is not one.
std::optional<int> early_usage_error(CLI::App& app, int argc, char** argv) {
  if (const char* empty = empty_option_value(argc, argv)) {
    std::cerr << "flushcheck: " << flushcheck::error_line(empty)
              << ": empty value (see flushcheck --help)\n";
    return flushcheck::cli::exit_usage;
  }
  if (auto bad = flushcheck::cli::unknown_verb(app, argc, argv)) {
    std::cerr << "flushcheck: " << flushcheck::error_line(*bad) << "\n";
    return flushcheck::cli::exit_usage;
  }
  return std::nullopt;
}

/// The CLI: set-up, the flags, the verb. What any step throws (a flag's
/// callback too) is one line and an exit status, never std::terminate.
int run_cli(int argc, char** argv) {
  arguments args(argc, argv);  // old spellings in today's words
  argc = args.count();
  argv = args.pointers();
  set_up_process();
  return exit_status_of([&] {
    CLI::App app{"flushcheck: test buffering semantics from the outside", "flushcheck"};
    set_up_app(app);
    commands cmds(app);
    const std::vector<verb> verbs = cmds.verbs();
    add_self_description(app);
    if (auto early = early_usage_error(app, argc, argv)) return *early;
    if (auto done = parse(app, argc, argv)) return *done;
    return with_report_written(execute(app, verbs));
  });
}
}  // namespace

int main(int argc, char** argv) { return flushcheck::cli::unless_interrupted(run_cli(argc, argv)); }
