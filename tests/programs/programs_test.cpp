// The programs stage as data (no process): the language table, the library
// profiles' names and releases, and the well-known programs' switches. Each
// table is read by many stages; these are the promises they rely on.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <string_view>

#include "languages.hpp"
#include "profile.hpp"
#include "program_switches.hpp"

namespace flushcheck {
namespace {

constexpr lang k_every_lang[] = {lang::c,    lang::cxx,  lang::python, lang::node, lang::perl,
                                 lang::ruby, lang::java, lang::go,     lang::rust};

TEST(language_table, has_one_row_per_language_in_enum_order_each_id_once) {
  const auto& table = language_table();
  ASSERT_EQ(table.size(), std::size(k_every_lang));
  std::set<std::string_view> ids, displays;
  for (std::size_t i = 0; i < table.size(); ++i) {
    EXPECT_EQ(table[i].language, k_every_lang[i]) << i;
    EXPECT_EQ(&facts_of(k_every_lang[i]), &table[i]) << table[i].id;
    EXPECT_TRUE(ids.insert(table[i].id).second) << table[i].id;
    EXPECT_TRUE(displays.insert(table[i].display).second) << table[i].display;
  }
}

TEST(language_table, every_id_parses_back_and_no_other_name_does) {
  for (lang l : k_every_lang) {
    EXPECT_EQ(parse_lang(to_string(l)), l) << to_string(l);
    EXPECT_EQ(std::string(display_name(l)), facts_of(l).display);
  }
  for (const char* other : {"", "C", "c++", "python3", "nodejs", "Rust"})
    EXPECT_EQ(parse_lang(other), std::nullopt) << other;
}

/// A runtime has its interpreter of the script language and its package; C
/// and C++ are the model's, named only. A program's file name is one
/// runtime's at most (Go's and Rust's programs are their own binaries: none).
TEST(language_table, every_runtime_says_how_it_starts_and_where_it_comes_from) {
  std::set<std::string> programs;
  for (lang l : k_every_lang) {
    const language_facts& f = facts_of(l);
    EXPECT_EQ(is_runtime(l), l != lang::c && l != lang::cxx) << f.id;
    for (const auto& p : f.programs) EXPECT_TRUE(programs.insert(p).second) << p;
    if (!is_runtime(l)) continue;
    EXPECT_FALSE(f.interpreter.empty()) << f.id;
    EXPECT_NE(std::string_view(f.package), "") << f.id;
    EXPECT_NE(std::string_view(f.out.source), "") << f.id << ": stdout's buffering cites nothing";
  }
  EXPECT_TRUE(programs.count("python") && programs.count("node") && programs.count("java"));
}

TEST(language_table, runtimes_are_the_table_order_and_with_abort_those_that_have_it) {
  const auto all = runtimes(), with_abort = runtimes(true);
  EXPECT_EQ(all.size(), std::size(k_every_lang) - 2);  // all but C and C++
  EXPECT_EQ(all.front(), lang::python);
  for (lang l : with_abort) EXPECT_TRUE(facts_of(l).has_abort) << to_string(l);
  EXPECT_FALSE(facts_of(lang::java).has_abort);  // the script language's abort: none in Java
  EXPECT_LT(with_abort.size(), all.size());
}

/// Every switch row of the catalogue cites its source, and its name is
/// unique across languages (it names a catalogue row).
TEST(language_table, every_buffer_switch_cites_a_source_under_a_unique_name) {
  std::set<std::string_view> names;
  for (const auto& f : language_table())
    for (const auto& s : f.switches) {
      EXPECT_TRUE(names.insert(s.name).second) << s.name;
      EXPECT_NE(std::string_view(s.source), "") << s.name;
      EXPECT_NE(std::string_view(s.claim), "") << s.name;
      EXPECT_FALSE(s.flags.empty() && s.env.empty() && s.before.empty())
          << s.name << ": a switch that changes nothing";
    }
  EXPECT_FALSE(names.empty());
}

TEST(profile, library_names_parse_back_and_releases_read_their_leading_numbers) {
  for (libc_impl l : {libc_impl::glibc, libc_impl::musl}) EXPECT_EQ(parse_libc(to_string(l)), l);
  for (cxx_impl c : {cxx_impl::libstdcxx, cxx_impl::libcxx, cxx_impl::none})
    EXPECT_EQ(parse_cxxlib(to_string(c)), c);
  EXPECT_EQ(parse_libc("uclibc"), libc_impl::unknown);
  EXPECT_EQ(parse_cxxlib(""), cxx_impl::unknown);
  EXPECT_EQ(parse_lib_version("2.41"), (lib_version{2, 41, 0}));
  EXPECT_EQ(parse_lib_version("1.2.3-1"), (lib_version{1, 2, 3}));
  EXPECT_EQ(parse_lib_version("musl"), lib_version{});
  EXPECT_LT(parse_lib_version("2.36"), parse_lib_version("2.37"));  // glibc 2.37's printf
}

TEST(program_switches, each_is_found_by_every_name_it_goes_with_and_cites_its_source) {
  for (const auto& sw : detail::program_switches()) {
    EXPECT_FALSE(sw.names.empty());
    EXPECT_FALSE(sw.args.empty()) << sw.names.front();
    EXPECT_FALSE(sw.source.empty()) << sw.names.front();
    for (std::string_view name : sw.names)
      EXPECT_EQ(detail::switch_of(name, sw.purpose), &sw) << name << ": one switch per purpose";
  }
  EXPECT_EQ(detail::switch_of("no-such-program"), nullptr);
}

}  // namespace
}  // namespace flushcheck
