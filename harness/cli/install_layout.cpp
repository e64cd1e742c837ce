// The install layout: FLUSHCHECK_INSTALLED_TARGETS_DIR is the targets'
// directory relative to the installed binary's (harness/cli/CMakeLists.txt).
#include "install_layout.hpp"

#include <unistd.h>

#include <filesystem>
#include <string>

namespace flushcheck::cli {

std::string this_binary() {
  std::string path(4096, '\0');
  const ssize_t n = ::readlink("/proc/self/exe", path.data(), path.size());
  return n > 0 && static_cast<std::size_t>(n) < path.size()
             ? path.substr(0, static_cast<std::size_t>(n))
             : "";
}

std::string default_targets_dir() {
  const std::string binary = this_binary();
  const auto slash = binary.rfind('/');
  if (slash != std::string::npos) {
    const std::string installed =  // "/usr/lib/flushcheck", not "/usr/bin/../lib/flushcheck"
        std::filesystem::path(binary.substr(0, slash) + "/" + FLUSHCHECK_INSTALLED_TARGETS_DIR)
            .lexically_normal()
            .string();
    if (::access((installed + "/stdio_script").c_str(), X_OK) == 0) return installed;
  }
  return FLUSHCHECK_BUILD_TARGETS_DIR;
}

}  // namespace flushcheck::cli
