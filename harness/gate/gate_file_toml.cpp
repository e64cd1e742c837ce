// The gate file parser's shared reads (gate_file_toml.hpp).
#include "gate_file_toml.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "escape.hpp"
#include "gate.hpp"
#include "record_pattern.hpp"
#include "sink_kind.hpp"

namespace flushcheck::gate_toml {

void context::fail(const toml::node& at, const std::string& why) const { fail(line_of(at), why); }

void context::fail(int line, const std::string& why) const {
  throw usage_error(path + ":" + std::to_string(line) + ": " + printable(why, 300));
}

std::string context::expand(const std::string& s, const toml::node& at, bool strict) const {
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    const auto close = s.find('}', i);
    const bool open = s[i] == '{' && close != std::string::npos;
    const std::string name = open ? s.substr(i + 1, close - i - 1) : "";
    const auto it = vars.find(name);
    if (it != vars.end()) {
      out += it->second;
      i = close + 1;
      continue;
    }
    if (strict && is_name(name) && name != "logdir")
      fail(at, "unknown placeholder {" + name + "}" +
                   (name == "records" ? " (set records = N)" : " (--var " + name + "=VALUE)"));
    out += s[i++];
  }
  return out;
}

bool context::is_name(const std::string& n) {
  return !n.empty() && std::isalpha(static_cast<unsigned char>(n[0])) &&
         std::all_of(n.begin(), n.end(),
                     [](unsigned char c) { return std::isalnum(c) || c == '_'; });
}

int line_of(const toml::node& v) { return static_cast<int>(v.source().begin.line); }

std::string text(const context& cx, const toml::node& v, std::string_view key, bool strict) {
  return cx.expand(raw_text(cx, v, key), v, strict);
}

std::string raw_text(const context& cx, const toml::node& v, std::string_view key) {
  if (!v.is_string()) cx.fail(v, std::string(key) + ": expected a string");
  return *v.value<std::string>();
}

long integer(const context& cx, const toml::node& v, std::string_view key) {
  if (!v.is_integer()) cx.fail(v, std::string(key) + ": expected an integer");
  return static_cast<long>(v.as_integer()->get());
}

long integer_in(const context& cx, const toml::node& v, std::string_view key, long least,
                long most) {
  const long n = integer(cx, v, key);
  if (n < least || n > most)
    cx.fail(v, std::string(key) + ": expected " + std::to_string(least) + " to " +
                   std::to_string(most));
  return n;
}

bool boolean(const context& cx, const toml::node& v, std::string_view key) {
  if (!v.is_boolean()) cx.fail(v, std::string(key) + ": expected true or false");
  return v.as_boolean()->get();
}

void require_true(const context& cx, const toml::node& v, std::string_view key) {
  if (!boolean(cx, v, key)) cx.fail(v, std::string(key) + " = false checks nothing: leave it out");
}

double ratio(const context& cx, const toml::node& v, std::string_view key) {
  const auto r = v.is_number() ? v.value<double>() : std::nullopt;
  if (!r || !std::isfinite(*r) || *r <= 0) cx.fail(v, std::string(key) + ": expected a number > 0");
  return *r;
}

std::string pattern_or_true(const context& cx, const toml::node& v, std::string_view key) {
  if (v.is_boolean()) {
    require_true(cx, v, key);
    return "";
  }
  if (!v.is_string()) cx.fail(v, std::string(key) + ": expected true or a whole-line regex");
  std::string pattern = text(cx, v, key, false);
  try {
    record_pattern check(pattern);
  } catch (const usage_error& e) {
    cx.fail(v, std::string(key) + ": " + e.what());
  }
  return pattern;
}

std::vector<std::string> texts(const context& cx, const toml::node& v, std::string_view key) {
  const toml::array* a = v.as_array();
  if (a == nullptr) cx.fail(v, std::string(key) + ": expected an array of strings");
  std::vector<std::string> out;
  for (const toml::node& e : *a) out.push_back(text(cx, e, key));
  return out;
}

std::vector<std::string> raw_texts(const context& cx, const toml::node& v, std::string_view key) {
  (void)texts(cx, v, key);  // the same checks, placeholders known
  std::vector<std::string> out;
  for (const toml::node& e : *v.as_array()) out.push_back(raw_text(cx, e, key));
  return out;
}

std::vector<std::string> raw_env_vars(const context& cx, const toml::node& v,
                                      std::string_view key) {
  (void)env_vars(cx, v, key);  // the same checks, placeholders known
  std::vector<std::string> out;
  for (auto&& [name, value] : *v.as_table())
    out.push_back(std::string(name.str()) + "=" + raw_text(cx, value, name.str()));
  return out;
}

const toml::table& table(const context& cx, const toml::node& v, std::string_view key) {
  if (!v.is_table()) cx.fail(v, std::string(key) + ": expected a table");
  return *v.as_table();
}

namespace {

/// [A-Za-z_][A-Za-z0-9_]*: what a shell and env(1) take as a variable's name.
bool is_variable_name(std::string_view n) {
  constexpr std::string_view word =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_";
  return !n.empty() && n.find_first_not_of(word) == std::string_view::npos &&
         !std::isdigit(static_cast<unsigned char>(n[0]));
}

}  // namespace

std::vector<std::string> env_vars(const context& cx, const toml::node& v, std::string_view key) {
  std::vector<std::string> out;
  for (auto&& [name, value] : table(cx, v, key)) {
    const std::string n(name.str());
    if (!is_variable_name(n))
      cx.fail(value, std::string(key) + ": \"" + n +
                         "\" is not a variable name (letters, digits and '_', not first a digit)");
    if (const auto why = harness_variable(n); !why.empty())
      cx.fail(value, std::string(key) + ": " + n + " is the harness's own: " + std::string(why));
    out.push_back(n + "=" + text(cx, value, n));
  }
  return out;
}

sink_kind sink(const context& cx, const toml::node& v, std::string_view key) {
  const std::string s = text(cx, v, key);
  if (const auto k = parse_sink_kind(s)) return *k;
  cx.fail(
      v, std::string(key) + " = \"" + s + "\": expected pty, pty-cooked, pipe, file, null or full");
}

destination stderr_destination(const context& cx, const toml::node& v, std::string_view key) {
  const std::string s = text(cx, v, key);
  if (s == "stdout") return destination::merged_into_stdout();
  if (const auto k = parse_sink_kind(s)) return destination(*k);
  cx.fail(v, std::string(key) + " = \"" + s +
                 "\": expected pty, pty-cooked, pipe, file, null, full or stdout");
}

void check_test_name(const context& cx, const std::string& name, int line, std::string_view what) {
  if (name.empty() ||
      name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") !=
          std::string::npos)
    cx.fail(line, "a " + std::string(what) +
                      " needs a name of letters, digits, '_', '.' and '-' (it names a ctest test)");
}

write_target target(const context& cx, const toml::node& v, std::string_view key) {
  const std::string s = text(cx, v, key);
  if (const auto t = write_target::parse(s)) return *t;
  cx.fail(v, std::string(key) + " = \"" + s +
                 "\": expected stdout, stderr or file:NAME with NAME in watch");
}

bool watches(const std::vector<std::string>& watch, const write_target& in) {
  return in.is_file() && std::find(watch.begin(), watch.end(), in.file_name()) != watch.end();
}

}  // namespace flushcheck::gate_toml
