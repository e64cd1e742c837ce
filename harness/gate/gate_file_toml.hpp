#pragma once
/// What every part of a gate file's parser shares (gate_file_parse.cpp for
/// cases, property_parse.cpp for [[property]] tables): where the parse is,
/// for "PATH:LINE: reason" errors, its placeholders, and typed reads of
/// toml++ nodes that fail with the key's line. Not installed.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <toml++/toml.h>

#include "destination.hpp"
#include "error.hpp"
#include "sink_kind.hpp"
#include "write_target.hpp"

namespace flushcheck::gate_toml {

/// Where the parse is: the file, for messages, and its placeholders.
struct context {
  std::string path;
  /// What "{NAME}" stands for: here, records (when the file sets it), --var's.
  std::map<std::string, std::string> vars;

  [[noreturn]] void fail(const toml::node& at, const std::string& why) const;
  /// One line whatever the file holds: its text is escaped (\n, \xHH).
  [[noreturn]] void fail(int line, const std::string& why) const;
  /// S with each "{NAME}" replaced, in one scan (a value is not scanned
  /// again). "{logdir}" stays for the run; another unknown NAME is an error
  /// when STRICT (a program's strings), left as it is otherwise (a regex's
  /// "{2,3}", a note).
  std::string expand(const std::string& s, const toml::node& at, bool strict) const;
  static bool is_name(const std::string& n);
};

int line_of(const toml::node& v);
/// A string; STRICT: a program's (every placeholder must be known).
std::string text(const context& cx, const toml::node& v, std::string_view key, bool strict = true);
/// The string as the file spells it, placeholders and all.
std::string raw_text(const context& cx, const toml::node& v, std::string_view key);
long integer(const context& cx, const toml::node& v, std::string_view key);
/// An integer from LEAST to MOST.
long integer_in(const context& cx, const toml::node& v, std::string_view key, long least,
                long most);
bool boolean(const context& cx, const toml::node& v, std::string_view key);
/// KEY = true: a flag; = false checks nothing, and is refused.
void require_true(const context& cx, const toml::node& v, std::string_view key);
/// A ratio: a number > 0.
double ratio(const context& cx, const toml::node& v, std::string_view key);
/// KEY = true, or a whole-line regex (a record_pattern, checked): "" for true.
std::string pattern_or_true(const context& cx, const toml::node& v, std::string_view key);
std::vector<std::string> texts(const context& cx, const toml::node& v, std::string_view key);
/// An array of strings as the file spells them, placeholders and all.
std::vector<std::string> raw_texts(const context& cx, const toml::node& v, std::string_view key);
const toml::table& table(const context& cx, const toml::node& v, std::string_view key);
/// An env table, as "NAME=value" for each of its keys.
std::vector<std::string> env_vars(const context& cx, const toml::node& v, std::string_view key);
/// The same, checked as env_vars checks them, with each value as the file spells it.
std::vector<std::string> raw_env_vars(const context& cx, const toml::node& v, std::string_view key);
/// A sink kind by its name: pty, pty-cooked, pipe, file, null or full.
sink_kind sink(const context& cx, const toml::node& v, std::string_view key);
/// Where stderr goes: a sink kind by its name, or "stdout" (2>&1).
destination stderr_destination(const context& cx, const toml::node& v, std::string_view key);

/// Fails at LINE unless NAME is letters, digits, '_', '.' and '-', at least
/// one: what may name a WHAT ("case", "property"), as it names a ctest test.
void check_test_name(const context& cx, const std::string& name, int line, std::string_view what);

/// Where a check reads: "stdout", "stderr" or "file:NAME" (whether WATCH
/// has NAME is checked with the whole table: watches()).
write_target target(const context& cx, const toml::node& v, std::string_view key);

/// IN is a file with its NAME in WATCH.
bool watches(const std::vector<std::string>& watch, const write_target& in);

/// Runs PARSE(VALUE) under the key's line: a usage_error from the harness's
/// own parsers (kill_plan, fault_plan, reader_policy) gets the file and line.
template <typename F>
auto checked(const context& cx, const toml::node& v, std::string_view key, F parse) {
  try {
    return parse(text(cx, v, key));
  } catch (const usage_error& e) {
    cx.fail(v, std::string(key) + ": " + e.what());
  }
}

}  // namespace flushcheck::gate_toml
