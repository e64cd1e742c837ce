#pragma once
/// Reading a file whole, never without bound: a file from outside (a saved
/// record, a bench report: untrusted input), or one of this machine's
/// (/proc, /sys, /etc, a targets directory).
#include <cstddef>
#include <optional>
#include <string>

namespace flushcheck {

/// PATH's bytes, gunzipped when they are gzip's (docs/distros/*.json.gz),
/// at most MAX_BYTES after unpacking. Throws usage_error with the reason
/// alone (the caller names the path): it cannot be read, it is a
/// directory, it is larger (/dev/zero is), or its gzip stream is broken.
std::string read_input_file(const std::string& path, std::size_t max_bytes);

/// A file of this machine: its first MAX_BYTES bytes (a /proc or /sys file
/// is far smaller), or nullopt if it cannot be opened (not there, not
/// readable, a kernel without it).
std::optional<std::string> read_file(const std::string& path, std::size_t max_bytes = 1 << 20);

}  // namespace flushcheck
