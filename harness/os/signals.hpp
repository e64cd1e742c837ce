#pragma once
/// Signal names as the CLI and JSON spell them: "KILL", "TERM", ...
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace flushcheck {

/// "KILL" for SIGKILL, "RTMIN+3" and "RTMAX" for real-time signals, the
/// number ("32") for one without a name.
std::string signal_name(int sig);

/// Accepts "KILL", "SIGKILL", "kill", "9", "RTMIN+3", "SIGRTMAX-1".
std::optional<int> parse_signal(std::string_view text);

/// The names of the table's signals ("HUP", "INT", ...; not the real-time ones).
std::vector<std::string_view> signal_names();

}  // namespace flushcheck
