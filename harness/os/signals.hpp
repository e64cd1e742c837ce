#pragma once
/// Signal names as the CLI and JSON spell them: "KILL", "TERM", ...
#include <optional>
#include <string>
#include <string_view>

namespace flushcheck {

/// "KILL" for SIGKILL, "RTMIN+3" and "RTMAX" for real-time signals, the
/// number ("32") for one without a name.
std::string signal_name(int sig);

/// Accepts "KILL", "SIGKILL", "kill", "9", "RTMIN+3", "SIGRTMAX-1".
std::optional<int> parse_signal(std::string_view text);

}  // namespace flushcheck
