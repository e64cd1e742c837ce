#pragma once
/// "file:PATH:WHEN" in --kill and --fault: the writes to a file the program
/// opens itself (a log file), named by a path or a glob.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace flushcheck {

/// Where WHEN starts in REST, the text after "file:" (PATH may hold colons):
/// the last ":" followed by one of WHENS ("write:", "every", ...), or npos.
std::size_t file_target_end(std::string_view rest, const std::vector<std::string_view>& whens);

/// PATH made absolute, the symlinks of its existing parts resolved, as the
/// tracer names an open file (/proc/PID/fd): the glob fnmatch(3) compares.
std::string absolute_glob(std::string_view path);

/// Whether the open file WHAT ("/tmp/x/app.log", "pipe:[12]") matches GLOB,
/// as the shell matches a path: '*' and '?' never match a '/'.
bool file_target_matches(const std::string& glob, const std::string& what);

}  // namespace flushcheck
