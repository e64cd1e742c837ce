#include "file_target.hpp"

#include <fnmatch.h>

#include <filesystem>
#include <system_error>

#include "error.hpp"

namespace flushcheck {

std::size_t file_target_end(std::string_view rest, const std::vector<std::string_view>& whens) {
  std::size_t at = std::string_view::npos;
  for (std::string_view w : whens)
    for (auto p = rest.rfind(w); p != std::string_view::npos && p > 0; p = rest.rfind(w, p - 1))
      if (rest[p - 1] == ':') {
        if (at == std::string_view::npos || p - 1 > at) at = p - 1;
        break;
      }
  return at;
}

std::optional<file_target> parse_file_target(std::string_view rest,
                                             const std::vector<std::string_view>& whens,
                                             std::string_view whole) {
  const auto end = file_target_end(rest, whens);
  if (end == std::string_view::npos || end == 0) return std::nullopt;
  const std::string_view path = rest.substr(0, end);
  if (path.find('\0') != std::string_view::npos)
    throw usage_error(std::string(whole) + ": a path cannot hold a NUL byte");
  return file_target{absolute_glob(path), rest.substr(end + 1)};
}

std::string absolute_glob(std::string_view path) {
  std::error_code ec;
  auto absolute = std::filesystem::absolute(std::string(path), ec);
  std::string out = std::filesystem::weakly_canonical(absolute, ec).string();
  return ec ? absolute.lexically_normal().string() : out;
}

bool file_target_matches(const std::string& glob, const std::string& what) {
  // FNM_PATHNAME: '*' and '?' stay within one directory, as in the shell's
  // pathname expansion (POSIX 2.13.3), which "a glob" promises (docs/cli.md).
  return ::fnmatch(glob.c_str(), what.c_str(), FNM_PATHNAME) == 0;
}

}  // namespace flushcheck
