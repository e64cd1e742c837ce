#pragma once
// Where the flushcheck command finds what it runs: its own path, and the
// targets (script targets, toolchain sets, runtimes' scripts, bench programs)
// beside it when it is installed, in the build tree it was built in, or, for
// the portable build (docs/portable.md), built for this machine on first use.
#include <string>

namespace flushcheck::cli {

/// The path of this binary (from /proc/self/exe), or "" if /proc cannot say.
std::string this_binary();

/// The targets' directory: BIN/../lib/flushcheck when this binary is an
/// installed one (the Debian package, `cmake --install`); else, for the
/// portable build, this machine's (machine_targets_dir(), built or not);
/// else the build tree's targets/ (FLUSHCHECK_BUILD_TARGETS_DIR).
std::string default_targets_dir();

/// As default_targets_dir(), for a verb that runs the targets: a portable
/// flushcheck builds this machine's first when they are not built yet
/// (build_target_sets), saying so on stderr. Throws std::runtime_error
/// when its default set cannot be built.
std::string targets_dir_to_run();

/// Where a portable flushcheck keeps the targets it built for this
/// machine's toolchain: $XDG_CACHE_HOME/flushcheck/targets/HASH (else
/// ~/.cache/...), HASH of toolchain_stamp(), so that another compiler or
/// C library gets targets of its own. Throws usage_error with neither
/// variable set.
std::string machine_targets_dir();

/// The workload helpers' directory (flushcheck_workload.py, .js, the
/// marker protocol's modules; docs/workload.md), what a gate file's
/// "{runtimes}" is: TARGETS/runtimes, and for the portable build the copy
/// among its sources (there before its targets are built).
std::string runtimes_dir();

/// The targets' sources carried by a portable flushcheck:
/// BIN/../share/flushcheck/targets.
std::string portable_sources_dir();

/// Is this the portable build (ci/portable)?
bool is_portable();

}  // namespace flushcheck::cli
