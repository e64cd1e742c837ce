#pragma once
/// What a script target is built from: its language and the C and C++
/// libraries behind it. The model ports each library it knows; the
/// properties assert documented behaviour only for the library that
/// documents it.
#include <compare>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace flushcheck {

/// The language of a script target: stdio_script (C), iostream_script (C++),
/// or one runtime's interpreter of the script language (targets/runtimes/).
enum class lang { c, cxx, python, node, perl, ruby, java, go, rust };
/// "c", "cxx", "python", "node", ...: in case ids and JSON.
const char* to_string(lang l) noexcept;
/// "C", "C++", "Python", "Node.js", ...: in row labels and reports.
const char* display_name(lang l) noexcept;
/// The inverse of to_string(lang); nullopt for any other name.
std::optional<lang> parse_lang(std::string_view id) noexcept;
/// One of the runtimes rather than the C or C++ target of a toolchain set.
constexpr bool is_runtime(lang l) noexcept { return l != lang::c && l != lang::cxx; }

enum class libc_impl { glibc, musl, unknown };
/// none: the set has no C++ target (musl's set is C only).
enum class cxx_impl { libstdcxx, libcxx, none, unknown };

/// BUFSIZ of each C library (glibc libio/stdio.h, musl include/stdio.h):
/// glibc's cap on a stream's buffer (st_blksize above it is cut to it), and
/// musl's stdout buffer.
constexpr std::size_t glibc_bufsiz = 8192;
constexpr std::size_t musl_bufsiz = 1024;

/// "glibc", "musl", "unknown": what the targets print after "libc=".
const char* to_string(libc_impl l) noexcept;
/// "libstdc++", "libc++", "none", "unknown": what follows "cxxlib=".
const char* to_string(cxx_impl c) noexcept;
/// The inverse of to_string; any other name is unknown.
libc_impl parse_libc(std::string_view name) noexcept;
cxx_impl parse_cxxlib(std::string_view name) noexcept;

/// A library's release in numbers: glibc 2.41 is {2, 41, 0}; {} is unknown.
struct lib_version {
  int major = 0;
  int minor = 0;
  int patch = 0;
  auto operator<=>(const lib_version&) const = default;
};
/// The leading "N.N.N" of TEXT ("2.41", "1.2.3-1"); {} when it has none.
lib_version parse_lib_version(std::string_view text) noexcept;

/// What the standards leave open is filled in per implementation, and per
/// release where a release changed it (glibc 2.37's printf).
struct impl_profile {
  libc_impl libc = libc_impl::unknown;
  cxx_impl cxxlib = cxx_impl::unknown;
  std::string version;       ///< e.g. "glibc 2.36, libstdc++ 12 (20220819)"
  lib_version libc_release;  ///< {2, 36}; {} where the target did not say
  lib_version cxx_release;   ///< libstdc++'s GCC release {12}, libc++'s {19, 1, 7}; {} unknown
};

}  // namespace flushcheck
