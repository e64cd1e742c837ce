// The install layout: FLUSHCHECK_INSTALLED_TARGETS_DIR is the targets'
// directory relative to the installed binary's (harness/cli/CMakeLists.txt).
#include "install_layout.hpp"

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <stdexcept>

#include "capture.hpp"
#include "error.hpp"
#include "escape.hpp"
#include "target_build.hpp"

namespace flushcheck::cli {
namespace {

std::string binary_dir() {
  const std::string binary = this_binary();
  const auto slash = binary.rfind('/');
  return slash == std::string::npos ? "" : binary.substr(0, slash);
}

/// "/usr/lib/flushcheck", not "/usr/bin/../lib/flushcheck"
std::string beside_binary(const std::string& relative) {
  return std::filesystem::path(binary_dir() + "/" + relative).lexically_normal().string();
}

std::string installed_dir() {
  const std::string dir = beside_binary(FLUSHCHECK_INSTALLED_TARGETS_DIR);
  return ::access((dir + "/stdio_script").c_str(), X_OK) == 0 ? dir : "";
}

}  // namespace

std::string this_binary() {
  std::string path(4096, '\0');
  const ssize_t n = ::readlink("/proc/self/exe", path.data(), path.size());
  return n > 0 && static_cast<std::size_t>(n) < path.size()
             ? path.substr(0, static_cast<std::size_t>(n))
             : "";
}

bool is_portable() { return FLUSHCHECK_PORTABLE != 0; }

std::string portable_sources_dir() { return beside_binary("../share/flushcheck/targets"); }

namespace {

/// Where the user's cache is: DIR, which BASE must hold, as VARIABLE names it.
struct cache_place {
  std::string dir, base, variable;
};

/// XDG_CACHE_HOME, else HOME/.cache (absolute paths only).
cache_place cache_place_now() {
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  const char* home = std::getenv("HOME");
  if (xdg != nullptr && xdg[0] == '/')
    return {xdg, std::filesystem::path(xdg).parent_path().string(),
            std::string("XDG_CACHE_HOME=") + xdg};
  if (home != nullptr && home[0] == '/')
    return {std::string(home) + "/.cache", home, std::string("HOME=") + home};
  throw usage_error(
      "neither XDG_CACHE_HOME nor HOME names a directory: the portable "
      "flushcheck keeps this machine's targets there");
}

/// The user's cache directory. What it goes under must be there: a HOME
/// that is not (HOME=/nonexistent, a system user's) is refused, never made.
std::string cache_dir() {
  const cache_place p = cache_place_now();
  std::error_code ec;
  if (!std::filesystem::is_directory(p.base, ec))
    throw usage_error(printable(p.variable, 200) + ": " + printable(p.base, 200) +
                      " is not a directory, and is not made (targets build --into DIR "
                      "builds elsewhere)");
  return p.dir;
}

}  // namespace

std::string machine_targets_dir() {
  const std::string cache = cache_dir();
  xxh3_stream h;
  h.update(toolchain_stamp());
  return cache + "/flushcheck/targets/" + h.hex_digest();
}

std::string default_targets_dir() {
  if (auto dir = installed_dir(); !dir.empty()) return dir;
  if (is_portable()) return machine_targets_dir();
  return FLUSHCHECK_BUILD_TARGETS_DIR;
}

std::string runtimes_dir() {
  return (is_portable() ? portable_sources_dir() : default_targets_dir()) + "/runtimes";
}

namespace {

/// Builds this machine's targets into DIR, as a portable flushcheck does on
/// first use (build_target_sets builds them beside it and renames them into
/// place: a flushcheck started meanwhile sees all of them or none); throws
/// when the default set did not build.
void build_machine_targets(const std::string& dir) {
  std::cerr << "flushcheck: building this machine's targets into " << terminal_text(dir)
            << " (once per toolchain; `flushcheck targets build` does it again)\n";
  for (const auto& set : build_target_sets(portable_sources_dir(), dir, set_recipes()))
    if (!set.skipped.empty())
      std::cerr << "  " << terminal_text(set.name + ": skipped: " + set.skipped) << "\n";
  if (::access((dir + "/stdio_script").c_str(), X_OK) != 0)
    throw std::runtime_error("this machine's default targets did not build (" + dir +
                             ": flushcheck targets build says why)");
}

}  // namespace

std::string targets_dir_to_run() {
  const std::string dir = default_targets_dir();
  if (!is_portable()) return dir;
  check_own_directory(dir, dir);  // targets another user planted are never run
  if (::access((dir + "/stdio_script").c_str(), X_OK) == 0) {
    check_build_parent(std::filesystem::path(dir).parent_path());  // nor swapped in later
    return dir;
  }
  build_machine_targets(dir);
  return dir;
}

}  // namespace flushcheck::cli
