#pragma once
/// The environment every harness-made run of a target or runtime gets.
#include <string>
#include <vector>

namespace flushcheck {

/// Only PATH and LANG, so that variables like PYTHONUNBUFFERED or _STDBUF_O
/// cannot leak in from the caller.
std::vector<std::string> clean_environment();

}  // namespace flushcheck
