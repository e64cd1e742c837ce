// A gate file, TOML (parsed by toml++), into a gate_file: every key is
// known, every value of its type and checked (sinks, cuts, faults, readers,
// regexes) before anything runs. Errors are "PATH:LINE: reason".
#include <algorithm>
#include <cctype>
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
#include "record_checks.hpp"
#include "signals.hpp"
#include "sink_kind.hpp"

namespace flushcheck {

namespace {

/// A gate file is read whole before it is parsed: one larger than this is
/// not a gate file anybody wrote (a log, /dev/zero behind a symlink).
constexpr std::size_t max_gate_file_bytes = std::size_t{4} << 20;

using namespace gate_toml;

/// The keys of what runs: "command", "args" (into ARGS) and "env".
bool command_key(const context& cx, std::string_view k, const toml::node& v, gate_case& c,
                 std::vector<std::string>& args) {
  if (k == "command")
    c.argv = texts(cx, v, k);
  else if (k == "args")
    args = texts(cx, v, k);
  else if (k == "env")
    c.env = env_vars(cx, v, k);
  else
    return false;
  return true;
}

/// The keys of where the output goes and how it is read: sinks, watched files, the reader.
bool output_key(const context& cx, std::string_view k, const toml::node& v, gate_case& c) {
  if (k == "stdout")
    c.stdout_sink = sink(cx, v, k);
  else if (k == "stderr")
    c.stderr_sink = stderr_destination(cx, v, k);
  else if (k == "watch")
    c.watch = texts(cx, v, k);
  else if (k == "reader")
    c.reader =
        checked(cx, v, k, [](const std::string& s) { return reader_policy::parse(s).text(); });
  else
    return false;
  return true;
}

/// A case's fault plans, each checked.
std::vector<std::string> fault_specs(const context& cx, const toml::node& v, std::string_view k) {
  if (!v.is_array()) cx.fail(v, "faults: expected an array of strings");
  std::vector<std::string> faults;
  for (const toml::node& f : *v.as_array())
    faults.push_back(checked(cx, f, k, [](const std::string& s) {
      fault_plan::parse(s);
      return s;
    }));
  return faults;
}

/// A cut, checked as kill_plan reads it.
std::string cut_spec(const context& cx, const toml::node& v, std::string_view k) {
  return checked(cx, v, k, [](const std::string& s) {  // "{logdir}" is replaced at the run
    (void)kill_plan::parse(s);
    return s;
  });
}

/// The keys of how the run is cut, faulted and bounded: cut, faults, timeout_ms, traced.
bool ending_key(const context& cx, std::string_view k, const toml::node& v, gate_case& c) {
  if (k == "cut")
    c.cut = cut_spec(cx, v, k);
  else if (k == "faults")
    c.faults = fault_specs(cx, v, k);
  else if (k == "timeout_ms")
    c.timeout_ms = integer_in(cx, v, k, 1, kill_plan::max_time_ms);
  else if (k == "traced")
    c.traced = boolean(cx, v, k);
  else
    return false;
  return true;
}

/// A key of a case (or of [defaults]). ARGS collects "args", appended to
/// the command afterwards. False: not a key of a run.
bool run_key(const context& cx, std::string_view k, const toml::node& v, gate_case& c,
             std::vector<std::string>& args) {
  return command_key(cx, k, v, c, args) || output_key(cx, k, v, c) || ending_key(cx, k, v, c);
}

/// A signal's name, as its number.
long signal_of(const context& cx, const toml::node& v, std::string_view k) {
  auto sig = parse_signal(text(cx, v, k));
  if (!sig) cx.fail(v, std::string(k) + ": expected a signal name such as KILL or SIGTERM");
  return *sig;
}

/// A count or an exit code (from 0), or a marker (from 1); each_once's
/// count at most each_once_most (a counter per record, made at the run).
long number_of(const context& cx, const toml::node& v, const check_kind& kind) {
  const std::string_view k = kind.name;
  const long n = integer(cx, v, k);
  const long least = kind.value == check_value::marker ? 1 : 0;  // markers count from 1
  if (n < least) cx.fail(v, std::string(k) + ": expected a number >= " + std::to_string(least));
  if (kind.id == check_id::each_once && n > each_once_most)
    cx.fail(v, "each_once: counts at most " + std::to_string(each_once_most) +
                   " records (a counter each), not " + std::to_string(n));
  return n;
}

/// The value V of E's check, read as its kind (check_kinds()) takes it.
void set_check(const context& cx, const toml::node& v, gate_expect& e) {
  const check_kind& kind = kind_of(e.check);
  const std::string_view k = kind.name;
  if (kind.value == check_value::flag)
    require_true(cx, v, k);
  else if (kind.value == check_value::pattern_or_flag)
    e.text = pattern_or_true(cx, v, k);
  else if (kind.value == check_value::ratio)
    e.ratio = ratio(cx, v, k);
  else if (kind.value == check_value::signal)
    e.number = signal_of(cx, v, k);
  else
    e.number = number_of(cx, v, kind);
}

/// An expect table's checks, by name, each with its value.
using check_nodes = std::vector<std::pair<std::string, const toml::node*>>;

/// The keys an expect table's checks share (in, holds, text) into COMMON; false: not one.
bool common_key(const context& cx, std::string_view k, const toml::node& v, gate_expect& common) {
  if (k == "in")
    common.in = target(cx, v, k);
  else if (k == "holds")
    common.holds = boolean(cx, v, k);
  else if (k == "text")
    common.text = text(cx, v, k, false);
  else
    return false;
  return true;
}

/// The checks of expect table T; its other keys into COMMON.
check_nodes read_expect_keys(const context& cx, const toml::table& t, gate_expect& common) {
  check_nodes checks;
  for (auto&& [key, v] : t) {
    const std::string_view k = key.str();
    if (common_key(cx, k, v, common)) continue;
    if (find_check(k) == nullptr)
      cx.fail(v, "unknown key '" + std::string(k) + "' in an expect table (the checks: " +
                     check_names() + "; and in, holds, text)");
    checks.emplace_back(std::string(k), &v);
  }
  return checks;
}

/// CHECKS in the order the file has them.
void sort_in_file_order(check_nodes& checks) {
  std::sort(checks.begin(), checks.end(), [](const auto& a, const auto& b) {
    const auto &x = a.second->source().begin, &y = b.second->source().begin;
    return std::pair(x.line, x.column) < std::pair(y.line, y.column);
  });
}

/// text = ... comes with visible_at_marker, and only with it, on stdout or stderr.
void check_marker_text(const context& cx, const gate_expect& common, const check_nodes& checks) {
  const auto is_marker = [](const auto& c) {
    return find_check(c.first)->value == check_value::marker;
  };
  const bool marker = std::any_of(checks.begin(), checks.end(), is_marker);
  if (marker == common.text.empty())
    cx.fail(common.line, marker ? "visible_at_marker needs text = \"what must be visible\""
                                : "text = ... belongs to visible_at_marker");
  if (marker && common.in.is_file())
    cx.fail(common.line, "visible_at_marker reads stdout or stderr, not a file");
}

/// COMMON with the check K, its value V.
gate_expect expect_of(const context& cx, const gate_expect& common, const std::string& k,
                      const toml::node& v) {
  gate_expect e = common;
  e.check = find_check(k)->id;  // read_expect_keys let only checks through
  e.line = static_cast<int>(v.source().begin.line);
  if (kind_of(e.check).value != check_value::marker) e.text.clear();
  set_check(cx, v, e);
  return e;
}

std::vector<gate_expect> parse_expect(const context& cx, const toml::table& t) {
  gate_expect common;
  common.line = static_cast<int>(t.source().begin.line);
  check_nodes checks = read_expect_keys(cx, t, common);
  if (checks.empty()) cx.fail(common.line, "an expect table without a check");
  sort_in_file_order(checks);
  check_marker_text(cx, common, checks);
  std::vector<gate_expect> out;
  for (const auto& [k, v] : checks) out.push_back(expect_of(cx, common, k, *v));
  return out;
}

/// A row's tier: promise or observation.
std::string tier_of(const context& cx, const toml::node& v, std::string_view k) {
  std::string tier = text(cx, v, k);
  if (tier != "promise" && tier != "observation")
    cx.fail(v, "tier: expected promise or observation");
  return tier;
}

/// A key of a row table; false: not one.
bool row_key(const context& cx, std::string_view k, const toml::node& v, gate_row& r) {
  if (k == "config")
    r.config = text(cx, v, k, false);
  else if (k == "death")
    r.death = text(cx, v, k, false);
  else if (k == "note")
    r.note = text(cx, v, k, false);
  else if (k == "in")
    r.in = target(cx, v, k);
  else if (k == "tier")
    r.tier = tier_of(cx, v, k);
  else
    return false;
  return true;
}

gate_row parse_row(const context& cx, const toml::table& t) {
  gate_row r;
  for (auto&& [key, v] : t)
    if (!row_key(cx, key.str(), v, r))
      cx.fail(v, "unknown key '" + std::string(key.str()) +
                     "' in a row table (config, death, tier, note, in)");
  return r;
}

/// "in" names a stream this case has and can read: stdout, stderr unless
/// merged, a watched file; not a sink that keeps nothing (null, full).
void check_source(const context& cx, const gate_case& c, const write_target& in, int line) {
  const std::string name = in.text();
  const std::optional<sink_kind> sink = in.is_out() ? c.stdout_sink : c.stderr_sink.sink();
  if (!in.is_file() && (sink == sink_kind::null || sink == sink_kind::full))
    cx.fail(line, "in = \"" + name + "\", but " + name + " = \"" + std::string(to_string(*sink)) +
                      "\" keeps nothing to read");
  if (in.is_out()) return;
  if (in.is_err()) {
    if (c.stderr_sink.merged())
      cx.fail(line, "in = \"stderr\", but stderr = \"stdout\" merges it into stdout");
    return;
  }
  if (watches(c.watch, in)) return;
  cx.fail(line, "in = \"" + name + "\": expected stdout, stderr or file:NAME with NAME in watch");
}

/// The [[case.expect]] tables V, each check one expectation, onto EXPECT.
void add_expects(const context& cx, const toml::node& v, std::vector<gate_expect>& expect) {
  const toml::array* a = v.as_array();
  if (a == nullptr || !a->is_array_of_tables())
    cx.fail(v, "expect: expected [[case.expect]] tables");
  for (const toml::node& e : *a)
    for (auto& x : parse_expect(cx, *e.as_table())) expect.push_back(x);
}

/// A key of a [[case]] table; false: not one.
bool case_key(const context& cx, std::string_view k, const toml::node& v, gate_case& c,
              std::vector<std::string>& args) {
  if (k == "name")
    c.name = text(cx, v, k);
  else if (k == "expect")
    add_expects(cx, v, c.expect);
  else if (k == "row")
    c.row = parse_row(cx, table(cx, v, k));
  else
    return run_key(cx, k, v, c, args);
  return true;
}

/// ARGS appended to C's command, which it must have.
void append_args(const context& cx, gate_case& c, const std::vector<std::string>& args) {
  if (c.argv.empty())  // args alone are no command: they are appended to one
    cx.fail(c.line, "case '" + c.name + "': no command (command = [...], here or in [defaults])" +
                        (args.empty() ? "" : ": args are appended to it"));
  c.argv.insert(c.argv.end(), args.begin(), args.end());
}

/// C checks something, and each check can read what it reads.
void check_expects(const context& cx, const gate_case& c) {
  if (c.expect.empty())
    cx.fail(c.line, "case '" + c.name + "': no [[case.expect]]: a case must check something");
  for (const auto& e : c.expect) {
    if (!e.reads_status()) check_source(cx, c, e.in, e.line);
    if (e.check == check_id::max_writes_per_record && !c.traced)
      cx.fail(e.line, "max_writes_per_record needs the write counts: not with traced = false");
  }
  if (c.row) check_source(cx, c, c.row->in, c.line);
}

gate_case parse_case(const context& cx, const toml::table& t, const gate_case& defaults,
                     const std::vector<std::string>& default_args) {
  gate_case c = defaults;
  c.line = static_cast<int>(t.source().begin.line);
  std::vector<std::string> args = default_args;
  for (auto&& [key, v] : t)
    if (!case_key(cx, key.str(), v, c, args))
      cx.fail(v, "unknown key '" + std::string(key.str()) +
                     "' in a case (name, command, args, env, stdout, stderr, watch, cut, faults, "
                     "reader, timeout_ms, traced, expect, row)");
  check_test_name(cx, c.name, c.line, "case");
  append_args(cx, c, args);
  check_expects(cx, c);
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

/// V, a --var "NAME=VALUE", into CX's placeholders (NAME not one of the file's own).
void add_var(context& cx, const std::string& v) {
  const auto eq = v.find('=');
  const std::string name = v.substr(0, std::min(eq, v.size()));
  if (eq == std::string::npos || !context::is_name(name))
    throw usage_error("variable " + printable(v, 200) +
                      ": expected NAME=VALUE, NAME of letters, digits and '_'");
  if (name == "here" || name == "records" || name == "logdir")
    throw usage_error("variable " + printable(v, 200) + ": {" + name + "} is the file's own");
  cx.vars[name] = v.substr(eq + 1);
}

/// The placeholders of PATH's strings: "{here}", "{records}" (if RECORDS),
/// and VARS ("NAME=VALUE", not one of those nor "logdir").
context make_context(const std::string& path, const std::vector<std::string>& vars,
                     std::optional<long> records) {
  context cx{path, {{"here", std::filesystem::absolute(path).parent_path().string()}}};
  if (records) cx.vars["records"] = std::to_string(*records);
  for (const auto& v : vars) add_var(cx, v);
  return cx;
}

/// The file's "records", read before the placeholders ("{records}" is it).
std::optional<long> read_records(const toml::table& doc, const std::string& path) {
  const auto r = doc["records"];
  if (!r) return std::nullopt;
  const long records = integer(make_context(path, {}, 0), *r.node(), "records");
  if (records < 0) make_context(path, {}, 0).fail(*r.node(), "records: expected a number >= 0");
  return records;
}

/// A top-level key: library and tag into F, [defaults] into DEFAULTS (its
/// args into ARGS); records, case and property are read on their own.
/// False: not one.
bool file_key(const context& cx, std::string_view k, const toml::node& v, gate_file& f,
              gate_case& defaults, std::vector<std::string>& args) {
  if (k == "library")
    f.library = text(cx, v, k, false);
  else if (k == "tag")
    f.tag = text(cx, v, k, false);
  else if (k == "defaults")
    defaults = parse_defaults(cx, table(cx, v, k), args);
  else
    return k == "records" || k == "case" || k == "property";
  return true;
}

/// The file's top-level keys: library and tag into F; [defaults] returned,
/// its args into ARGS.
gate_case read_file_keys(const context& cx, const toml::table& doc, gate_file& f,
                         std::vector<std::string>& args) {
  gate_case defaults;
  for (auto&& [key, v] : doc)
    if (!file_key(cx, key.str(), v, f, defaults, args))
      cx.fail(v, "unknown key '" + std::string(key.str()) +
                     "' (library, records, tag, defaults, case, property)");
  return defaults;
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

/// The file's [[property]] tables, each starting from [defaults].
std::vector<property_spec> parse_properties(const context& cx, const toml::table& doc) {
  std::vector<property_spec> out;
  if (!doc.contains("property")) return out;
  const toml::array* props = doc["property"].as_array();
  if (props == nullptr || !props->is_array_of_tables())
    cx.fail(*doc.get("property"), "property: expected [[property]] tables");
  const toml::table* defaults = doc["defaults"].as_table();  // read whole by read_file_keys
  for (const toml::node& t : *props) out.push_back(parse_property(cx, *t.as_table(), defaults));
  return out;
}

/// A [defaults] key that only a case takes (cut, faults, reader: a
/// property generates its own) in a file with no [[case]] is used by
/// nothing: refused, never dropped without a word.
void check_defaults_used(const context& cx, const toml::table& doc, const gate_file& f) {
  const toml::table* defaults = doc["defaults"].as_table();
  if (defaults == nullptr || !f.cases.empty()) return;
  for (auto&& [key, v] : *defaults)
    if (key == "cut" || key == "faults" || key == "reader")
      cx.fail(v, "[defaults] " + std::string(key.str()) +
                     " is used by no [[case]]: a [[property]] generates its own cuts, faults "
                     "and readers");
}

/// F runs a case or a property, and each has a name of its own.
void check_runs(const context& cx, const gate_file& f) {
  if (f.cases.empty() && f.properties.empty())
    cx.fail(1, "no [[case]] and no [[property]]: a gate file runs at least one");
  std::set<std::string> names;
  for (const auto& c : f.cases)
    if (!names.insert(c.name).second) cx.fail(c.line, "a second case named '" + c.name + "'");
  for (const auto& p : f.properties)
    if (!names.insert(p.name).second)
      cx.fail(p.line, "a second case or property named '" + p.name + "'");
}

/// What PATH is when it is not a regular file: "a FIFO", "a character device", ...
std::string kind_of_file(std::filesystem::file_type type) {
  using t = std::filesystem::file_type;
  switch (type) {
    case t::directory: return "a directory";
    case t::character: return "a character device";
    case t::block: return "a block device";
    case t::fifo: return "a FIFO";
    case t::socket: return "a socket";
    default: return "of unknown type";
  }
}

/// Throws a usage error unless PATH (symlinks followed) is a regular file:
/// "no such gate file" only when there is none. stat alone: a FIFO is never
/// opened, where a read would wait for a writer.
void require_regular_file(const std::string& path) {
  std::error_code ec;
  const auto type = std::filesystem::status(path, ec).type();
  if (type == std::filesystem::file_type::regular) return;
  if (type == std::filesystem::file_type::not_found)
    throw usage_error(path + ": no such gate file");
  if (ec) throw usage_error(path + ": cannot read it: " + ec.message());
  throw usage_error(path + ": not a regular file (" + kind_of_file(type) + ")");
}

}  // namespace

gate_file parse_gate_file(const std::string& path, const std::vector<std::string>& vars) {
  require_regular_file(path);
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
  const std::optional<long> records = read_records(doc, path);
  if (records) f.records = *records;
  const context cx = make_context(path, vars, records);
  std::vector<std::string> args;
  const gate_case defaults = read_file_keys(cx, doc, f, args);
  f.cases = parse_cases(cx, doc, defaults, args);
  f.properties = parse_properties(cx, doc);
  check_runs(cx, f);
  check_defaults_used(cx, doc, f);
  return f;
}

}  // namespace flushcheck
