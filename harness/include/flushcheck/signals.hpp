#pragma once
/// Signal names as the CLI and JSON spell them: "KILL", "TERM", ...
#include <optional>
#include <string>
#include <string_view>

namespace flushcheck {

/// "KILL" for SIGKILL; "SIG42" for one without a name.
std::string signal_name(int sig);

/// Accepts "KILL", "SIGKILL", "kill" or "9".
std::optional<int> parse_signal(std::string_view text);

}  // namespace flushcheck
