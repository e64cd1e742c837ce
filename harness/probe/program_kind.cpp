// What a program is: its ELF headers (glibc's <elf.h>: PT_INTERP and the
// DT_NEEDED of the dynamic section), or its `#!` line and the interpreter
// it names.
#include "program_kind.hpp"

#include <elf.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "languages.hpp"
#include "spawn.hpp"
#include "unique_fd.hpp"

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
  for (const auto& f : language_table())
    for (const auto& base : f.programs)
      if (name.rfind(base, 0) == 0 &&
          name.find_first_not_of("0123456789.", base.size()) == std::string::npos)
        return f.language;
  return std::nullopt;
}

bool is_shell(const std::string& name) {
  return name == "sh" || name == "dash" || name == "bash" || name == "zsh" || name == "ksh";
}

/// A script's `#!` line: the interpreter, the program env runs (for
/// "#!/usr/bin/env NAME"), and the arguments that come before the script.
struct shebang_line {
  std::string interp;
  std::string program;            ///< env's NAME, "" for another interpreter
  std::vector<std::string> args;  ///< what the interpreter (or NAME) gets before the script
};

std::vector<std::string> words(const std::string& line, std::size_t at) {
  std::vector<std::string> out;
  while ((at = line.find_first_not_of(" \t", at)) != std::string::npos) {
    std::size_t end = line.find_first_of(" \t", at);
    out.push_back(line.substr(at, end - at));
    at = end;
  }
  return out;
}

/// The `#!` LINE (without "#!") of interpreter INTERP, its first word: the
/// rest of the line, trimmed at its end, is one argument.
shebang_line interpreter_line(const std::string& line, const std::string& interp) {
  shebang_line s{interp, "", {}};
  const std::size_t rest = line.find_first_not_of(" \t", line.find(interp) + interp.size());
  std::string arg = rest == std::string::npos ? "" : line.substr(rest);
  while (!arg.empty() && (arg.back() == ' ' || arg.back() == '\t')) arg.pop_back();
  if (!arg.empty()) s.args.push_back(arg);
  return s;
}

/// The `#!` line of env, as words W (W[0] is env): the program, and with -S
/// the words after it.
shebang_line env_line(const std::vector<std::string>& w) {
  shebang_line s{w[0], "", {}};
  const bool split = std::find(w.begin(), w.end(), "-S") != w.end();
  std::size_t i = 1;
  while (i < w.size() && (w[i][0] == '-' || w[i].find('=') != std::string::npos)) ++i;
  if (i < w.size()) s.program = w[i];
  if (split)
    s.args.assign(w.begin() + static_cast<std::ptrdiff_t>(std::min(i + 1, w.size())), w.end());
  return s;
}

/// "#!/usr/bin/awk -f" -> {"/usr/bin/awk", "", {"-f"}} (Linux passes the
/// rest of the line as one argument); "#!/usr/bin/env -S python3 -u" ->
/// {"/usr/bin/env", "python3", {"-u"}} (env -S splits it; without -S the
/// first word that is no option or NAME=VALUE is the program, the rest
/// would be part of its name and is left out).
shebang_line shebang(const std::string& path) {
  unique_fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  std::string line = fd ? string_at(fd.get(), 0) : "";
  if (line.rfind("#!", 0) != 0) return {};
  line = line.substr(2, line.find('\n') - 2);
  std::vector<std::string> w = words(line, 0);
  if (w.empty()) return {};
  if (!w[0].ends_with("/env")) return interpreter_line(line, w[0]);
  return env_line(w);
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

namespace {

/// K's interpreter, as a script's `#!` LINE names it: env's program
/// resolved on ENV's PATH, the interpreter as named, its arguments.
void set_interpreter(program_kind& k, const shebang_line& line,
                     const std::vector<std::string>& env) {
  std::string interp = line.interp;
  if (base_name(interp) == "env" && !line.program.empty())
    interp = resolve_program(line.program, env);
  k.interpreter = real_path(interp);
  k.interpreter_named = interp;
  k.interpreter_args = line.args;
}

}  // namespace

program_kind identify(const std::vector<std::string>& argv, const std::vector<std::string>& env) {
  program_kind k;
  k.path = resolve_program(argv.at(0), env);
  auto line = shebang(k.path);
  if (!line.interp.empty()) set_interpreter(k, line, env);
  const std::string exe = k.interpreter.empty() ? real_path(k.path) : k.interpreter;
  k.runtime = runtime_named(base_name(exe));
  k.recognised = k.runtime || k.interpreter.empty() || is_shell(base_name(exe));
  k.elf = read_elf(exe).value_or(elf_info{});
  return k;
}

}  // namespace flushcheck

namespace flushcheck {

std::string program_kind::name() const {
  return base_name(interpreter.empty() ? real_path(path) : interpreter);
}

bool program_kind::is_native() const {
  return interpreter.empty() && elf.is_elf && !runtime && !is_shell(name());
}

namespace {

/// Another runtime, or a native program that is no shell, starts no L.
bool may_run(const program_kind* kind, lang l) {
  return kind == nullptr || (!kind->is_native() && (!kind->runtime || kind->runtime == l));
}

/// The variables that change buffering whatever the language: name, what it does.
const std::pair<const char*, const char*> k_other_variables[] = {
    {"_STDBUF_I", "stdbuf(1) changes stdin buffering through libstdbuf (LD_PRELOAD)"},
    {"_STDBUF_O", "stdbuf(1) changes stdout buffering through libstdbuf (LD_PRELOAD)"},
    {"_STDBUF_E", "stdbuf(1) changes stderr buffering through libstdbuf (LD_PRELOAD)"},
    {"LD_PRELOAD", "a preloaded library may replace stdio or write(2)"},
    {"LD_LIBRARY_PATH", "another C or C++ library may be loaded than the one you expect"},
    {"GLOG_logbuflevel", "glog buffers records up to this level"},
    {"GLOG_logbufsecs", "glog flushes its buffered records this often"},
    {"GLOG_logtostderr", "glog writes to stderr instead of files"},
    {"GLOG_alsologtostderr", "glog also writes to stderr"},
    {"SPDLOG_LEVEL", "spdlog's level (and so what is written) comes from the environment"},
};

}  // namespace

std::vector<buffering_variable> buffering_variables() {
  std::vector<buffering_variable> out;
  for (const auto& f : language_table())
    for (const auto& s : f.switches)
      if (s.note != nullptr) out.push_back({s.env.substr(0, s.env.find('=')), s.note, f.language});
  for (const auto& [name, what] : k_other_variables) out.push_back({name, what, std::nullopt});
  return out;
}

std::vector<std::string> buffering_notes(const std::vector<std::string>& env,
                                         const program_kind* kind) {
  static const std::vector<buffering_variable> variables = buffering_variables();
  std::vector<std::string> notes;
  for (const auto& kv : env) {
    const std::string name = kv.substr(0, kv.find('='));
    for (const auto& v : variables)
      if (name == v.name && (!v.only || may_run(kind, *v.only)))
        notes.push_back(kv + ": " + v.what);
  }
  return notes;
}

}  // namespace flushcheck
