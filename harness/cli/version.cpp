// The version comes from one place, CMakeLists.txt's project(VERSION), as
// FLUSHCHECK_VERSION; the commit from build_commit.cpp (written at build time).
#include "version.hpp"

#include <string>

#include "build_commit.hpp"
#include "escape.hpp"
#include "target_set.hpp"

namespace flushcheck::cli {

std::string version_line() {
  return std::string("flushcheck ") + FLUSHCHECK_VERSION + " (commit " + build_commit() + ")\n";
}

std::string version_text(const std::string& dir) {
  std::string text = version_line() + "toolchain sets in " + terminal_text(dir) + ":\n";
  const auto sets = discover_target_sets(dir);
  if (sets.empty()) text += "  none built (flushcheck targets build)\n";
  for (const auto& set : sets) text += "  " + set.name + ": " + set.profile.version + "\n";
  for (const auto& [name, why] : skipped_target_sets(dir))
    text += "  " + terminal_text(name + ": not here: " + why) + "\n";
  return text;
}

}  // namespace flushcheck::cli
