// Library names as the targets' --version prints them.
#include "profile.hpp"

namespace flushcheck {

const char* to_string(libc_impl l) noexcept {
  switch (l) {
    case libc_impl::glibc: return "glibc";
    case libc_impl::musl: return "musl";
    case libc_impl::unknown: return "unknown";
  }
  return "unknown";
}

const char* to_string(cxx_impl c) noexcept {
  switch (c) {
    case cxx_impl::libstdcxx: return "libstdc++";
    case cxx_impl::libcxx: return "libc++";
    case cxx_impl::none: return "none";
    case cxx_impl::unknown: return "unknown";
  }
  return "unknown";
}

// to_string(lang), display_name and parse_lang read the language table (languages.cpp).

libc_impl parse_libc(std::string_view name) noexcept {
  for (libc_impl l : {libc_impl::glibc, libc_impl::musl})
    if (name == to_string(l)) return l;
  return libc_impl::unknown;
}

cxx_impl parse_cxxlib(std::string_view name) noexcept {
  for (cxx_impl c : {cxx_impl::libstdcxx, cxx_impl::libcxx, cxx_impl::none})
    if (name == to_string(c)) return c;
  return cxx_impl::unknown;
}

lib_version parse_lib_version(std::string_view text) noexcept {
  lib_version v;
  int* parts[] = {&v.major, &v.minor, &v.patch};
  std::size_t i = 0;
  for (int* part : parts) {
    const std::size_t start = i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9' && *part < 100000)
      *part = *part * 10 + (text[i++] - '0');
    if (i == start || i == text.size() || text[i] != '.') break;
    ++i;
  }
  return v;
}

}  // namespace flushcheck
