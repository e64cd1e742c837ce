// A machine's targets built with its own compilers (target_build.hpp), as a
// portable flushcheck builds them: from the tree targets/ of this checkout,
// into a fresh directory, with the compilers on this machine's PATH.
#include "target_build.hpp"

#include <gtest/gtest.h>
#include <pwd.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <future>

#include "cli_runner.hpp"
#include "error.hpp"
#include "program_kind.hpp"
#include "runtime_target.hpp"
#include "target_set.hpp"
#include "test_targets.hpp"

namespace flushcheck {
namespace {

namespace fs = std::filesystem;

const std::string k_sources = std::string(FLUSHCHECK_SOURCE_DIR) + "/targets";

std::string read(const std::string& path) {
  std::ifstream f(path);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

const set_recipe& recipe(const std::vector<set_recipe>& all, const std::string& name) {
  for (const auto& r : all)
    if (r.name == name) return r;
  throw std::runtime_error("no recipe " + name);
}

// The default set built here reports the same C and C++ libraries as the
// build tree's, which CMake built from the same sources.
TEST(target_build, the_default_set_is_the_build_trees) {
  const std::string into = test_path("into");
  const auto all = set_recipes();
  const auto out = build_target_sets(k_sources, into, {recipe(all, "default")});
  ASSERT_EQ(out.size(), 1U);
  ASSERT_EQ(out[0].skipped, "") << out[0].skipped;
  EXPECT_EQ(out[0].dir, into);
  const auto built = probe_target_dir("default", into);
  ASSERT_TRUE(built.has_value());
  EXPECT_EQ(built->profile.version, test_target_set().profile.version);
  EXPECT_FALSE(built->iostream_script.empty());
  for (const char* b : {"bench_stdio", "bench_iostream", "bench_pipe", "bench_pagecache"})
    EXPECT_EQ(::access((into + "/" + b).c_str(), X_OK), 0) << b;
  EXPECT_EQ(::access((into + "/runtimes/script.py").c_str(), R_OK), 0);
  // the compiled runtimes' targets, where their compiler is (ci/setup installs them)
  for (const auto& [tool, target] :
       {std::pair{"javac", "java/Script.class"}, std::pair{"go", "go_script"},
        std::pair{"rustc", "rust_script"}})
    if (::access((std::string("/usr/bin/") + tool).c_str(), X_OK) == 0) {
      EXPECT_EQ(::access((into + "/runtimes/" + target).c_str(), R_OK), 0) << target;
    }
  EXPECT_FALSE(fs::exists(into + "/runtimes/gocache"));
  EXPECT_NE(read(into + "/stamp.txt").find("cc: "), std::string::npos);
}

// musl-gcc is on this machine (ci/setup installs musl-tools): its set is C
// only, static, and says it is musl with the version its loader gives.
TEST(target_build, the_musl_set_reports_musl) {
  const std::string into = test_path("into");
  const auto all = set_recipes();
  const auto& musl = recipe(all, "musl");
  if (::access("/usr/bin/musl-gcc", X_OK) != 0) GTEST_SKIP() << "no musl-gcc (musl-tools)";
  const auto out = build_target_sets(k_sources, into, {musl});
  ASSERT_EQ(out[0].skipped, "") << out[0].skipped;
  const auto built = probe_target_dir("musl", into + "/musl");
  ASSERT_TRUE(built.has_value());
  EXPECT_EQ(built->profile.version.rfind("musl", 0), 0U) << built->profile.version;
  // The release its loader prints, compiled in when the set is built (the
  // recipe itself runs nothing).
  const std::string release = musl_loader_version();
  ASSERT_FALSE(release.empty()) << "musl's loader printed no version";
  EXPECT_NE(built->profile.version.find(release), std::string::npos) << built->profile.version;
  EXPECT_TRUE(built->iostream_script.empty());
}

// A set whose C++ compile fails leaves nothing behind (its C targets had
// built): a half-built set would be found as a set; it is named, with why.
TEST(target_build, a_set_that_fails_leaves_nothing_and_says_why) {
  const std::string into = test_path("into");
  const set_recipe broken{"broken", "cc", "", "c++", "-fno-such-flag-flushcheck", "a fixed c++"};
  const auto out = build_target_sets(k_sources, into, {broken});
  EXPECT_EQ(out[0].dir, "");
  EXPECT_NE(out[0].skipped.find("did not build (it needs a fixed c++): "), std::string::npos)
      << out[0].skipped;
  EXPECT_FALSE(fs::exists(into + "/broken/stdio_script"));
  EXPECT_FALSE(probe_target_dir("broken", into + "/broken").has_value());
  const auto skipped = skipped_target_sets(into);
  ASSERT_EQ(skipped.size(), 1U);
  EXPECT_EQ(skipped[0].first, "broken");
  EXPECT_EQ(skipped[0].second, out[0].skipped);
}

// A set whose targets report another C library than its recipe names is
// discarded, saying what its compiler linked: on Alpine `cc -static` links
// musl, and a "glibc-static" set of musl would be recorded as glibc's.
// musl-gcc stands in for such a cc here.
TEST(target_build, a_set_of_another_libc_than_its_name_is_discarded) {
  if (::access("/usr/bin/musl-gcc", X_OK) != 0) GTEST_SKIP() << "no musl-gcc (musl-tools)";
  const std::string into = test_path("into");
  const set_recipe as_glibc{"static-glibc", "musl-gcc", "-static",       "", "",
                            "musl-tools",   false,      libc_impl::glibc};
  const auto out = build_target_sets(k_sources, into, {as_glibc});
  EXPECT_EQ(out[0].dir, "");
  // A static musl names no C library (no macro, no loader): "unknown".
  EXPECT_EQ(out[0].skipped, "musl-gcc -static does not link glibc: its targets report unknown");
  EXPECT_FALSE(probe_target_dir("static-glibc", into + "/static-glibc").has_value());
}

TEST(target_build, a_missing_compiler_names_its_package) {
  const std::string into = test_path("into");
  const set_recipe absent{"absent", "no-such-cc-flushcheck", "", "", "", "the-cc-package"};
  const auto out = build_target_sets(k_sources, into, {absent});
  EXPECT_EQ(out[0].skipped, "no-such-cc-flushcheck not found (install the-cc-package)");
}

TEST(target_build, sources_that_are_not_the_targets_tree_are_refused) {
  const std::string into = test_path("into");
  EXPECT_THROW(build_target_sets(into, into + "/t", set_recipes()), usage_error);
}

// The verb: every set of the machine, one line each, exit 0 when the
// default set built; the directory then holds what discover_target_sets finds.
TEST(target_build, the_verb_builds_every_set_it_can) {
  const std::string into = test_path("into");
  const auto r = cli({"targets", "build", "--sources", k_sources, "--into", into});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("default: built in " + into + "\n"), std::string::npos) << r.out;
  std::size_t lines = 0;
  for (char c : r.out) lines += c == '\n';
  EXPECT_EQ(lines, set_recipes().size()) << r.out;
  const auto sets = discover_target_sets(into);
  EXPECT_EQ(sets.size() + skipped_target_sets(into).size(), set_recipes().size());
}

// CC and CXX pick the default set's compilers, as make takes them: musl-gcc
// linking dynamically (the musl-only root's set, docs/portable.md), C only.
// Its stdio_script names no libc; the probe reads musl's from its loader.
TEST(target_build, cc_and_cxx_pick_the_default_sets_compilers) {
  if (::access("/usr/bin/musl-gcc", X_OK) != 0) GTEST_SKIP() << "no musl-gcc (musl-tools)";
  const std::string into = test_path("into");
  auto env = clean_environment();
  env.insert(env.end(), {"CC=musl-gcc", "CXX="});
  const auto r = cli({"targets", "build", "--sources", k_sources, "--into", into, "--sets",
                      "default", "--no-runtimes"},
                     env);
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  EXPECT_EQ(r.out, "default: built in " + into + "\n");
  const auto built = probe_target_dir("default", into);
  ASSERT_TRUE(built.has_value());
  EXPECT_EQ(built->profile.libc, libc_impl::musl);
  EXPECT_EQ(built->profile.version, "musl " + musl_loader_version());
  EXPECT_TRUE(built->iostream_script.empty());
  EXPECT_FALSE(fs::exists(into + "/runtimes"));
  const auto elf = read_elf(into + "/stdio_script");
  ASSERT_TRUE(elf.has_value());
  EXPECT_EQ(elf->interp, "/lib/ld-musl-x86_64.so.1");
  EXPECT_NE(read(into + "/stamp.txt").find("default: musl-gcc  /  \n"), std::string::npos)
      << read(into + "/stamp.txt");
}

TEST(target_build, sets_are_chosen_by_name_in_the_order_given) {
  const auto two = set_recipes({"musl", "default"});
  ASSERT_EQ(two.size(), 2U);
  EXPECT_EQ(two[0].name, "musl");
  EXPECT_EQ(two[1].name, "default");
  EXPECT_THROW(set_recipes({"default", "gcc-musl"}), usage_error);
  const auto r = cli({"targets", "build", "--sources", k_sources, "--into", test_path("t"),
                      "--sets", "default,gcc-musl"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err,
            "flushcheck: gcc-musl: no such toolchain set (default, musl, clang-libcxx, "
            "clang-libstdcxx, glibc-static)\n");
}

// A compiled runtime's target that did not build (an older rustc or javac
// than the scripts need) is skipped with what its compiler said, kept in
// TARGET.why by the build; without it, with the package that was missing.
TEST(target_build, a_runtime_that_did_not_build_says_what_its_compiler_said) {
  const std::string dir = test_path("targets");
  fs::create_directories(dir + "/runtimes");
  std::ofstream(dir + "/runtimes/rust_script.why") << "rustc exited 1: error[E0658]: ExitCode\n";
  const auto find = [&](lang l) {
    for (const auto& r : discover_runtimes(dir, false))
      if (r.language == l) return r.missing;
    return std::string("no such runtime");
  };
  EXPECT_EQ(find(lang::rust),
            dir + "/runtimes/rust_script did not build: rustc exited 1: error[E0658]: ExitCode");
  EXPECT_EQ(find(lang::go), dir + "/runtimes/go_script is not built (Debian package golang-go " +
                                "when the targets were built)");
}

/// Links in DIR (made) where a build wrote through them, as DIR's owner
/// could plant them: stamp.txt, skipped-sets.txt, runtimes/script.py and a
/// TARGET.why, each to a file of the caller's outside DIR holding
/// "precious\n"; those files. With OWNER, DIR, runtimes/ and the links are
/// that user's (chown -h).
std::vector<std::string> plant_links(const std::string& dir, const passwd* owner) {
  fs::create_directories(dir + "/runtimes");
  std::vector<std::string> victims;
  std::vector<std::string> owned = {dir + "/runtimes", dir};
  for (const std::string name :
       {"stamp.txt", "skipped-sets.txt", "runtimes/script.py", "runtimes/rust_script.why"}) {
    victims.push_back(file_with("victim." + fs::path(name).filename().string(), "precious\n"));
    fs::create_symlink(victims.back(), dir + "/" + name);
    owned.push_back(dir + "/" + name);
  }
  for (const auto& p : owned) {
    if (owner != nullptr) {
      EXPECT_EQ(::lchown(p.c_str(), owner->pw_uid, owner->pw_gid), 0) << p;
    }
  }
  return victims;
}

// Another user's directory is refused before anything is built, in one
// line: its owner could plant links where a build writes (stamp.txt,
// skipped-sets.txt, runtimes/*, TARGET.why), and the caller's files they
// named were overwritten, truncated or replaced by script.py.
TEST(target_build, another_users_directory_is_refused_and_nothing_is_written_through_it) {
  if (::geteuid() != 0) GTEST_SKIP() << "not root: cannot give a directory to another user";
  const passwd* found = ::getpwnam("nobody");
  if (found == nullptr) GTEST_SKIP() << "no user nobody to own the directory";
  const passwd nobody = *found;
  const std::string into = test_path("nobodys");
  const auto victims = plant_links(into, &nobody);
  const auto r =
      cli({"targets", "build", "--sources", k_sources, "--into", into, "--sets", "default"});
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "flushcheck: " + into + ": owned by uid " + std::to_string(nobody.pw_uid) +
                       ", not by the caller (uid 0)\n");
  for (const auto& v : victims) EXPECT_EQ(read(v), "precious\n") << v;
  EXPECT_TRUE(fs::is_symlink(into + "/stamp.txt"));
}

// The caller's own directory holding such links (a build of before) is
// replaced whole by a build made beside it: nothing is written through them.
TEST(target_build, links_in_the_callers_directory_are_replaced_not_written_through) {
  const std::string into = test_path("own");
  const auto victims = plant_links(into, nullptr);
  const set_recipe absent{"absent", "no-such-cc-flushcheck", "", "", "", "the-cc-package"};
  const auto out = build_target_sets(k_sources, into, {absent}, false);
  ASSERT_EQ(out.size(), 1U);
  for (const auto& v : victims) EXPECT_EQ(read(v), "precious\n") << v;
  EXPECT_FALSE(fs::is_symlink(into + "/stamp.txt"));
  EXPECT_NE(read(into + "/stamp.txt").find("cc: "), std::string::npos);
  EXPECT_EQ(skipped_target_sets(into).size(), 1U);
  EXPECT_FALSE(fs::exists(fs::symlink_status(into + "/runtimes")));
}

// A build replaces its directory whole, so a symlink, or a directory with
// what no build made (no stamp.txt: --into ~), is refused and left as it was.
TEST(target_build, a_link_or_a_directory_of_other_files_is_refused_and_kept) {
  const std::string mine = test_path("mine");
  fs::create_directories(mine);
  std::ofstream(mine + "/notes.txt") << "mine\n";
  const std::string link = test_path("link");
  fs::create_directory_symlink(mine, link);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {mine, mine + ": holds what a build did not make (no stamp.txt), and a build replaces the " +
                 "whole directory"},
      {link, link + ": a symbolic link, not a directory"}};
  for (const auto& [into, why] : cases) {
    const auto r = cli({"targets", "build", "--sources", k_sources, "--into", into, "--sets",
                        "default", "--no-runtimes"});
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_EQ(r.err, "flushcheck: " + why + "\n");
  }
  EXPECT_EQ(read(mine + "/notes.txt"), "mine\n");
  EXPECT_TRUE(fs::is_symlink(link));
}

// A parent its group may write (and not sticky) lets a member swap the
// build for a link between the check and the rename: refused, as one anyone
// may write; sticky, it is /tmp's case and taken.
TEST(target_build, a_parent_its_group_may_write_is_refused_unless_sticky) {
  const std::string shared = test_path("shared");
  fs::create_directories(shared);
  fs::permissions(shared, fs::perms::owner_all | fs::perms::group_all);
  const std::vector<std::string> args{"targets", "build",   "--sources",
                                      k_sources, "--into",  shared + "/t",
                                      "--sets",  "default", "--no-runtimes"};
  const auto r = cli(args);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_EQ(r.err, "flushcheck: " + shared +
                       ": its group may rename what is in it (not sticky, as /tmp is)\n");
  EXPECT_FALSE(fs::exists(shared + "/t"));
  fs::permissions(shared, fs::perms::sticky_bit, fs::perm_options::add);
  const auto sticky = cli(args);
  EXPECT_EQ(sticky.code, 0) << sticky.out << sticky.err;
}

// Two builds into one directory at once each build in a directory of their
// own and rename it into place: both say the set built, and it is there
// and runs (a shared script.o broke one, whose discard() then deleted what
// the other had said it built: 2 rounds of 3).
TEST(target_build, two_builds_at_once_both_tell_the_truth) {
  const std::string into = test_path("both");
  const std::vector<std::string> args{"targets", "build",  "--sources", k_sources,      "--into",
                                      into,      "--sets", "default",   "--no-runtimes"};
  auto first = std::async(std::launch::async, [&] { return cli(args); });
  auto second = std::async(std::launch::async, [&] { return cli(args); });
  for (const auto& r : {first.get(), second.get()}) {
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.out, "default: built in " + into + "\n");
  }
  for (const char* t : {"stdio_script", "iostream_script"}) {
    run_options o;
    o.argv = {into + "/" + t, "--version"};
    EXPECT_EQ(run(o).status, wait_status::exited(0)) << t;
  }
  for (const char* b : {"bench_stdio", "bench_iostream", "bench_pipe", "bench_pagecache"})
    EXPECT_EQ(::access((into + "/" + b).c_str(), X_OK), 0) << b;
  for (const auto& e : fs::directory_iterator(fs::path(into).parent_path()))
    EXPECT_EQ(e.path().filename().string().rfind("both.", 0), std::string::npos) << e.path();
}

// The default --into is under HOME/.cache: a HOME that is not there is
// refused in one line and not made (it was, with the targets under it).
TEST(target_build, a_home_that_is_not_there_is_refused_not_made) {
  const std::string home = test_path("nonexistent");
  auto env = clean_environment();
  env.push_back("HOME=" + home);
  const auto r =
      cli({"targets", "build", "--sources", k_sources, "--sets", "default", "--no-runtimes"}, env);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_EQ(r.err, "flushcheck: HOME=" + home + ": " + home +
                       " is not a directory, and is not made (targets build --into DIR builds "
                       "elsewhere)\n");
  EXPECT_FALSE(fs::exists(home));
}

// CC or CXX of blanks names no compiler ("skipped:  not found" before), and
// is not the empty CXX of a C-only set: refused by name.
TEST(target_build, a_blank_compiler_variable_is_refused_by_name) {
  const std::string into = test_path("blank");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"CC=   ", "CC is blank: unset it or name a compiler"},
      {"CXX= \t", "CXX is blank: unset it, name a compiler, or set it empty (a C-only set)"}};
  for (const auto& [variable, why] : cases) {
    auto env = clean_environment();
    env.push_back(variable);
    const auto r = cli({"targets", "build", "--sources", k_sources, "--into", into, "--sets",
                        "default", "--no-runtimes"},
                       env);
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_EQ(r.err, "flushcheck: " + why + "\n");
  }
  EXPECT_FALSE(fs::exists(into));
}

// What a compiler said reaches the terminal escaped: an ESC it printed (a
// title sequence) is the text \x1b, as in every other text output.
TEST(target_build, a_compilers_control_bytes_are_escaped) {
  const std::string cc =
      file_with("cc-says-esc", "#!/bin/sh\nprintf '\\033]0;owned\\007boom\\n' >&2\nexit 1\n");
  fs::permissions(cc, fs::perms::owner_all);
  auto env = clean_environment();
  env.insert(env.end(), {"CC=" + cc, "CXX="});
  const auto r = cli({"targets", "build", "--sources", k_sources, "--into", test_path("esc"),
                      "--sets", "default", "--no-runtimes"},
                     env);
  EXPECT_EQ(r.code, 4) << r.err;
  EXPECT_EQ(r.out,
            "default: skipped: did not build (it needs what brings the compilers CC and CXX "
            "name): cc-says-esc exited 1: \\x1b]0;owned\\x07boom\n");
}

TEST(target_build, the_verb_without_a_tree_is_a_one_line_error) {
  const std::string into = test_path("into");
  const auto r = cli({"targets", "build", "--sources", into, "--into", into + "/t"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, "flushcheck: " + into + " holds no targets' sources (script/stdio_script.c)\n");
}

}  // namespace
}  // namespace flushcheck
