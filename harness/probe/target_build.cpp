// Building a machine's targets with its own compilers (target_build.hpp).
#include "target_build.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <sstream>
#include <string_view>
#include <tuple>
#include <utility>

#include "clean_environment.hpp"
#include "error.hpp"
#include "input_file.hpp"
#include "retry_eintr.hpp"
#include "run.hpp"
#include "spawn.hpp"
#include "target_set.hpp"
#include "temporary.hpp"
#include "unique_fd.hpp"

namespace flushcheck {
namespace {

namespace fs = std::filesystem;

/// The compilers' environment: the caller's PATH, where its compilers are
/// (clean_environment()'s otherwise), and LANG=C.
std::vector<std::string> compile_environment() {
  for (const auto& v : current_environment())
    if (v.rfind("PATH=", 0) == 0) return {v, "LANG=C"};
  return clean_environment();
}

/// TEXT in PATH, a file made now (O_EXCL, O_NOFOLLOW: never through a file
/// or a link that was there) with MODE (less the umask).
void write_new_file(const std::string& path, std::string_view text, mode_t mode = 0666) {
  const unique_fd f = open_fd(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode);
  while (!text.empty()) {
    const ssize_t n = retry_eintr([&] { return ::write(f.get(), text.data(), text.size()); });
    if (n < 0) throw_errno("write " + path);
    text.remove_prefix(static_cast<std::size_t>(n));
  }
}

/// FROM's bytes and permissions in TO, a file made now (write_new_file).
void copy_to_new_file(const std::string& from, const std::string& to) {
  struct stat st {};
  const auto text = read_file(from);
  if (!text || ::stat(from.c_str(), &st) != 0) throw_errno("read " + from);
  write_new_file(to, *text, st.st_mode & 0777);
}

std::vector<std::string> words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

/// One compiler command of a set's build, run with a deadline; the first
/// line of what the compiler said when it fails.
struct compiler {
  std::string path;
  std::vector<std::string> flags;
  std::vector<std::string> env = {};  ///< added to compile_environment()

  std::string run_with(const std::vector<std::string>& args) const {
    run_options o;
    o.argv = {path};
    o.argv.insert(o.argv.end(), flags.begin(), flags.end());
    o.argv.insert(o.argv.end(), args.begin(), args.end());
    o.env = compile_environment();
    o.env.insert(o.env.end(), env.begin(), env.end());
    o.stderr_sink = sink_kind::pipe;
    o.timeout = std::chrono::minutes(2);
    const observation obs = run(o);
    if (obs.status == wait_status::exited(0)) return "";
    const std::string said = obs.err.data + obs.out.data;
    return fs::path(path).filename().string() + " " + obs.status.describe() + ": " +
           said.substr(0, said.find('\n'));
  }
};

/// The set's compilers resolved on PATH, or why not (in WHY).
std::optional<compiler> find_compiler(const std::string& name, const std::string& flags,
                                      const std::string& packages, std::string& why) {
  try {
    return compiler{resolve_program(name, compile_environment()), words(flags)};
  } catch (const spawn_error&) {
    why = name + " not found (install " + packages + ")";
    return std::nullopt;
  }
}

/// The script and bench targets of one set, built into DIR from SRC.
class set_build {
 public:
  set_build(const std::string& src, const std::string& dir, compiler cc,
            std::optional<compiler> cxx)
      : src_(src), dir_(dir), cc_(std::move(cc)), cxx_(std::move(cxx)) {}

  /// Every target of the set, "" if all built, else the first failure.
  std::string all(bool default_set) {
    std::string why =
        c_program("stdio_script", {"script/script.c", "script/fd_ops.c", "script/stdio_script.c"});
    if (why.empty()) why = c_program("bench_stdio", {"bench/bench_stdio.c", "bench/bench_line.c"});
    for (const char* b : {"bench_pipe", "bench_pagecache"})
      if (why.empty() && default_set)
        why = c_program(b, {"bench/" + std::string(b) + ".c", "bench/bench_line.c"});
    if (why.empty() && default_set)  // the C reference of `flushcheck workload check`
      why = c_program("stdio_driver", {"workload/stdio_driver.c"}, {"-D_POSIX_C_SOURCE=200809L"});
    if (why.empty() && cxx_)
      why = cxx_program("iostream_script", "script/iostream_script.cpp",
                        {"script/script.c", "script/fd_ops.c"});
    if (why.empty() && cxx_)
      why = cxx_program("bench_iostream", "bench/bench_iostream.cpp", {"bench/bench_line.c"});
    return why;
  }

  /// Removes what a set that failed had built: a half-built set is none.
  void discard() {
    for (const auto& p : built_) fs::remove(p);
  }

 private:
  /// -pthread: the script targets start threads, and before glibc 2.34
  /// (bullseye's 2.31) pthread_create is in libpthread, not libc.
  std::vector<std::string> includes() const {
    return {"-O2", "-pthread", "-I" + src_ + "/include", "-I" + src_ + "/script"};
  }

  /// OUT from SOURCES, C11 (with FLAGS: the workload helper's POSIX).
  std::string c_program(const std::string& out, const std::vector<std::string>& sources,
                        const std::vector<std::string>& flags = {}) {
    auto args = includes();
    args.push_back("-std=c11");
    args.insert(args.end(), flags.begin(), flags.end());
    for (const auto& s : sources) args.push_back(src_ + "/" + s);
    args.insert(args.end(), {"-o", dir_ + "/" + out});
    built_.push_back(dir_ + "/" + out);
    return cc_.run_with(args);
  }

  /// Where c_object puts the object of C source S.
  std::string object_of(const std::string& s) const {
    return dir_ + "/" + fs::path(s).stem().string() + ".o";
  }

  /// C source S compiled by the set's C compiler into object_of(S): "", or
  /// what the compiler said.
  std::string c_object(const std::string& s) const {
    auto c_args = includes();
    c_args.insert(c_args.end(), {"-std=c11", "-c", src_ + "/" + s, "-o", object_of(s)});
    return cc_.run_with(c_args);
  }

  /// MAIN in C++, linked with the C SOURCES compiled by the set's C compiler.
  std::string cxx_program(const std::string& out, const std::string& main,
                          const std::vector<std::string>& c_sources) {
    auto args = includes();
    args.insert(args.end(), {"-std=c++20", src_ + "/" + main});
    for (const auto& s : c_sources) {
      if (auto why = c_object(s); !why.empty()) return why;
      args.push_back(object_of(s));
    }
    args.insert(args.end(), {"-o", dir_ + "/" + out});
    built_.push_back(dir_ + "/" + out);
    const std::string why = cxx_->run_with(args);
    for (const auto& s : c_sources) fs::remove(object_of(s));
    return why;
  }

  std::string src_, dir_;
  compiler cc_;
  std::optional<compiler> cxx_;
  std::vector<std::string> built_;
};

/// Why the set built in DIR is not what R names: its targets report another
/// C library than R's libc ("" when they report it, or R names none).
std::string wrong_libc(const set_recipe& r, const std::string& dir) {
  if (!r.libc) return "";
  const auto built = probe_target_dir(r.name, dir);
  const libc_impl got = built ? built->profile.libc : libc_impl::unknown;
  if (got == *r.libc) return "";
  return r.cc + " " + r.cflags + " does not link " + to_string(*r.libc) + ": its targets report " +
         to_string(got);
}

/// Where set NAME's targets are under ROOT: ROOT itself for the default set.
std::string set_dir(const std::string& root, const std::string& name) {
  return name == "default" ? root : root + "/" + name;
}

/// R's set built with CC and CXX into its directory under INTO: there, or
/// skipped with why (and what it had built removed).
set_outcome build_set(const std::string& sources, const std::string& into, const set_recipe& r,
                      const compiler& cc, const std::optional<compiler>& cxx) {
  set_outcome out{r.name, "", ""};
  const std::string dir = set_dir(into, r.name);
  fs::create_directory(dir);
  set_build build(sources, dir, cc, cxx);
  const std::string failed = build.all(r.name == "default");
  out.skipped = failed.empty() ? wrong_libc(r, dir)
                               : "did not build (it needs " + r.packages + "): " + failed;
  if (out.skipped.empty())
    out.dir = dir;
  else
    build.discard();
  return out;
}

set_outcome build_one(const std::string& sources, const std::string& into, set_recipe r) {
  set_outcome out{r.name, "", ""};
  const std::string musl = r.names_musl_release ? musl_loader_version() : "";
  if (!musl.empty()) r.cflags += " -DFC_LIBC_VERSION=" + musl;
  auto cc = find_compiler(r.cc, r.cflags, r.packages, out.skipped);
  std::optional<compiler> cxx;
  if (cc && !r.cxx.empty()) cxx = find_compiler(r.cxx, r.cxxflags, r.packages, out.skipped);
  if (!out.skipped.empty()) return out;
  return build_set(sources, into, r, *cc, cxx);
}

/// rustc's version ("1.63.0"), which script.rs prints for --version (Rust
/// has no run-time version).
std::string rustc_version(const compiler& rustc) {
  run_options o;
  o.argv = {rustc.path, "--version"};
  o.env = compile_environment();
  const std::string said = run(o).out.data;
  const auto at = said.find_first_of("0123456789");
  return at == std::string::npos ? "unknown" : said.substr(at, said.find(' ', at) - at);
}

/// TARGET's compiler said WHY it did not build it: kept beside it, in
/// TARGET.why, where the language table's lookup reads it (an older javac
/// or rustc than the scripts need says so, not "not built"). The build's
/// directory is new: no reason of an earlier build is there.
void keep_why(const std::string& target, const std::string& why) {
  if (!why.empty()) write_new_file(target + ".why", why + "\n");
}

/// The Go target, with GO, in a build cache of its own under OUT (removed
/// after); its GOPATH is the Go workload helper's tree in SRC, whose
/// flushcheck/marker it imports.
void compile_go(compiler go, const std::string& src, const std::string& out) {
  go.env = {"GOCACHE=" + out + "/gocache", "GOPATH=" + src + "/go", "GO111MODULE=off", "GOFLAGS="};
  keep_why(out + "/go_script",
           go.run_with({"build", "-o", out + "/go_script", src + "/script.go"}));
  fs::remove_all(out + "/gocache");
}

/// The Rust target, with RUSTC, told rustc's version.
void compile_rust(compiler rustc, const std::string& src, const std::string& out) {
  rustc.env = {"FLUSHCHECK_RUSTC_VERSION=" + rustc_version(rustc)};
  keep_why(out + "/rust_script", rustc.run_with({"-o", out + "/rust_script", src + "/script.rs"}));
}

/// The compiled runtimes' targets (Java, Go, Rust), as
/// targets/runtimes/CMakeLists.txt builds them, where their compiler is on
/// PATH; a runtime that does not build is one the matrix skips, saying why.
void compile_runtimes(const std::string& src, const std::string& out) {
  std::string why;
  if (auto javac = find_compiler("javac", "-Xlint:all -Werror", "", why))
    keep_why(out + "/java", javac->run_with({"-d", out + "/java", src + "/Script.java"}));
  if (auto go = find_compiler("go", "", "", why)) compile_go(*go, src, out);
  if (auto rustc =
          find_compiler("rustc", "-O -C strip=debuginfo --edition 2021 -D warnings", "", why))
    compile_rust(*rustc, src, out);
}

/// The runtimes' scripts (targets/runtimes) copied and their compiled
/// targets built, in INTO/runtimes, where the language table looks.
void build_runtimes(const std::string& sources, const std::string& into) {
  const std::string out = into + "/runtimes";
  fs::create_directory(out);
  for (const auto& e : fs::directory_iterator(sources + "/runtimes")) {
    const auto ext = e.path().extension().string();
    if (e.is_regular_file() &&
        (ext == ".py" || ext == ".js" || ext == ".pl" || ext == ".rb" || ext == ".pm"))
      copy_to_new_file(e.path().string(), out + "/" + e.path().filename().string());
  }
  compile_runtimes(sources + "/runtimes", out);
}

void write_skipped(const std::string& into, const std::vector<set_outcome>& outcomes) {
  std::string text;
  for (const auto& o : outcomes)
    if (!o.skipped.empty()) text += o.name + '\t' + o.skipped + '\n';
  write_new_file(into + "/skipped-sets.txt", text);
}

/// "musl-gcc -O1" -> {"musl-gcc", "-O1"}: a compiler variable's program and flags.
std::pair<std::string, std::string> program_and_flags(const std::string& value) {
  auto w = words(value);
  std::string flags;
  for (std::size_t i = 1; i < w.size(); ++i) flags += (i > 1 ? " " : "") + w[i];
  return {w.empty() ? "" : w.front(), flags};
}

/// Is the variable NAME set to blanks only (not empty)?
bool blank(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' && words(v).empty();
}

/// The default set: cc and c++, or $CC and $CXX where set, as make and
/// CMake take them (CXX set and empty: the set is C only). A blank CC is
/// no compiler: cc (`targets build` refuses it, check_compiler_variables).
set_recipe default_recipe() {
  set_recipe r{"default", "cc", "", "c++", "", "gcc and g++"};
  const char* cc = std::getenv("CC");
  const char* cxx = std::getenv("CXX");
  const bool cc_names_one = cc != nullptr && !words(cc).empty();
  if (cc_names_one) std::tie(r.cc, r.cflags) = program_and_flags(cc);
  if (cxx) std::tie(r.cxx, r.cxxflags) = program_and_flags(cxx);
  if (cc_names_one || cxx) r.packages = "what brings the compilers CC and CXX name";
  return r;
}

}  // namespace

std::vector<set_recipe> set_recipes() {
  return {
      default_recipe(),
      {"musl", "musl-gcc", "-static -DFC_LIBC_NAME=musl", "", "", "musl-tools", true},
      {"clang-libcxx", "clang", "", "clang++", "-stdlib=libc++",
       "clang, libc++-dev and libc++abi-dev"},
      {"clang-libstdcxx", "clang", "", "clang++", "", "clang"},
      {"glibc-static", "cc", "-static", "c++", "-static", "libc6-dev", false, libc_impl::glibc},
  };
}

namespace {

/// DEST, which a build replaces whole, refused (usage_error naming it as
/// SHOWN) unless it is not there, or is a directory of the caller's own,
/// not a link, that is empty or holds a build (its stamp.txt).
void refuse_what_a_build_may_not_replace(const std::string& dest, const std::string& shown) {
  check_own_directory(dest, shown);
  struct stat st {};
  std::error_code ec;
  if (::lstat(dest.c_str(), &st) == 0 && !fs::is_empty(dest, ec) &&
      ::lstat((dest + "/stamp.txt").c_str(), &st) != 0)
    throw usage_error(shown + ": holds what a build did not make (no stamp.txt), and a " +
                      "build replaces the whole directory");
}

/// INTO, absolute, where the build goes; its parent made if missing. Both
/// checked before anything is built.
std::string build_destination(const std::string& into) {
  fs::path dest = fs::absolute(into).lexically_normal();
  if (!dest.has_filename()) dest = dest.parent_path();  // "DIR/"
  if (dest == dest.root_path()) throw usage_error(into + ": the root directory");
  std::error_code ec;
  fs::create_directories(dest.parent_path(), ec);
  if (ec) throw_error(ec, "create " + dest.parent_path().string());
  check_build_parent(dest.parent_path().string());
  refuse_what_a_build_may_not_replace(dest.string(), into);
  return dest.string();
}

/// PATH made a directory others may read (0777 less the umask): mkdtemp
/// made it the caller's alone.
void give_new_directory_mode(const std::string& path) {
  const mode_t mask = ::umask(0);
  ::umask(mask);
  if (::chmod(path.c_str(), 0777 & ~mask) != 0) throw_errno("chmod " + path);
}

/// No RENAME_EXCHANGE on DEST's file system: the old build goes first, into
/// a fresh directory of its own, and is removed with it.
void move_aside(const std::string& dest) {
  const temporary_directory old(dest + ".old-");
  if (::rename(dest.c_str(), old.path().c_str()) != 0 && errno != ENOENT)
    throw_errno("rename " + dest + " to " + old.path());
}

/// BUILT, a directory of this build's own, put at DEST in one rename: a
/// reader sees the old build or the new, whole. A DEST there already (a
/// build of before, or of another flushcheck that finished first) is
/// exchanged with it, and is then at BUILT's path, which its
/// temporary_directory removes: the last build to finish stays.
void put_in_place(const std::string& built, const std::string& dest) {
  give_new_directory_mode(built);
  // Each rename while the list of temporaries is open: an interrupt (its
  // compilers killed, its sets "skipped") never puts its build in place.
  const auto open_rename = [&](unsigned flags) {
    int rc = -1, error = 0;
    while_temporaries_open([&] {
      rc = ::renameat2(AT_FDCWD, built.c_str(), AT_FDCWD, dest.c_str(), flags);
      error = errno;
    });
    errno = error;
    return rc == 0;
  };
  for (int tries = 0; tries < 100; ++tries) {
    if (open_rename(0)) return;  // none there, or empty
    if (errno != EEXIST && errno != ENOTEMPTY) throw_errno("rename " + built + " to " + dest);
    if (open_rename(RENAME_EXCHANGE)) return;
    if (errno == EINVAL || errno == ENOSYS)
      move_aside(dest);
    else if (errno != ENOENT)  // ENOENT: another build moved it aside meanwhile
      throw_errno("exchange " + built + " with " + dest);
  }
  throw_error(std::make_error_code(std::errc::device_or_resource_busy), "rename to " + dest);
}

/// Each of SETS, and the runtimes, built in DIR, a directory of this build's own.
std::vector<set_outcome> build_in(const std::string& sources, const std::string& dir,
                                  const std::vector<set_recipe>& sets, bool runtimes) {
  std::vector<set_outcome> outcomes;
  for (const auto& r : sets) outcomes.push_back(build_one(sources, dir, r));
  if (runtimes) build_runtimes(sources, dir);
  write_skipped(dir, outcomes);
  write_new_file(dir + "/stamp.txt", toolchain_stamp());
  return outcomes;
}

}  // namespace

std::vector<set_outcome> build_target_sets(const std::string& sources, const std::string& into,
                                           const std::vector<set_recipe>& sets, bool runtimes) {
  if (::access((sources + "/script/stdio_script.c").c_str(), R_OK) != 0)
    throw usage_error(sources + " holds no targets' sources (script/stdio_script.c)");
  const std::string dest = build_destination(into);
  // Built beside it, in a directory no one else writes (removed unless it
  // is renamed), then renamed into place: nothing is written in DEST.
  const temporary_directory building(dest + ".building-");
  auto outcomes = build_in(sources, building.path(), sets, runtimes);
  put_in_place(building.path(), dest);
  for (auto& o : outcomes)
    if (o.skipped.empty()) o.dir = set_dir(into, o.name);
  return outcomes;
}

void check_build_parent(const std::string& parent) {
  struct stat st {};
  if (::stat(parent.c_str(), &st) != 0) throw_errno("stat " + parent);
  if (st.st_uid != ::geteuid() && st.st_uid != 0)
    throw usage_error(parent + ": owned by uid " + std::to_string(st.st_uid) +
                      ", not by the caller or root (the targets are built in it and renamed)");
  if ((st.st_mode & (S_IWOTH | S_IWGRP)) != 0 && (st.st_mode & S_ISVTX) == 0)
    throw usage_error(parent + ": " + ((st.st_mode & S_IWOTH) != 0 ? "anyone" : "its group") +
                      " may rename what is in it (not sticky, as /tmp is)");
}

void check_own_directory(const std::string& dir, const std::string& shown) {
  struct stat st {};
  if (::lstat(dir.c_str(), &st) != 0) {
    if (errno == ENOENT) return;
    throw_errno("lstat " + dir);
  }
  if (S_ISLNK(st.st_mode)) throw usage_error(shown + ": a symbolic link, not a directory");
  if (!S_ISDIR(st.st_mode)) throw usage_error(shown + ": not a directory");
  if (st.st_uid != ::geteuid())
    throw usage_error(shown + ": owned by uid " + std::to_string(st.st_uid) +
                      ", not by the caller (uid " + std::to_string(::geteuid()) + ")");
}

void check_compiler_variables() {
  if (blank("CC")) throw usage_error("CC is blank: unset it or name a compiler");
  if (blank("CXX"))
    throw usage_error("CXX is blank: unset it, name a compiler, or set it empty (a C-only set)");
}

std::string set_names() {
  std::string known;
  for (const auto& x : set_recipes()) known += (known.empty() ? "" : ", ") + x.name;
  return known;
}

std::vector<set_recipe> set_recipes(const std::vector<std::string>& names) {
  const auto all = set_recipes();
  std::vector<set_recipe> chosen;
  for (const auto& n : names) {
    const auto r = std::find_if(all.begin(), all.end(), [&](const auto& x) { return x.name == n; });
    if (r == all.end()) throw usage_error(n + ": no such toolchain set (" + set_names() + ")");
    chosen.push_back(*r);
  }
  return chosen;
}

namespace {

/// The compilers RECIPES name, each once, in order.
std::vector<std::string> compiler_names(const std::vector<set_recipe>& recipes) {
  std::vector<std::string> names;
  for (const auto& r : recipes)
    for (const auto& c : {r.cc, r.cxx})
      if (!c.empty() && std::find(names.begin(), names.end(), c) == names.end()) names.push_back(c);
  return names;
}

/// "NAME: the first line of its --version\n", or "" when NAME is not on PATH.
std::string version_stamp(const std::string& name) {
  std::string why;
  auto c = find_compiler(name, "", "", why);
  if (!c) return "";
  run_options o;
  o.argv = {c->path, "--version"};
  o.env = compile_environment();
  const std::string said = run(o).out.data;
  return name + ": " + said.substr(0, said.find('\n')) + "\n";
}

/// "LOADER: SIZE bytes, mtime TIME\n" of each dynamic loader there is.
std::string loader_stamps() {
  std::string stamps;
  for (const char* loader : {"/lib64/ld-linux-x86-64.so.2", "/lib/ld-musl-x86_64.so.1"}) {
    struct stat st {};
    if (::stat(loader, &st) == 0)
      stamps += std::string(loader) + ": " + std::to_string(st.st_size) + " bytes, mtime " +
                std::to_string(st.st_mtime) + "\n";
  }
  return stamps;
}

}  // namespace

std::string toolchain_stamp() {
  const auto recipes = set_recipes();
  const set_recipe& d = recipes.front();
  std::string stamp = "default: " + d.cc + " " + d.cflags + " / " + d.cxx + " " + d.cxxflags + "\n";
  for (const auto& name : compiler_names(recipes)) stamp += version_stamp(name);
  return stamp + loader_stamps();
}

}  // namespace flushcheck
