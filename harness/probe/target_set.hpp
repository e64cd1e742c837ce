#pragma once
/// One toolchain's script targets and the profile they report (their runs
/// get the clean environment of clean_environment.hpp).
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "clean_environment.hpp"
#include "profile.hpp"
#include "runtime_target.hpp"

namespace flushcheck {

/// One toolchain's script targets, and for this machine's default set the
/// runtimes' interpreters of the same language.
struct target_set {
  std::string name;             ///< "gcc-glibc"
  std::string stdio_script;     ///< path of the C target ("" if none: only runtimes)
  std::string iostream_script;  ///< path of the C++ target ("" if none)
  impl_profile profile;
  std::vector<runtime_target> runtimes;  ///< empty unless asked for (matrix --runtimes)

  /// The runtime of language L, found or missing; nullptr if not in the set.
  const runtime_target* runtime(lang l) const;
  /// Does the set have a target (found or missing) for L?
  bool has(lang l) const;
};

/// musl's version as LOADER (musl's dynamic loader, which is its libc) says
/// when run alone: "Version 1.2.3" on its second line, to stderr. musl has
/// no macro or call for it. "" if LOADER is not there or says no version.
/// The default path is the same on Debian (package musl) and Alpine.
std::string musl_loader_version(const std::string& loader = "/lib/ld-musl-x86_64.so.1");

/// A target set whose profile is what its targets say of themselves
/// (`stdio_script --version`): the libraries they were built against, not
/// the harness's. A dynamic C target that names no libc ("libc=unknown")
/// and whose loader is musl's is musl of that loader's version: the library
/// it runs with (built with musl-gcc, or on Alpine). Throws spawn_error if a
/// target cannot run.
target_set probe_target_set(std::string name, std::string stdio_script,
                            std::string iostream_script);

/// The set in DIR (its stdio_script, and its iostream_script if there is
/// one: musl's set is C only), probed; nullopt if DIR has no stdio_script.
std::optional<target_set> probe_target_dir(std::string name, const std::string& dir);

/// The set in DIR, named "default", then each directory under it with a
/// stdio_script (musl, clang-libcxx, ...), by name: every toolchain set built.
std::vector<target_set> discover_target_sets(const std::string& dir);

/// The sets that are not in DIR and why, each {name, reason}: DIR's
/// skipped-sets.txt, one "NAME<TAB>REASON" per line, written by the build
/// (a compiler or library missing) or by the package (a set it does not
/// carry, naming the Debian packages that bring it). Empty without the file.
std::vector<std::pair<std::string, std::string>> skipped_target_sets(const std::string& dir);

}  // namespace flushcheck
