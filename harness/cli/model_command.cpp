// `flushcheck model`: the model properties (model_property.hpp) on this
// machine's toolchain sets: does the reference model hold for its libraries?
#include <algorithm>
#include <cstdint>
#include <iostream>
#include <random>

#include "commands.hpp"
#include "error.hpp"
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
              {exit_harness, ""}});
}

}  // namespace

model_command::model_command(CLI::App& parent) {
  app = parent.add_subcommand(
      "model", "Check the reference model against this machine's targets (the model properties)");
  app->add_option("--cases", cases, "cases per property (1 .. 1000000)")
      ->capture_default_str()
      ->check(in_range(1, 1000000));
  app->add_option("--seed", seed, "RapidCheck's seed (default: a random one, printed)");
  add_option_with_values(app, "--only", only, "one property", word_values(property_names()));
  app->add_option("--set", set, "toolchain set, or all (flushcheck --version lists them)")
      ->capture_default_str();
  app->add_option("--targets", targets_dir,
                  "directory of the targets (default: as matrix; a portable flushcheck builds "
                  "this machine's first)");
  app->footer(model_footer());
}

namespace {

/// --only names a model property, or none (all of them); throws usage_error.
void check_only(const std::string& only) {
  const auto names = property_names();
  if (!only.empty() && std::find(names.begin(), names.end(), only) == names.end())
    throw usage_error("--only=" + only + ": not a model property (" + listed(word_values(names)) +
                      ")");
}

/// The command that checks property NAME on SET again, with the same cases and SEED.
std::string again_command(long cases, std::uint64_t seed, const std::string& name,
                          const std::string& set, const std::string& dir) {
  return command_line({this_binary(), "model", "--cases", std::to_string(cases), "--seed",
                       std::to_string(seed), "--only", name, "--set", set, "--targets", dir},
                      4096);
}

/// P checked on TARGETS (DIR's), CASES cases from SEED, its result printed;
/// false when it was falsified or a case was flaky.
bool check_property(const model_property& p, const target_set& targets, long cases,
                    std::uint64_t seed, const std::string& dir) {
  const std::string title = targets.name + "/" + p.name;
  if (p.language == lang::cxx && targets.iostream_script.empty()) {
    std::cout << title << ": skipped: the set has no C++ target\n";
    return true;
  }
  const std::string again = again_command(cases, seed, p.name, targets.name, dir);
  const auto r = check_against_model(p, targets, static_cast<int>(cases), seed, again);
  std::cout << targets.name << "/" << r.message;
  if (r.passed) std::cout << " (seed " << seed << ", " << targets.profile.version << ")";
  std::cout << "\n";
  for (const auto& f : r.flaky) std::cout << "  flaky case: " << f << "\n";
  return r.passed && r.flaky.empty();
}

}  // namespace

int model_command::execute() {
  check_only(only);
  const std::string dir = targets_dir.empty() ? targets_dir_to_run() : targets_dir;
  const std::uint64_t s = seed ? *seed : std::random_device{}();
  bool all_held = true;
  for (const auto& targets : sets_named(set, dir)) {
    for (const auto& p : model_properties()) {
      if (!only.empty() && p.name != only) continue;
      if (!check_property(p, targets, cases, s, dir)) all_held = false;
    }
  }
  return all_held ? exit_ok : exit_failed;
}

}  // namespace flushcheck::cli
