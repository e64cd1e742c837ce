// A gate file, TOML (parsed by toml++), into a gate_file: every key is
// known, every value of its type and checked (sinks, cuts, faults, readers,
// regexes) before anything runs. Errors are "PATH:LINE: reason".
#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <map>
#include <optional>
#include <set>

#include <toml++/toml.h>

#include "error.hpp"
#include "escape.hpp"
#include "fault_plan.hpp"
#include "gate_file.hpp"
#include "gate_file_toml.hpp"
#include "input_file.hpp"
#include "kill_plan.hpp"
#include "property_parse.hpp"
#include "reader_policy.hpp"
#include "record_pattern.hpp"
#include "signals.hpp"
#include "sink_kind.hpp"

namespace flushcheck {

namespace {

/// A gate file is read whole before it is parsed: one larger than this is
/// not a gate file anybody wrote (a log, /dev/zero behind a symlink).
constexpr std::size_t max_gate_file_bytes = std::size_t{4} << 20;

using namespace gate_toml;

/// A key of a case (or of [defaults]). ARGS collects "args", appended to
/// the command afterwards. False: not a key of a run.
bool run_key(const context& cx, std::string_view k, const toml::node& v, gate_case& c,
             std::vector<std::string>& args) {
  if (k == "command")
    c.argv = texts(cx, v, k);
  else if (k == "args")
    args = texts(cx, v, k);
  else if (k == "stdout")
    c.stdout_sink = sink_name(cx, v, k, false);
  else if (k == "stderr")
    c.stderr_sink = sink_name(cx, v, k, true);
  else if (k == "watch")
    c.watch = texts(cx, v, k);
  else if (k == "cut")
    c.cut = checked(cx, v, k, [](const std::string& s) {  // "{logdir}" is replaced at the run
      (void)kill_plan::parse(s);
      return s;
    });
  else if (k == "reader")
    c.reader =
        checked(cx, v, k, [](const std::string& s) { return reader_policy::parse(s).text(); });
  else if (k == "timeout_ms") {
    c.timeout_ms = integer(cx, v, k);
    if (c.timeout_ms < 1 || c.timeout_ms > kill_plan::max_time_ms)
      cx.fail(v, "timeout_ms: expected 1 to 86400000");
  } else if (k == "traced")
    c.traced = boolean(cx, v, k);
  else if (k == "faults") {
    c.faults.clear();
    if (!v.is_array()) cx.fail(v, "faults: expected an array of strings");
    for (const toml::node& f : *v.as_array())
      c.faults.push_back(checked(cx, f, k, [](const std::string& s) {
        fault_plan::parse(s);
        return s;
      }));
  } else if (k == "env") {
    c.env.clear();
    for (auto&& [name, value] : table(cx, v, k))
      c.env.push_back(std::string(name.str()) + "=" + text(cx, value, name.str()));
  } else
    return false;
  return true;
}

/// The value V of E's check, read as its kind (check_kinds()) takes it.
void set_check(const context& cx, const toml::node& v, gate_expect& e, check_value kind) {
  const std::string_view k = e.check;
  if (kind == check_value::flag) {
    if (!boolean(cx, v, k)) cx.fail(v, std::string(k) + " = false checks nothing: leave it out");
  } else if (kind == check_value::pattern_or_flag) {
    if (v.is_string()) {
      e.text = text(cx, v, k, false);
      try {
        record_pattern check(e.text);
      } catch (const usage_error& err) {
        cx.fail(v, std::string(k) + ": " + err.what());
      }
    } else if (!boolean(cx, v, k)) {
      cx.fail(v, std::string(k) + " = false checks nothing: leave it out");
    }
  } else if (kind == check_value::ratio) {
    const auto ratio = v.is_number() ? v.value<double>() : std::nullopt;
    if (!ratio || !std::isfinite(*ratio) || *ratio <= 0)
      cx.fail(v, std::string(k) + ": expected a number > 0");
    e.ratio = *ratio;
  } else if (kind == check_value::signal) {
    auto sig = parse_signal(text(cx, v, k));
    if (!sig) cx.fail(v, std::string(k) + ": expected a signal name such as KILL or SIGTERM");
    e.number = *sig;
  } else {
    e.number = integer(cx, v, k);
    const long least = kind == check_value::marker ? 1 : 0;  // markers count from 1
    if (e.number < least)
      cx.fail(v, std::string(k) + ": expected a number >= " + std::to_string(least));
  }
}

std::vector<gate_expect> parse_expect(const context& cx, const toml::table& t) {
  gate_expect common;
  common.line = static_cast<int>(t.source().begin.line);
  std::vector<std::pair<std::string, const toml::node*>> checks;
  for (auto&& [key, v] : t) {
    const std::string_view k = key.str();
    if (k == "in")
      common.in = text(cx, v, k);
    else if (k == "holds")
      common.holds = boolean(cx, v, k);
    else if (k == "text")
      common.text = text(cx, v, k, false);
    else if (find_check(k) != nullptr)
      checks.emplace_back(std::string(k), &v);
    else
      cx.fail(v, "unknown key '" + std::string(k) + "' in an expect table (the checks: " +
                     check_names() + "; and in, holds, text)");
  }
  if (checks.empty()) cx.fail(common.line, "an expect table without a check");
  std::sort(checks.begin(), checks.end(), [](const auto& a, const auto& b) {  // file order
    const auto &x = a.second->source().begin, &y = b.second->source().begin;
    return std::pair(x.line, x.column) < std::pair(y.line, y.column);
  });
  const auto is_marker = [](const auto& c) {
    return find_check(c.first)->value == check_value::marker;
  };
  const bool marker = std::any_of(checks.begin(), checks.end(), is_marker);
  if (marker == common.text.empty())
    cx.fail(common.line, marker ? "visible_at_marker needs text = \"what must be visible\""
                                : "text = ... belongs to visible_at_marker");
  if (marker && common.in.rfind("file:", 0) == 0)
    cx.fail(common.line, "visible_at_marker reads stdout or stderr, not a file");
  std::vector<gate_expect> out;
  for (auto& [k, v] : checks) {
    gate_expect e = common;
    e.check = k;
    e.line = static_cast<int>(v->source().begin.line);
    const check_value kind = find_check(k)->value;
    if (kind != check_value::marker) e.text.clear();
    set_check(cx, *v, e, kind);
    out.push_back(e);
  }
  return out;
}

gate_row parse_row(const context& cx, const toml::table& t) {
  gate_row r;
  for (auto&& [key, v] : t) {
    const std::string_view k = key.str();
    if (k == "config")
      r.config = text(cx, v, k, false);
    else if (k == "death")
      r.death = text(cx, v, k, false);
    else if (k == "note")
      r.note = text(cx, v, k, false);
    else if (k == "in")
      r.in = text(cx, v, k);
    else if (k == "tier") {
      r.tier = text(cx, v, k);
      if (r.tier != "promise" && r.tier != "observation")
        cx.fail(v, "tier: expected promise or observation");
    } else
      cx.fail(
          v, "unknown key '" + std::string(k) + "' in a row table (config, death, tier, note, in)");
  }
  return r;
}

/// "in" names a stream this case has and can read: stdout, stderr unless
/// merged, a watched file; not a sink that keeps nothing (null, full).
void check_source(const context& cx, const gate_case& c, const std::string& in, int line) {
  const bool std_stream = in == "stdout" || in == "stderr";
  const std::string& sink = in == "stdout" ? c.stdout_sink : c.stderr_sink;
  if (std_stream && (sink == "null" || sink == "full"))
    cx.fail(line, "in = \"" + in + "\", but " + in + " = \"" + sink + "\" keeps nothing to read");
  if (in == "stdout") return;
  if (in == "stderr") {
    if (c.stderr_sink == "stdout")
      cx.fail(line, "in = \"stderr\", but stderr = \"stdout\" merges it into stdout");
    return;
  }
  if (in.rfind("file:", 0) == 0 &&
      std::find(c.watch.begin(), c.watch.end(), in.substr(5)) != c.watch.end())
    return;
  cx.fail(line, "in = \"" + in + "\": expected stdout, stderr or file:NAME with NAME in watch");
}

gate_case parse_case(const context& cx, const toml::table& t, const gate_case& defaults,
                     const std::vector<std::string>& default_args) {
  gate_case c = defaults;
  c.line = static_cast<int>(t.source().begin.line);
  std::vector<std::string> args = default_args;
  for (auto&& [key, v] : t) {
    const std::string_view k = key.str();
    if (k == "name")
      c.name = text(cx, v, k);
    else if (k == "expect") {
      const toml::array* a = v.as_array();
      if (a == nullptr || !a->is_array_of_tables())
        cx.fail(v, "expect: expected [[case.expect]] tables");
      for (const toml::node& e : *a)
        for (auto& x : parse_expect(cx, *e.as_table())) c.expect.push_back(x);
    } else if (k == "row")
      c.row = parse_row(cx, table(cx, v, k));
    else if (!run_key(cx, k, v, c, args))
      cx.fail(v, "unknown key '" + std::string(k) +
                     "' in a case (name, command, args, env, stdout, stderr, watch, cut, faults, "
                     "reader, timeout_ms, traced, expect, row)");
  }
  if (c.name.empty() ||
      c.name.find_first_not_of(
          "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") != std::string::npos)
    cx.fail(c.line,
            "a case needs a name of letters, digits, '_', '.' and '-' (it names a ctest test)");
  if (c.argv.empty())  // args alone are no command: they are appended to one
    cx.fail(c.line, "case '" + c.name + "': no command (command = [...], here or in [defaults])" +
                        (args.empty() ? "" : ": args are appended to it"));
  c.argv.insert(c.argv.end(), args.begin(), args.end());
  if (c.expect.empty())
    cx.fail(c.line, "case '" + c.name + "': no [[case.expect]]: a case must check something");
  for (const auto& e : c.expect) {
    if (!e.reads_status()) check_source(cx, c, e.in, e.line);
    if (e.check == "max_writes_per_record" && !c.traced)
      cx.fail(e.line, "max_writes_per_record needs the write counts: not with traced = false");
  }
  if (c.row) check_source(cx, c, c.row->in, c.line);
  return c;
}

gate_case parse_defaults(const context& cx, const toml::table& t, std::vector<std::string>& args) {
  gate_case d;
  for (auto&& [key, v] : t)
    if (!run_key(cx, key.str(), v, d, args))
      cx.fail(v, "unknown key '" + std::string(key.str()) +
                     "' in [defaults] (command, args, env, stdout, stderr, watch, cut, faults, "
                     "reader, timeout_ms, traced)");
  return d;
}

toml::table read_toml(std::string_view source, const std::string& path) {
  try {
    return toml::parse(source, path);
  } catch (const toml::parse_error& e) {
    throw usage_error(path + ":" + std::to_string(e.source().begin.line) + ": " +
                      printable(std::string(e.description()), 300));
  }
}

/// The placeholders of PATH's strings: "{here}", "{records}" (if RECORDS),
/// and VARS ("NAME=VALUE", not one of those nor "logdir").
context make_context(const std::string& path, const std::vector<std::string>& vars,
                     std::optional<long> records) {
  context cx{path, {{"here", std::filesystem::absolute(path).parent_path().string()}}};
  if (records) cx.vars["records"] = std::to_string(*records);
  for (const auto& v : vars) {
    const auto eq = v.find('=');
    const std::string name = v.substr(0, std::min(eq, v.size()));
    if (eq == std::string::npos || !context::is_name(name))
      throw usage_error("variable " + printable(v, 200) +
                        ": expected NAME=VALUE, NAME of letters, digits and '_'");
    if (name == "here" || name == "records" || name == "logdir")
      throw usage_error("variable " + printable(v, 200) + ": {" + name + "} is the file's own");
    cx.vars[name] = v.substr(eq + 1);
  }
  return cx;
}

/// The file's [[case]] tables (none: an empty list).
std::vector<gate_case> parse_cases(const context& cx, const toml::table& doc,
                                   const gate_case& defaults,
                                   const std::vector<std::string>& args) {
  std::vector<gate_case> out;
  if (!doc.contains("case")) return out;
  const toml::array* cases = doc["case"].as_array();
  if (cases == nullptr || !cases->is_array_of_tables())
    cx.fail(*doc.get("case"), "case: expected [[case]] tables");
  for (const toml::node& t : *cases) out.push_back(parse_case(cx, *t.as_table(), defaults, args));
  return out;
}

std::vector<property_spec> parse_properties(const context& cx, const toml::table& doc) {
  std::vector<property_spec> out;
  if (!doc.contains("property")) return out;
  const toml::array* props = doc["property"].as_array();
  if (props == nullptr || !props->is_array_of_tables())
    cx.fail(*doc.get("property"), "property: expected [[property]] tables");
  for (const toml::node& t : *props) out.push_back(parse_property(cx, *t.as_table()));
  return out;
}

}  // namespace

gate_file parse_gate_file(const std::string& path, const std::vector<std::string>& vars) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) throw usage_error(path + ": no such gate file");
  std::string text;
  try {  // an empty file reads fine: it has no case, said below
    text = read_input_file(path, max_gate_file_bytes);
  } catch (const usage_error& e) {
    throw usage_error(path + ": " + e.what());
  }
  return parse_gate_text(text, path, vars);
}

gate_file parse_gate_text(std::string_view source, const std::string& path,
                          const std::vector<std::string>& vars) {
  const toml::table doc = read_toml(source, path);
  gate_file f;
  f.path = path;
  std::optional<long> records;
  if (auto r = doc["records"]; r) {
    records = f.records = integer(make_context(path, {}, 0), *r.node(), "records");
    if (f.records < 0) make_context(path, {}, 0).fail(*r.node(), "records: expected a number >= 0");
  }
  const context cx = make_context(path, vars, records);
  gate_case defaults;
  std::vector<std::string> args;
  for (auto&& [key, v] : doc) {
    const std::string_view k = key.str();
    if (k == "library")
      f.library = text(cx, v, k, false);
    else if (k == "tag")
      f.tag = text(cx, v, k, false);
    else if (k == "defaults")
      defaults = parse_defaults(cx, table(cx, v, k), args);
    else if (k != "records" && k != "case" && k != "property")
      cx.fail(v, "unknown key '" + std::string(k) +
                     "' (library, records, tag, defaults, case, property)");
  }
  f.cases = parse_cases(cx, doc, defaults, args);
  f.properties = parse_properties(cx, doc);
  if (f.cases.empty() && f.properties.empty())
    cx.fail(1, "no [[case]] and no [[property]]: a gate file runs at least one");
  std::set<std::string> names;
  for (const auto& c : f.cases)
    if (!names.insert(c.name).second) cx.fail(c.line, "a second case named '" + c.name + "'");
  for (const auto& p : f.properties)
    if (!names.insert(p.name).second)
      cx.fail(p.line, "a second case or property named '" + p.name + "'");
  return f;
}

}  // namespace flushcheck
