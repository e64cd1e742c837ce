#pragma once
/// "file:PATH:WHEN" in --kill and --fault: the writes to a file the program
/// opens itself (a log file), named by a path or a glob.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace flushcheck {

/// Where WHEN starts in REST, the text after "file:" (PATH may hold colons):
/// the last ":" followed by one of WHENS ("write:", "every", ...), or npos.
std::size_t file_target_end(std::string_view rest, const std::vector<std::string_view>& whens);

/// "PATH:WHEN", the text after "file:", split: PATH as absolute_glob gives it.
struct file_target {
  std::string glob;
  std::string_view when;  ///< a view into the text parsed
};

/// REST, the text after "file:", split where file_target_end(REST, WHENS)
/// says; nullopt when no WHEN of WHENS follows a non-empty PATH (each caller
/// words that error). Throws usage_error "WHOLE: a path cannot hold a NUL byte".
std::optional<file_target> parse_file_target(std::string_view rest,
                                             const std::vector<std::string_view>& whens,
                                             std::string_view whole);

/// PATH made absolute, the symlinks of its existing parts resolved, as the
/// tracer names an open file (/proc/PID/fd): the glob fnmatch(3) compares.
std::string absolute_glob(std::string_view path);

/// Whether the open file WHAT ("/tmp/x/app.log", "pipe:[12]") matches GLOB,
/// as the shell matches a path: '*' and '?' never match a '/'.
bool file_target_matches(const std::string& glob, const std::string& what);

}  // namespace flushcheck
