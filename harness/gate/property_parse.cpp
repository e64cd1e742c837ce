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

/// One key of a promise's table: a level, a pattern, a ratio, a count, or a term = true.
void promise_table_key(const context& cx, const std::string& k, const toml::node& value,
                       promise& p) {
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

/// A promise's table: { through_last_level = "error", prefix = true, max_writes_per_record = 1 }.
promise promise_table(const context& cx, const toml::table& t) {
  promise p;
  for (auto&& [key, value] : t) promise_table_key(cx, std::string(key.str()), value, p);
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

/// The driver's keys: name, command (as run and as the file spells it), env.
bool driver_key(const context& cx, std::string_view k, const toml::node& v, property_spec& p) {
  if (k == "name") {
    p.name = text(cx, v, k);
  } else if (k == "command") {
    p.argv = texts(cx, v, k);
    p.command.clear();
    for (const toml::node& e : *v.as_array()) p.command.push_back(raw_text(cx, e, k));
  } else if (k == "env") {
    p.env = env_vars(cx, v, k);
  } else {
    return false;
  }
  return true;
}

/// The keys of where the records are: watch, in, and the sinks.
bool stream_key(const context& cx, std::string_view k, const toml::node& v, property_spec& p) {
  if (k == "watch") {
    p.watch = texts(cx, v, k);
  } else if (k == "in") {
    p.in = text(cx, v, k);
  } else if (k == "stdout") {
    p.sinks = names_of(cx, v, k, {"pipe", "pty", "file"});
  } else if (k == "stderr") {
    p.stderr_sink = sink_name(cx, v, k, true);
  } else {
    return false;
  }
  return true;
}

/// At most this many threads: 0 (one) or 2 to 16.
int threads_of(const context& cx, const toml::node& v, std::string_view k) {
  const int threads = static_cast<int>(integer(cx, v, k));
  if (threads != 0 && (threads < 2 || threads > 16))
    cx.fail(v, "threads: expected 0 (one thread) or 2 to 16");
  return threads;
}

/// The keys of what is generated: levels, threads, cuts, faults.
bool generated_key(const context& cx, std::string_view k, const toml::node& v, property_spec& p) {
  if (k == "levels") {
    p.levels = names_of(cx, v, k, workload_levels());
  } else if (k == "threads") {
    p.threads = threads_of(cx, v, k);
  } else if (k == "cuts") {
    p.cuts = names_of(cx, v, k, {"marker", "write", "time"});
  } else if (k == "faults") {
    p.faults = names_of(cx, v, k, {"ENOSPC", "EIO", "EAGAIN", "short"});
  } else {
    return false;
  }
  return true;
}

/// The promise's keys: promise, and always (into ALWAYS).
bool promises_key(const context& cx, std::string_view k, const toml::node& v, property_spec& p,
                  promise& always) {
  if (k == "promise") {
    p.promises = parse_promises(cx, table(cx, v, k));
  } else if (k == "always") {
    always = promise_table(cx, table(cx, v, k));
  } else {
    return false;
  }
  return true;
}

/// The keys of how the cases run: timeout_ms, traced, holds, cases.
bool limits_key(const context& cx, std::string_view k, const toml::node& v, property_spec& p) {
  if (k == "timeout_ms") {
    p.timeout_ms = integer_in(cx, v, k, 1, 600000);
  } else if (k == "traced") {
    p.traced = boolean(cx, v, k);
  } else if (k == "holds") {
    p.holds = boolean(cx, v, k);
  } else if (k == "cases") {
    p.cases = integer_in(cx, v, k, 1, 1000000);
  } else {
    return false;
  }
  return true;
}

/// A key of the table; false: not one. ALWAYS: [property.always].
bool property_key(const context& cx, std::string_view k, const toml::node& v, property_spec& p,
                  promise& always) {
  return driver_key(cx, k, v, p) || stream_key(cx, k, v, p) || generated_key(cx, k, v, p) ||
         promises_key(cx, k, v, p, always) || limits_key(cx, k, v, p);
}

/// IN names a stream the property can read: stdout, stderr on a sink
/// that keeps it, or a watched file. WHAT begins each message.
void check_in(const context& cx, const property_spec& p, const std::string& what) {
  if (p.in != "stdout" && p.in != "stderr" && !watches(p.watch, p.in))
    cx.fail(p.line, what + "in = \"" + p.in +
                        "\": expected stdout, stderr or file:NAME with NAME in watch");
  if (p.in == "stderr" && p.stderr_sink != "pipe" && p.stderr_sink != "pty" &&
      p.stderr_sink != "file")
    cx.fail(p.line, what + "in = \"stderr\" needs stderr on a pipe, pty or file");
}

/// P can run and be checked: a command, a promise, a stream to read, and
/// the write counts where a promise counts writes.
void check(const context& cx, const property_spec& p) {
  const std::string what = "property '" + p.name + "': ";
  if (p.argv.empty()) cx.fail(p.line, what + "no command (the driver: command = [...])");
  if (p.promises.empty())
    cx.fail(p.line, what + "no [property.promise]: a property must promise something");
  check_in(cx, p, what);
  for (const auto& [end, promised] : p.promises)
    if (promised.max_writes_per_record > 0 && !p.traced)
      cx.fail(p.line, "max_writes_per_record needs the write counts: not with traced = false");
}

/// P made whole: ALWAYS added to each end's promise, the defaults filled
/// in, and the whole checked.
void finish(const context& cx, const promise& always, property_spec& p) {
  for (auto& [end, promised] : p.promises) promised.add(always);
  p.complete();
  check(cx, p);
}

}  // namespace

property_spec parse_property(const context& cx, const toml::table& t) {
  property_spec p;
  promise always;
  p.line = line_of(t);
  for (auto&& [key, v] : t)
    if (!property_key(cx, key.str(), v, p, always))
      cx.fail(v, "unknown key '" + std::string(key.str()) +
                     "' in a property (name, command, env, watch, in, stdout, stderr, levels, "
                     "threads, cuts, faults, promise, always, timeout_ms, traced, holds, cases)");
  check_test_name(cx, p.name, p.line, "property");
  finish(cx, always, p);
  return p;
}

}  // namespace flushcheck
