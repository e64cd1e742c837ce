// `flushcheck model`: the model properties (model_property.hpp) on this
// machine's toolchain sets: does the reference model hold for its libraries?
#include <algorithm>
#include <charconv>
#include <cstdint>
#include <iostream>
#include <random>

#include "commands.hpp"
#include "error.hpp"
#include "escape.hpp"
#include "install_layout.hpp"
#include "model_property.hpp"
#include "option_values.hpp"
#include "repro.hpp"
#include "target_set.hpp"
#include "usage.hpp"

namespace flushcheck::cli {
namespace {

std::vector<std::string> property_names() {
  std::vector<std::string> names;
  for (const auto& p : model_properties()) names.push_back(p.name);
  return names;
}

/// The sets NAME names in DIR ("all": every set built there).
std::vector<target_set> sets_named(const std::string& name, const std::string& dir) {
  std::vector<target_set> sets;
  for (auto& s : discover_target_sets(dir))
    if (name == "all" || s.name == name) sets.push_back(std::move(s));
  if (sets.empty())
    throw usage_error("--set=" + name + ": no such toolchain set in " + dir +
                      " (flushcheck --version lists them)");
  return sets;
}

/// The help's footer: what each property runs and checks, and the exit statuses.
std::string model_footer() {
  return "Each property runs generated scripts of the targets' stdio or iostreams on real\n"
         "sinks, cut at markers, writes and their own endings, with and without --fault plans,\n"
         "and checks every run against the model of the set's libraries (docs/model.md).\n" +
         exit_footer(
             {{exit_ok, "every property held"},
              {exit_failed, "one was falsified (shrunk, with the command that runs it again)"},
              {exit_usage, ""},
              {exit_harness, ""},
              {exit_no_verdict, "--max-seconds ended a property before it checked a case"}});
}

/// --max-seconds' values: a number of seconds from 0 to a day.
CLI::Validator seconds_range() {
  return CLI::Validator(
      [](std::string& value) -> std::string {
        double t = 0;
        const char* end = value.data() + value.size();
        auto [stop, error] = std::from_chars(value.data(), end, t);
        if (error == std::errc{} && stop == end && t >= 0 && t <= 86400) return "";
        return value + " is not a number of seconds from 0 to 86400";
      },
      "SECONDS from 0 to 86400");
}

}  // namespace

model_command::model_command(CLI::App& parent) {
  app = parent.add_subcommand(
      "model", "Check the reference model against this machine's targets (the model properties)");
  app->add_option("--cases", cases, "cases per property (1 .. 1000000)")
      ->capture_default_str()
      ->check(in_range(1, 1000000));
  app->add_option("--seed", seed, "RapidCheck's seed (default: a random one, printed)");
  app->add_option("--max-seconds", max_seconds,
                  "bounds each property's search, and its shrinking again; each run ends by "
                  "then too")
      ->capture_default_str()
      ->check(seconds_range());
  add_option_with_values(app, "--only", only, "one property", word_values(property_names()));
  app->add_option("--set", set, "toolchain set, or all (flushcheck --version lists them)")
      ->capture_default_str();
  app->add_option("--targets", targets_dir,
                  "directory of the targets (default: as matrix; a portable flushcheck builds "
                  "this machine's first)");
  app->footer(model_footer());
}

namespace {

/// --only names a model property, if given; throws usage_error.
void check_only(const std::optional<std::string>& only) {
  const auto names = property_names();
  if (only && std::find(names.begin(), names.end(), *only) == names.end())
    throw usage_error("--only=" + (only->empty() ? std::string("''") : printable(*only, 200)) +
                      ": not a model property (" + listed(word_values(names)) + ")");
}

/// SECONDS as the command line takes it back, exactly: "60", "2.5".
std::string seconds_text(double seconds) {
  char text[64];
  const auto end = std::to_chars(text, text + sizeof text, seconds).ptr;
  return std::string(text, end);
}

/// The command that checks property NAME on SET of DIR again, with CMD's cases,
/// budget and SEED.
std::string again_command(const model_command& cmd, std::uint64_t seed, const std::string& name,
                          const std::string& set, const std::string& dir) {
  return command_line({this_binary(), "model", "--cases", std::to_string(cmd.cases), "--seed",
                       std::to_string(seed), "--only", name, "--set", set, "--targets", dir,
                       "--max-seconds", seconds_text(cmd.max_seconds)},
                      4096);
}

/// How a property's check ended, for the exit status.
enum class checked { held, failed, nothing };

/// P checked on TARGETS (DIR's), CMD's cases from SEED, its result printed.
checked check_property(const model_command& cmd, const model_property& p, const target_set& targets,
                       std::uint64_t seed, const std::string& dir) {
  const std::string title = targets.name + "/" + p.name;
  if (p.language == lang::cxx && targets.iostream_script.empty()) {
    std::cout << title << ": skipped: the set has no C++ target\n";
    return checked::held;
  }
  const std::string again = again_command(cmd, seed, p.name, targets.name, dir);
  const model_search search{static_cast<int>(cmd.cases), seed, cmd.max_seconds};
  const auto r = check_against_model(p, targets, search, again);
  std::cout << targets.name << "/" << r.message;
  if (!r.counterexample) std::cout << " (seed " << seed << ", " << targets.profile.version << ")";
  std::cout << "\n";
  for (const auto& f : r.flaky) std::cout << "  flaky case: " << f << "\n";
  if (r.nothing_checked()) return checked::nothing;
  return r.passed && r.flaky.empty() ? checked::held : checked::failed;
}

}  // namespace

int model_command::execute() {
  check_only(only);
  const std::string dir = targets_dir.empty() ? targets_dir_to_run() : targets_dir;
  const std::uint64_t s = seed ? *seed : std::random_device{}();
  bool failed = false, nothing = false;
  for (const auto& targets : sets_named(set, dir)) {
    for (const auto& p : model_properties()) {
      if (only && p.name != *only) continue;
      const checked c = check_property(*this, p, targets, s, dir);
      failed = failed || c == checked::failed;
      nothing = nothing || c == checked::nothing;
    }
  }
  if (failed) return exit_failed;
  return nothing ? exit_no_verdict : exit_ok;
}

}  // namespace flushcheck::cli
