#pragma once
/// Signal names as the CLI and JSON spell them: "KILL", "TERM", ...; and
/// the signals that interrupt the harness.
#include <signal.h>

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

/// The signals that interrupt the harness (SIGINT, SIGTERM, SIGHUP, SIGQUIT):
/// the CLI's, and a worker process's, which each wait for on a thread of
/// their own and end the runs and temporaries they have before they die.
sigset_t interrupt_signals() noexcept;

}  // namespace flushcheck
