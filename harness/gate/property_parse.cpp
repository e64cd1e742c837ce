// A [[property]] table into a property_spec: every key known, every value
// of its type, every name one the generator knows, before anything runs.
#include "property_parse.hpp"

#include <algorithm>
#include <cmath>

#include "record_pattern.hpp"

namespace flushcheck {

namespace {

using namespace gate_toml;

/// The names an array key may hold (levels, cuts, faults), each once.
std::vector<std::string> names_of(const context& cx, const toml::node& v, std::string_view key,
                                  const std::vector<std::string>& known) {
  std::vector<std::string> out =
      v.is_string() ? std::vector<std::string>{text(cx, v, key)} : texts(cx, v, key);
  std::string list;
  for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
  for (const auto& s : out)
    if (std::find(known.begin(), known.end(), s) == known.end())
      cx.fail(v, std::string(key) + ": '" + s + "' is not one of " + list);
  if (out.empty()) cx.fail(v, std::string(key) + ": expected at least one of " + list);
  return out;
}

int level_of(const context& cx, const toml::node& v, std::string_view key) {
  const std::string s = text(cx, v, key);
  const auto& levels = workload_levels();
  const auto it = std::find(levels.begin(), levels.end(), s);
  if (it == levels.end()) cx.fail(v, std::string(key) + ": expected debug, info, warn or error");
  return static_cast<int>(it - levels.begin());
}

/// One term of a promise: "all", "through_last_flush", "prefix", "each_once", "nothing".
void add_term(const context& cx, const toml::node& at, const std::string& term, promise& p) {
  if (term == "all")
    p.all = true;
  else if (term == "through_last_flush")
    p.through_last_flush = true;
  else if (term == "prefix")
    p.prefix = true;
  else if (term == "each_once")
    p.each_once = true;
  else if (term == "no_torn_record")
    p.no_torn_record = true;
  else if (term != "nothing")
    cx.fail(at, "promise '" + term +
                    "': expected all, through_last_flush, prefix, each_once, no_torn_record or "
                    "nothing (through_last_level = \"LEVEL\", lost_at_most = N and "
                    "max_writes_per_record = N in a table)");
}

/// no_torn_record = "whole-line regex" (a record_pattern) or true.
void torn_pattern(const context& cx, const toml::node& v, promise& p) {
  if (!v.is_string()) {
    p.no_torn_record = boolean(cx, v, "no_torn_record");
    return;
  }
  p.no_torn_record = true;
  p.torn_pattern = text(cx, v, "no_torn_record", false);
  try {
    record_pattern check(p.torn_pattern);
  } catch (const usage_error& e) {
    cx.fail(v, std::string("no_torn_record: ") + e.what());
  }
}

double ratio(const context& cx, const toml::node& v) {
  const auto r = v.is_number() ? v.value<double>() : std::nullopt;
  if (!r || !std::isfinite(*r) || *r <= 0)
    cx.fail(v, "max_writes_per_record: expected a number > 0");
  return *r;
}

/// A promise's table: { through_last_level = "error", prefix = true, max_writes_per_record = 1 }.
promise promise_table(const context& cx, const toml::table& t) {
  promise p;
  for (auto&& [key, value] : t) {
    const std::string k(key.str());
    if (k == "through_last_level")
      p.through_last_level = level_of(cx, value, k);
    else if (k == "no_torn_record")
      torn_pattern(cx, value, p);
    else if (k == "max_writes_per_record")
      p.max_writes_per_record = ratio(cx, value);
    else if (k == "lost_at_most") {
      p.lost_at_most = integer(cx, value, k);
      if (*p.lost_at_most < 0) cx.fail(value, "lost_at_most: expected a number >= 0");
    } else if (boolean(cx, value, k))
      add_term(cx, value, k, p);
  }
  return p;
}

/// An end's promise: "all", ["all", "prefix"], or { through_last_level = "error", prefix = true }.
promise parse_promise(const context& cx, const toml::node& v, std::string_view end) {
  promise p;
  if (v.is_string()) {
    add_term(cx, v, text(cx, v, end), p);
  } else if (v.is_array()) {
    for (const auto& term : texts(cx, v, end)) add_term(cx, v, term, p);
  } else if (v.is_table()) {
    p = promise_table(cx, *v.as_table());
  } else {
    cx.fail(v, std::string(end) + ": expected a promise: a string, an array of them, or a table");
  }
  return p;
}

std::map<property_end, promise> parse_promises(const context& cx, const toml::table& t) {
  std::map<property_end, promise> out;
  for (auto&& [key, v] : t) {
    const auto end = parse_end(std::string(key.str()));
    if (!end)
      cx.fail(v, "unknown end '" + std::string(key.str()) +
                     "' in [property.promise] (return, exit, _exit, abort, TERM, KILL, fault)");
    out[*end] = parse_promise(cx, v, key.str());
  }
  if (out.empty()) cx.fail(t.source().begin.line, "[property.promise] names no end");
  return out;
}

/// A key of the table; false: not one.
bool property_key(const context& cx, std::string_view k, const toml::node& v, property_spec& p) {
  if (k == "name") {
    p.name = text(cx, v, k);
  } else if (k == "command") {
    p.argv = texts(cx, v, k);
    p.command.clear();
    for (const toml::node& e : *v.as_array()) p.command.push_back(raw_text(cx, e, k));
  } else if (k == "env") {
    for (auto&& [name, value] : table(cx, v, k))
      p.env.push_back(std::string(name.str()) + "=" + text(cx, value, name.str()));
  } else if (k == "watch") {
    p.watch = texts(cx, v, k);
  } else if (k == "in") {
    p.in = text(cx, v, k);
  } else if (k == "stdout") {
    p.sinks = names_of(cx, v, k, {"pipe", "pty", "file"});
  } else if (k == "stderr") {
    p.stderr_sink = sink_name(cx, v, k, true);
  } else if (k == "levels") {
    p.levels = names_of(cx, v, k, workload_levels());
  } else if (k == "threads") {
    p.threads = static_cast<int>(integer(cx, v, k));
    if (p.threads != 0 && (p.threads < 2 || p.threads > 16))
      cx.fail(v, "threads: expected 0 (one thread) or 2 to 16");
  } else if (k == "cuts") {
    p.cuts = names_of(cx, v, k, {"marker", "write", "time"});
  } else if (k == "faults") {
    p.faults = names_of(cx, v, k, {"ENOSPC", "EIO", "EAGAIN", "short"});
  } else {
    return false;
  }
  return true;
}

bool run_key(const context& cx, std::string_view k, const toml::node& v, property_spec& p,
             promise& always) {
  if (k == "promise") {
    p.promises = parse_promises(cx, table(cx, v, k));
  } else if (k == "always") {
    always = promise_table(cx, table(cx, v, k));
  } else if (k == "timeout_ms") {
    p.timeout_ms = integer(cx, v, k);
    if (p.timeout_ms < 1 || p.timeout_ms > 600000) cx.fail(v, "timeout_ms: expected 1 to 600000");
  } else if (k == "traced") {
    p.traced = boolean(cx, v, k);
  } else if (k == "holds") {
    p.holds = boolean(cx, v, k);
  } else if (k == "cases") {
    p.cases = integer(cx, v, k);
    if (p.cases < 1 || p.cases > 1000000) cx.fail(v, "cases: expected 1 to 1000000");
  } else {
    return false;
  }
  return true;
}

void check(const context& cx, const property_spec& p) {
  const std::string what = "property '" + p.name + "': ";
  if (p.argv.empty()) cx.fail(p.line, what + "no command (the driver: command = [...])");
  if (p.promises.empty())
    cx.fail(p.line, what + "no [property.promise]: a property must promise something");
  const bool watched = p.in.rfind("file:", 0) == 0 &&
                       std::find(p.watch.begin(), p.watch.end(), p.in.substr(5)) != p.watch.end();
  if (p.in != "stdout" && p.in != "stderr" && !watched)
    cx.fail(p.line, what + "in = \"" + p.in +
                        "\": expected stdout, stderr or file:NAME with NAME in watch");
  if (p.in == "stderr" && p.stderr_sink != "pipe" && p.stderr_sink != "pty" &&
      p.stderr_sink != "file")
    cx.fail(p.line, what + "in = \"stderr\" needs stderr on a pipe, pty or file");
}

}  // namespace

property_spec parse_property(const context& cx, const toml::table& t) {
  property_spec p;
  promise always;
  p.line = line_of(t);
  for (auto&& [key, v] : t) {
    const std::string_view k = key.str();
    if (!property_key(cx, k, v, p) && !run_key(cx, k, v, p, always))
      cx.fail(v, "unknown key '" + std::string(k) +
                     "' in a property (name, command, env, watch, in, stdout, stderr, levels, "
                     "threads, cuts, faults, promise, always, timeout_ms, traced, holds, cases)");
  }
  if (p.name.empty() ||
      p.name.find_first_not_of(
          "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") != std::string::npos)
    cx.fail(p.line,
            "a property needs a name of letters, digits, '_', '.' and '-' (it names a ctest test)");
  for (auto& [end, promised] : p.promises) promised.add(always);
  p.complete();
  check(cx, p);
  for (const auto& [end, promised] : p.promises)
    if (promised.max_writes_per_record > 0 && !p.traced)
      cx.fail(p.line, "max_writes_per_record needs the write counts: not with traced = false");
  return p;
}

}  // namespace flushcheck
