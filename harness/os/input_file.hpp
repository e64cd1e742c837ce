#pragma once
/// A file from outside (a saved record, a bench report): untrusted input,
/// read whole but never without bound.
#include <cstddef>
#include <string>

namespace flushcheck {

/// PATH's bytes, gunzipped when they are gzip's (docs/distros/*.json.gz),
/// at most MAX_BYTES after unpacking. Throws usage_error with the reason
/// alone (the caller names the path): it cannot be read, it is a
/// directory, it is larger (/dev/zero is), or its gzip stream is broken.
std::string read_input_file(const std::string& path, std::size_t max_bytes);

}  // namespace flushcheck
