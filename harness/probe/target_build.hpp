#pragma once
/// The targets of a machine built on it, from their sources, with its own
/// compilers: what a portable flushcheck does on first use (docs/portable.md).
/// The same recipes as the source build's toolchain sets
/// (targets/CMakeLists.txt): script targets and bench programs per set.
#include <optional>
#include <string>
#include <vector>

#include "profile.hpp"

namespace flushcheck {

/// A toolchain set to build: its compilers and flags, and what brings it.
struct set_recipe {
  std::string name;      ///< "default", "musl", "clang-libcxx", ...
  std::string cc;        ///< the C compiler, found on PATH
  std::string cflags;    ///< added to every C compile and link
  std::string cxx;       ///< the C++ compiler ("": the set is C only)
  std::string cxxflags;  ///< added to every C++ compile and link
  std::string packages;  ///< what installs the compilers (Debian's names)
  /// Its targets name the musl release they link: -DFC_LIBC_VERSION= what
  /// musl's loader prints, asked when the set is built.
  bool names_musl_release = false;
  /// The C library its targets must report, or the set is discarded
  /// (glibc-static: on Alpine, `cc -static` links musl).
  std::optional<libc_impl> libc{};
};

/// The sets a machine may have, default first: cc and c++ (or the compilers
/// $CC and $CXX name, as make and CMake take them; CXX set and empty makes
/// the default set C only), musl-gcc, clang with libc++ and with libstdc++,
/// and static glibc. Data only: nothing is run to make them.
std::vector<set_recipe> set_recipes();
/// Their names, comma-separated, for help and messages.
std::string set_names();
/// Those of set_recipes() named in NAMES, in that order. Throws usage_error
/// for a name that is none of them, saying which there are.
std::vector<set_recipe> set_recipes(const std::vector<std::string>& names);

/// What became of one set: built into dir, or skipped and why.
struct set_outcome {
  std::string name;
  std::string dir;      ///< where its targets are ("" if skipped)
  std::string skipped;  ///< why it was not built ("" if built)
};

/// Builds each of SETS from SOURCES (the tree of targets/: script/,
/// include/, bench/, runtimes/) into INTO (the default set) and INTO/NAME
/// (the others), with the machine's compilers on PATH. Writes
/// INTO/skipped-sets.txt (target_set.hpp) and INTO/stamp.txt
/// (toolchain_stamp()), and puts the runtimes' scripts, and the Java, Go
/// and Rust targets where their compilers are, into INTO/runtimes. A set
/// whose compiler is missing or fails is skipped with the reason. Without
/// RUNTIMES, INTO/runtimes is left out (a root whose runtimes differ from
/// this machine's).
/// Everything is built in a new directory beside INTO and renamed into
/// place, replacing what INTO held: a reader sees one build whole, and of
/// builds at once the last to finish stays. Throws usage_error when SOURCES
/// is not such a tree, and before building when INTO is there and is a
/// symlink, not a directory, another user's, or neither empty nor a build
/// (no stamp.txt), or when its parent is another user's or anyone's (not
/// sticky); harness_error when INTO cannot be written.
std::vector<set_outcome> build_target_sets(const std::string& sources, const std::string& into,
                                           const std::vector<set_recipe>& sets,
                                           bool runtimes = true);

/// Refuses (usage_error) a CC or CXX of blanks only ("CC is blank"): no
/// compiler, and not the empty CXX that makes the default set C only.
void check_compiler_variables();

/// Throws usage_error (naming it as SHOWN) unless DIR is not there, or is a
/// directory of the caller's own, not a symbolic link: targets another user
/// could have planted are never run, nor built over.
void check_own_directory(const std::string& dir, const std::string& shown);
/// PARENT, where a build is made and renamed into place, refused
/// (usage_error) when another user may rename what is in it (swap the
/// build for a link): it must be the caller's or root's, and sticky if its
/// group or anyone may write it (/tmp).
void check_build_parent(const std::string& parent);

/// What identifies this machine's toolchain: its compilers' first lines of
/// --version and its dynamic loaders (path, size, time), one per line. The
/// targets built are those of this stamp; another stamp means rebuild.
std::string toolchain_stamp();

}  // namespace flushcheck
