// Building a machine's targets with its own compilers (target_build.hpp).
#include "target_build.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <tuple>
#include <utility>

#include "clean_environment.hpp"
#include "error.hpp"
#include "run.hpp"
#include "spawn.hpp"
#include "target_set.hpp"

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

  std::string c_program(const std::string& out, const std::vector<std::string>& sources) {
    auto args = includes();
    args.push_back("-std=c11");
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

/// R's set built with CC and CXX into its directory under INTO: there, or
/// skipped with why (and what it had built removed).
set_outcome build_set(const std::string& sources, const std::string& into, const set_recipe& r,
                      const compiler& cc, const std::optional<compiler>& cxx) {
  set_outcome out{r.name, "", ""};
  const std::string dir = r.name == "default" ? into : into + "/" + r.name;
  fs::create_directories(dir);
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
/// or rustc than the scripts need says so, not "not built"). A build that
/// worked leaves no reason of an earlier one.
void keep_why(const std::string& target, const std::string& why) {
  if (why.empty())
    fs::remove(target + ".why");
  else
    std::ofstream(target + ".why", std::ios::trunc) << why << '\n';
}

/// The Go target, with GO, in a build cache and GOPATH of its own under OUT
/// (removed after).
void compile_go(compiler go, const std::string& src, const std::string& out) {
  go.env = {"GOCACHE=" + out + "/gocache", "GOPATH=" + out + "/gopath", "GO111MODULE=off",
            "GOFLAGS="};
  keep_why(out + "/go_script",
           go.run_with({"build", "-o", out + "/go_script", src + "/script.go"}));
  fs::remove_all(out + "/gocache");
  fs::remove_all(out + "/gopath");
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
  fs::create_directories(out);
  for (const auto& e : fs::directory_iterator(sources + "/runtimes")) {
    const auto ext = e.path().extension().string();
    if (e.is_regular_file() &&
        (ext == ".py" || ext == ".js" || ext == ".pl" || ext == ".rb" || ext == ".pm"))
      fs::copy_file(e.path(), out + "/" + e.path().filename().string(),
                    fs::copy_options::overwrite_existing);
  }
  compile_runtimes(sources + "/runtimes", out);
}

void write_skipped(const std::string& into, const std::vector<set_outcome>& outcomes) {
  std::ofstream f(into + "/skipped-sets.txt", std::ios::trunc);
  for (const auto& o : outcomes)
    if (!o.skipped.empty()) f << o.name << '\t' << o.skipped << '\n';
  if (!f) throw_errno("write " + into + "/skipped-sets.txt");
}

/// "musl-gcc -O1" -> {"musl-gcc", "-O1"}: a compiler variable's program and flags.
std::pair<std::string, std::string> program_and_flags(const std::string& value) {
  auto w = words(value);
  std::string flags;
  for (std::size_t i = 1; i < w.size(); ++i) flags += (i > 1 ? " " : "") + w[i];
  return {w.empty() ? "" : w.front(), flags};
}

/// The default set: cc and c++, or $CC and $CXX where set, as make and
/// CMake take them (CXX set and empty: the set is C only).
set_recipe default_recipe() {
  set_recipe r{"default", "cc", "", "c++", "", "gcc and g++"};
  const char* cc = std::getenv("CC");
  const char* cxx = std::getenv("CXX");
  if (cc && *cc) std::tie(r.cc, r.cflags) = program_and_flags(cc);
  if (cxx) std::tie(r.cxx, r.cxxflags) = program_and_flags(cxx);
  if ((cc && *cc) || cxx) r.packages = "what brings the compilers CC and CXX name";
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

std::vector<set_outcome> build_target_sets(const std::string& sources, const std::string& into,
                                           const std::vector<set_recipe>& sets, bool runtimes) {
  if (::access((sources + "/script/stdio_script.c").c_str(), R_OK) != 0)
    throw usage_error(sources + " holds no targets' sources (script/stdio_script.c)");
  std::error_code ec;
  fs::create_directories(into, ec);
  if (ec) throw_error(ec, "create " + into);
  std::vector<set_outcome> outcomes;
  for (const auto& r : sets) outcomes.push_back(build_one(sources, into, r));
  if (runtimes) build_runtimes(sources, into);
  write_skipped(into, outcomes);
  std::ofstream(into + "/stamp.txt", std::ios::trunc) << toolchain_stamp();
  return outcomes;
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
