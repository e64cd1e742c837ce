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

namespace {

struct lang_names {
  lang language;
  const char* id;
  const char* display;
};

constexpr lang_names k_lang_names[] = {
    {lang::c, "c", "C"},
    {lang::cxx, "cxx", "C++"},
    {lang::python, "python", "Python"},
    {lang::node, "node", "Node.js"},
    {lang::perl, "perl", "Perl"},
    {lang::ruby, "ruby", "Ruby"},
    {lang::java, "java", "Java"},
    {lang::go, "go", "Go"},
    {lang::rust, "rust", "Rust"},
};

const lang_names& names_of(lang l) noexcept {
  for (const auto& n : k_lang_names)
    if (n.language == l) return n;
  return k_lang_names[0];
}

}  // namespace

const char* to_string(lang l) noexcept { return names_of(l).id; }
const char* display_name(lang l) noexcept { return names_of(l).display; }

std::optional<lang> parse_lang(std::string_view id) noexcept {
  for (const auto& n : k_lang_names)
    if (id == n.id) return n.language;
  return std::nullopt;
}

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
