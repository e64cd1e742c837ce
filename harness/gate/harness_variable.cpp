// The environment variables the harness sets itself (gate.hpp): a gate's
// own `env` may not set them. Apart from gate.cpp, whose runs need the whole
// harness, so that the gate file's parser links without it (ci/fuzz).
#include <string_view>
#include <utility>

#include "gate.hpp"

namespace flushcheck {

std::string_view harness_variable(std::string_view name) {
  // The marker protocol's are set again by run() (run.cpp, with_control_env).
  static constexpr std::pair<std::string_view, std::string_view> own[] = {
      {"FLUSHCHECK_LOG_DIR", "the run's fresh log directory"},
      {"FLUSHCHECK_MARKER_FD", "the marker protocol's marker fd"},
      {"FLUSHCHECK_RELEASE_FD", "the marker protocol's release fd"},
      {"FLUSHCHECK_GATE_FD", "the marker protocol's release fd (its old name)"},
  };
  for (const auto& [n, why] : own)
    if (n == name) return why;
  return {};
}

}  // namespace flushcheck
