// What a program is: its ELF headers (glibc's <elf.h>: PT_INTERP and the
// DT_NEEDED of the dynamic section), or its `#!` line and the interpreter
// it names.
#include "flushcheck/program_kind.hpp"

#include <elf.h>
#include <fcntl.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <cstring>

#include "flushcheck/spawn.hpp"
#include "flushcheck/unique_fd.hpp"

namespace flushcheck {

namespace {

template <typename T>
bool read_at(int fd, T& out, std::uint64_t offset) {
  return ::pread(fd, &out, sizeof out, static_cast<off_t>(offset)) ==
         static_cast<ssize_t>(sizeof out);
}

/// The NUL-terminated string at OFFSET (at most 4095 bytes).
std::string string_at(int fd, std::uint64_t offset) {
  char buf[4096] = {};
  ssize_t n = ::pread(fd, buf, sizeof buf - 1, static_cast<off_t>(offset));
  return n > 0 ? std::string(buf, ::strnlen(buf, static_cast<std::size_t>(n))) : "";
}

std::string interp_of(int fd, const Elf64_Ehdr& eh) {
  for (unsigned i = 0; i < eh.e_phnum; ++i) {
    Elf64_Phdr ph{};
    if (!read_at(fd, ph, eh.e_phoff + std::uint64_t{i} * eh.e_phentsize)) break;
    if (ph.p_type == PT_INTERP) return string_at(fd, ph.p_offset);
  }
  return "";
}

/// DT_NEEDED of the section of type SHT_DYNAMIC, through its string table.
std::vector<std::string> needed_of(int fd, const Elf64_Ehdr& eh) {
  std::vector<std::string> out;
  for (unsigned i = 0; i < eh.e_shnum; ++i) {
    Elf64_Shdr dyn{}, str{};
    if (!read_at(fd, dyn, eh.e_shoff + std::uint64_t{i} * eh.e_shentsize)) break;
    if (dyn.sh_type != SHT_DYNAMIC) continue;
    if (!read_at(fd, str, eh.e_shoff + std::uint64_t{dyn.sh_link} * eh.e_shentsize)) break;
    for (std::uint64_t k = 0; k < dyn.sh_size / sizeof(Elf64_Dyn); ++k) {
      Elf64_Dyn d{};
      if (!read_at(fd, d, dyn.sh_offset + k * sizeof d) || d.d_tag == DT_NULL) break;
      if (d.d_tag == DT_NEEDED) out.push_back(string_at(fd, str.sh_offset + d.d_un.d_val));
    }
  }
  return out;
}

void classify(elf_info& e) {
  e.is_static = e.is_elf && e.interp.empty();
  if (e.interp.find("ld-musl") != std::string::npos) e.libc = libc_impl::musl;
  if (e.interp.find("ld-linux") != std::string::npos) e.libc = libc_impl::glibc;
  for (const auto& n : e.needed) {
    if (n.rfind("libstdc++", 0) == 0) e.cxxlib = cxx_impl::libstdcxx;
    if (n.rfind("libc++.", 0) == 0) e.cxxlib = cxx_impl::libcxx;
  }
}

std::string real_path(const std::string& p) {
  char buf[PATH_MAX];
  return ::realpath(p.c_str(), buf) ? std::string(buf) : p;
}

std::string base_name(const std::string& p) { return p.substr(p.rfind('/') + 1); }

/// The runtime a program of this file name is: the name, or the name and a
/// version ("python3.11", "perl5.36.0", "nodejs"), not any name it starts
/// ("node_exporter" is no Node.js).
std::optional<lang> runtime_named(const std::string& name) {
  const std::pair<const char*, lang> known[] = {{"python", lang::python}, {"node", lang::node},
                                                {"nodejs", lang::node},   {"perl", lang::perl},
                                                {"ruby", lang::ruby},     {"java", lang::java}};
  for (const auto& [base, l] : known)
    if (name.rfind(base, 0) == 0 &&
        name.find_first_not_of("0123456789.", std::strlen(base)) == std::string::npos)
      return l;
  return std::nullopt;
}

bool is_shell(const std::string& name) {
  return name == "sh" || name == "dash" || name == "bash" || name == "zsh" || name == "ksh";
}

/// "#!/usr/bin/env python3 -u" -> {"/usr/bin/env", "python3"}: the
/// interpreter and its first argument; for env, its first word that is no
/// option or NAME=VALUE ("#!/usr/bin/env -S python3 -u").
std::pair<std::string, std::string> shebang(const std::string& path) {
  unique_fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  std::string line = fd ? string_at(fd.get(), 0) : "";
  if (line.rfind("#!", 0) != 0) return {};
  line = line.substr(2, line.find('\n') - 2);
  auto word = [&](std::size_t& at) {
    at = line.find_first_not_of(" \t", at);
    if (at == std::string::npos) return std::string();
    std::size_t end = line.find_first_of(" \t", at);
    std::string w = line.substr(at, end - at);
    at = end;
    return w;
  };
  std::size_t at = 0;
  std::string interp = word(at), arg = word(at);
  if (interp.ends_with("/env"))
    while (!arg.empty() && (arg[0] == '-' || arg.find('=') != std::string::npos)) arg = word(at);
  return {interp, arg};
}

}  // namespace

std::string elf_info::describe() const {
  if (!is_elf) return "not an ELF file";
  if (is_static) return "static";
  std::string out = std::string("dynamic, ") + to_string(libc);
  if (cxxlib != cxx_impl::none) out += std::string(", ") + to_string(cxxlib);
  return out;
}

std::optional<elf_info> read_elf(const std::string& path) {
  unique_fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  Elf64_Ehdr eh{};
  if (!fd || !read_at(fd.get(), eh, 0) || std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
      eh.e_ident[EI_CLASS] != ELFCLASS64)
    return std::nullopt;
  elf_info e;
  e.is_elf = true;
  e.interp = interp_of(fd.get(), eh);
  e.needed = needed_of(fd.get(), eh);
  classify(e);
  return e;
}

std::string program_kind::describe() const {
  std::string what = runtime ? std::string("a ") + display_name(*runtime) + " program"
                     : !interpreter.empty() && is_shell(base_name(interpreter)) ? "a shell script"
                     : !interpreter.empty() ? "a script for an interpreter flushcheck does not "
                                              "know (runtime not recognised)"
                                            : "an ELF program";
  what += interpreter.empty() ? ", " + real_path(path) : " run by " + interpreter;
  return what + " (" + elf.describe() + ")";
}

program_kind identify(const std::vector<std::string>& argv, const std::vector<std::string>& env) {
  program_kind k;
  k.path = resolve_program(argv.at(0), env);
  auto [interp, arg] = shebang(k.path);
  if (!interp.empty()) {
    if (base_name(interp) == "env" && !arg.empty()) interp = resolve_program(arg, env);
    k.interpreter = real_path(interp);
  }
  const std::string exe = k.interpreter.empty() ? real_path(k.path) : k.interpreter;
  k.runtime = runtime_named(base_name(exe));
  k.recognised = k.runtime || k.interpreter.empty() || is_shell(base_name(exe));
  k.elf = read_elf(exe).value_or(elf_info{});
  return k;
}

}  // namespace flushcheck
