#pragma once
/// The machine a record was made on, so that records of several machines
/// can be told apart and compared (matrix --json's "machine").
#include <string>

namespace flushcheck {

struct machine_info {
  std::string distribution;  ///< os-release PRETTY_NAME: "Debian GNU/Linux 12 (bookworm)"
  std::string id;            ///< os-release ID and VERSION_ID (or VERSION_CODENAME): "debian 12"
  std::string kernel;        ///< uname's release: "6.1.0-28-amd64"
  std::string arch;          ///< uname's machine: "x86_64"
  long cpus = 0;             ///< online CPUs
};

/// This machine, read from /etc/os-release (or /usr/lib/os-release) and uname.
machine_info this_machine();

/// flushcheck's own version (the project's, from CMake).
const char* flushcheck_version() noexcept;

/// Now, in UTC, as ISO 8601 to the second: "2026-12-02T14:05:09Z".
std::string utc_now();

}  // namespace flushcheck
