// Probing a toolchain's targets for the libraries they were built with.
#include "target_set.hpp"

#include <dirent.h>
#include <unistd.h>

#include <algorithm>
#include <sstream>
#include <utility>

#include "input_file.hpp"
#include "program_kind.hpp"
#include "run.hpp"

namespace flushcheck {

namespace {

// "libc=glibc 2.36" -> {"glibc", "glibc 2.36"}
std::pair<std::string, std::string> field(const std::string& out, const std::string& key) {
  auto at = out.find(key + "=");
  if (at == std::string::npos) return {"unknown", ""};
  auto end = out.find('\n', at);
  std::string value = out.substr(at + key.size() + 1, end - at - key.size() - 1);
  return {value.substr(0, value.find(' ')), value};
}

std::string version_output(const std::string& target) {
  run_options o;
  o.argv = {target, "--version"};
  o.env = clean_environment();
  return run(o).out.data;
}

/// "libc=unknown" of a target linked dynamically against musl: the name and
/// version of the musl its loader is, else unchanged.
std::pair<std::string, std::string> musl_by_loader(const std::string& target,
                                                   std::pair<std::string, std::string> said) {
  if (said.first != "unknown") return said;
  const auto elf = read_elf(target);
  if (!elf || elf->libc != libc_impl::musl) return said;
  const std::string version = musl_loader_version(elf->interp);
  return {"musl", version.empty() ? "musl" : "musl " + version};
}

}  // namespace

std::string musl_loader_version(const std::string& loader) {
  run_options o;
  o.argv = {loader};
  o.env = clean_environment();
  o.stderr_sink = sink_kind::pipe;
  if (::access(loader.c_str(), X_OK) != 0) return "";
  const std::string text = run(o).err.data;
  const auto at = text.find("Version ");
  if (at == std::string::npos) return "";
  const auto end = text.find_first_not_of("0123456789.", at + 8);
  return text.substr(at + 8, end == std::string::npos ? std::string::npos : end - at - 8);
}

const runtime_target* target_set::runtime(lang l) const {
  for (const auto& r : runtimes)
    if (r.language == l) return &r;
  return nullptr;
}

bool target_set::has(lang l) const {
  switch (l) {
    case lang::c: return !stdio_script.empty();
    case lang::cxx: return !iostream_script.empty();
    default: return runtime(l) != nullptr;
  }
}

namespace {

/// The C library STDIO_SCRIPT reports (or its loader, for musl), into P.
void probe_libc(impl_profile& p, const std::string& stdio_script) {
  auto [libc, libc_version] =
      musl_by_loader(stdio_script, field(version_output(stdio_script), "libc"));
  p.libc = parse_libc(libc);
  p.version = libc_version;
  const auto space = libc_version.find(' ');  // "glibc 2.36"
  if (space != std::string::npos)
    p.libc_release = parse_lib_version(std::string_view(libc_version).substr(space + 1));
}

/// The C++ library IOSTREAM_SCRIPT reports, into P (after its C library).
void probe_cxxlib(impl_profile& p, const std::string& iostream_script) {
  auto [cxx, cxx_version] = field(version_output(iostream_script), "cxxlib");
  p.cxxlib = parse_cxxlib(cxx);
  const auto at = cxx_version.find(' ');  // "libstdc++ 14 (20250315)", "libc++ 19.1.7"
  if (at != std::string::npos)
    p.cxx_release = parse_lib_version(std::string_view(cxx_version).substr(at + 1));
  p.version += ", " + cxx_version;
}

}  // namespace

target_set probe_target_set(std::string name, std::string stdio_script,
                            std::string iostream_script) {
  target_set set{std::move(name), std::move(stdio_script), std::move(iostream_script), {}, {}};
  probe_libc(set.profile, set.stdio_script);
  set.profile.cxxlib = cxx_impl::none;
  if (!set.iostream_script.empty()) probe_cxxlib(set.profile, set.iostream_script);
  return set;
}

std::optional<target_set> probe_target_dir(std::string name, const std::string& dir) {
  std::string c = dir + "/stdio_script", cxx = dir + "/iostream_script";
  if (::access(c.c_str(), X_OK) != 0) return std::nullopt;
  if (::access(cxx.c_str(), X_OK) != 0) cxx.clear();
  return probe_target_set(std::move(name), c, cxx);
}

namespace {

/// The entries of DIR that may be other sets, sorted: no dot files, not
/// CMakeFiles.
std::vector<std::string> other_set_names(const std::string& dir) {
  std::vector<std::string> names;
  if (DIR* d = ::opendir(dir.c_str())) {
    while (dirent* e = ::readdir(d))
      if (e->d_name[0] != '.' && std::string(e->d_name) != "CMakeFiles") names.push_back(e->d_name);
    ::closedir(d);
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

std::vector<target_set> discover_target_sets(const std::string& dir) {
  std::vector<target_set> sets;
  auto add = [&](const std::string& name, const std::string& d) {
    if (auto set = probe_target_dir(name, d)) sets.push_back(std::move(*set));
  };
  add("default", dir);
  for (const auto& n : other_set_names(dir)) add(n, dir + "/" + n);
  return sets;
}

std::vector<std::pair<std::string, std::string>> skipped_target_sets(const std::string& dir) {
  std::vector<std::pair<std::string, std::string>> skipped;
  std::istringstream in(read_file(dir + "/skipped-sets.txt").value_or(""));
  std::string line;
  while (std::getline(in, line)) {
    const auto tab = line.find('\t');
    if (tab != std::string::npos && tab > 0)
      skipped.emplace_back(line.substr(0, tab), line.substr(tab + 1));
  }
  return skipped;
}

}  // namespace flushcheck
