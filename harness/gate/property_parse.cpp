// A [[property]] table into a property_spec: every key known, every value
// of its type, every name one the generator knows, before anything runs.
#include "property_parse.hpp"

#include <algorithm>

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

/// How a promise term is written: by its name alone ("all"; all = true in
/// a table), with a value in a table, or either (no_torn_record).
enum class term_value { flag, pattern_or_flag, level, count, ratio };

/// The terms of a promise (docs/gate.md, "Promises"): the one table their
/// parser, its messages and the flags they set read.
struct promise_term {
  promise_term_id id;
  term_value value;
  bool promise::*flag = nullptr;  ///< set by the name alone
  std::string_view hint = "";     ///< the value in a table, for messages
};
constexpr promise_term k_terms[] = {
    {promise_term_id::all, term_value::flag, &promise::all},
    {promise_term_id::through_last_flush, term_value::flag, &promise::through_last_flush},
    {promise_term_id::prefix, term_value::flag, &promise::prefix},
    {promise_term_id::each_once, term_value::flag, &promise::each_once},
    {promise_term_id::in_order, term_value::flag, &promise::in_order},
    {promise_term_id::no_torn_record, term_value::pattern_or_flag, &promise::no_torn_record,
     "'REGEX'"},
    {promise_term_id::through_last_level, term_value::level, nullptr, "\"LEVEL\""},
    {promise_term_id::lost_at_most, term_value::count, nullptr, "N"},
    {promise_term_id::max_writes_per_record, term_value::ratio, nullptr, "N"},
};

const promise_term* find_term(std::string_view name) {
  for (const auto& t : k_terms)
    if (term_name(t.id) == name) return &t;
  return nullptr;
}

/// "expected all, ..., no_torn_record, or nothing; no_torn_record = 'REGEX', ... in a table".
std::string terms_list() {
  std::string names, valued;
  for (const auto& t : k_terms) {
    const std::string name(term_name(t.id));
    if (t.flag != nullptr) names += name + ", ";
    if (!t.hint.empty())
      valued += (valued.empty() ? "" : ", ") + name + " = " + std::string(t.hint);
  }
  return "expected " + names + "or nothing; " + valued + " in a table";
}

/// One term of a promise by its name alone: "all", "prefix", ... ("nothing" sets NOTHING).
void add_term(const context& cx, const toml::node& at, const std::string& name, promise& p,
              bool& nothing) {
  const promise_term* t = find_term(name);
  if (t != nullptr && t->flag != nullptr)
    p.*(t->flag) = true;
  else if (name == "nothing")
    nothing = true;
  else
    cx.fail(at, "promise '" + name + "': " + terms_list());
}

/// Term T with its VALUE, in a table.
void set_term(const context& cx, const promise_term& t, const toml::node& value, promise& p) {
  const std::string_view name = term_name(t.id);
  switch (t.value) {
    case term_value::flag:
      require_true(cx, value, name);
      p.*(t.flag) = true;
      break;
    case term_value::pattern_or_flag:
      p.torn_pattern = pattern_or_true(cx, value, name);
      p.*(t.flag) = true;
      break;
    case term_value::level: p.through_last_level = level_of(cx, value, name); break;
    case term_value::count:
      p.lost_at_most = integer(cx, value, name);
      if (*p.lost_at_most < 0) cx.fail(value, std::string(name) + ": expected a number >= 0");
      break;
    case term_value::ratio: p.max_writes_per_record = ratio(cx, value, name); break;
  }
}

/// One key of a promise's table: a term with its value, or a term = true.
/// A term = false checks nothing, and a key that is no term is a typo: both refused.
void promise_table_key(const context& cx, const std::string& k, const toml::node& value,
                       promise& p) {
  const promise_term* t = find_term(k);
  if (t == nullptr) cx.fail(value, "promise '" + k + "': " + terms_list());
  set_term(cx, *t, value, p);
}

/// A promise's table: { through_last_level = "error", prefix = true, max_writes_per_record = 1 }.
promise promise_table(const context& cx, const toml::table& t) {
  promise p;
  for (auto&& [key, value] : t) promise_table_key(cx, std::string(key.str()), value, p);
  return p;
}

/// The terms of an array: each a term's name or a table of terms
/// (["all", "no_torn_record", { max_writes_per_record = 1 }]).
promise promise_array(const context& cx, const toml::array& a, std::string_view end,
                      bool& nothing) {
  promise p;
  for (const toml::node& term : a) {
    if (term.is_table())
      p.add(promise_table(cx, *term.as_table()));
    else if (term.is_string())
      add_term(cx, term, *term.value<std::string>(), p, nothing);
    else
      cx.fail(term, std::string(end) + ": expected a term's name or a table of terms");
  }
  return p;
}

/// An end's promise: "all", ["all", "prefix"], or { through_last_level = "error", prefix = true }.
/// One that checks nothing is refused unless it says "nothing": an empty
/// promise would pass whatever the library did.
promise parse_promise(const context& cx, const toml::node& v, std::string_view end) {
  promise p;
  bool nothing = false;
  if (v.is_string())
    add_term(cx, v, text(cx, v, end), p, nothing);
  else if (v.is_array())
    p = promise_array(cx, *v.as_array(), end, nothing);
  else if (v.is_table())
    p = promise_table(cx, *v.as_table());
  else
    cx.fail(v, std::string(end) + ": expected a promise: a string, an array of them, or a table");
  if (nothing && !p.empty()) cx.fail(v, std::string(end) + ": \"nothing\" goes with no other term");
  if (!nothing && p.empty())
    cx.fail(v, std::string(end) + ": an empty promise checks nothing (say \"nothing\" to " +
                   "generate this end and check only [property.always])");
  return p;
}

/// "return, exit, _exit, ...": the ends a promise may name.
std::string ends_list() {
  std::string out;
  for (property_end e : property_ends()) out += (out.empty() ? "" : ", ") + end_name(e);
  return out;
}

std::map<property_end, promise> parse_promises(const context& cx, const toml::table& t) {
  std::map<property_end, promise> out;
  for (auto&& [key, v] : t) {
    const auto end = parse_end(std::string(key.str()));
    if (!end)
      cx.fail(v, "unknown end '" + std::string(key.str()) + "' in [property.promise] (" +
                     ends_list() + ")");
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
    p.command = raw_texts(cx, v, k);
  } else if (k == "env") {
    p.env = env_vars(cx, v, k);
    p.raw_env = raw_env_vars(cx, v, k);
  } else {
    return false;
  }
  return true;
}

/// The sinks a property's stdout may go to: pipe, pty, file.
std::vector<sink_kind> stdout_sinks(const context& cx, const toml::node& v, std::string_view k) {
  std::vector<sink_kind> out;
  for (const auto& name : names_of(cx, v, k, {"pipe", "pty", "file"}))
    out.push_back(*parse_sink_kind(name));  // names_of took only these
  return out;
}

/// Where a property's TERM and KILL may come: marker, write, time.
std::vector<kill_plan::when_kind> cut_kinds(const context& cx, const toml::node& v,
                                            std::string_view k) {
  using when_kind = kill_plan::when_kind;
  std::vector<when_kind> out;
  for (const auto& name : names_of(cx, v, k, {"marker", "write", "time"}))
    for (when_kind w : {when_kind::marker, when_kind::write, when_kind::time})
      if (to_string(w) == name) out.push_back(w);
  return out;
}

/// The keys of where the records are: watch, in, and the sinks.
bool stream_key(const context& cx, std::string_view k, const toml::node& v, property_spec& p) {
  if (k == "watch") {
    p.watch = texts(cx, v, k);
    p.raw_watch = raw_texts(cx, v, k);
  } else if (k == "in") {
    p.in = target(cx, v, k);
    p.raw_in = raw_text(cx, v, k);
  } else if (k == "stdout") {
    p.sinks = stdout_sinks(cx, v, k);
  } else if (k == "stderr") {
    p.stderr_sink = stderr_destination(cx, v, k);
  } else {
    return false;
  }
  return true;
}

/// At most this many threads: 0 (one) or 2 to 16.
int threads_of(const context& cx, const toml::node& v, std::string_view k) {
  const long threads = integer(cx, v, k);  // checked before it is narrowed
  if (threads != 0 && (threads < 2 || threads > 16))
    cx.fail(v, "threads: expected 0 (one thread) or 2 to 16");
  return static_cast<int>(threads);
}

/// The keys of what is generated: levels, threads, cuts, faults.
bool generated_key(const context& cx, std::string_view k, const toml::node& v, property_spec& p) {
  if (k == "levels") {
    p.levels = names_of(cx, v, k, workload_levels());
  } else if (k == "threads") {
    p.threads = threads_of(cx, v, k);
  } else if (k == "cuts") {
    p.cuts = cut_kinds(cx, v, k);
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
    if (always.empty()) cx.fail(v, "[property.always] is empty: it checks nothing");
  } else {
    return false;
  }
  return true;
}

/// The keys of how the cases run and what they pin: timeout_ms, traced,
/// holds, cases, max_seconds, finding.
bool limits_key(const context& cx, std::string_view k, const toml::node& v, property_spec& p) {
  if (k == "timeout_ms") {
    p.timeout_ms = integer_in(cx, v, k, 1, 600000);
  } else if (k == "traced") {
    p.traced = boolean(cx, v, k);
  } else if (k == "holds") {
    p.holds = boolean(cx, v, k);
  } else if (k == "cases") {
    p.cases = integer_in(cx, v, k, 1, 1000000);
  } else if (k == "max_seconds") {
    p.max_seconds = integer_in(cx, v, k, 1, 86400);
  } else if (k == "finding") {
    p.finding = text(cx, v, k, false);
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
  if (p.in.is_file() && !watches(p.watch, p.in))
    cx.fail(p.line, what + "in = \"" + p.in.text() +
                        "\": expected stdout, stderr or file:NAME with NAME in watch");
  const std::optional<sink_kind> err = p.stderr_sink.sink();
  if (p.in.is_err() && err != sink_kind::pipe && err != sink_kind::pty && err != sink_kind::file)
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

/// [defaults]' args: as run, and as the file spells them.
struct default_args {
  std::vector<std::string> expanded, raw;
};

/// The [defaults] keys that are a case's alone: a property generates its
/// cuts, faults and readers (gate_file_parse.cpp refuses them in a file
/// with no [[case]], where they would be used by nothing).
bool case_only_key(std::string_view k) { return k == "cut" || k == "faults" || k == "reader"; }

/// A [defaults] key that a property takes as a case does (command, args,
/// env, watch, stdout, stderr, timeout_ms, traced) into P, "args" into ARGS.
void default_key(const context& cx, std::string_view k, const toml::node& v, property_spec& p,
                 default_args& args) {
  if (k == "args" || case_only_key(k)) p.undone_defaults.emplace_back(k);
  if (k == "args") {
    args = {texts(cx, v, k), raw_texts(cx, v, k)};
  } else if (k == "stdout" && v.is_string()) {  // a case's one sink: the property's only one
    p.sinks = stdout_sinks(cx, v, k);
  } else if (!case_only_key(k) && !driver_key(cx, k, v, p) && !stream_key(cx, k, v, p)) {
    limits_key(cx, k, v, p);  // timeout_ms, traced: [defaults] has no other key
  }
}

/// ARGS (as the file spells them) appended to P's command, as a case's
/// [defaults] args are: the workload's ops come after them.
void append_args(const default_args& args, property_spec& p) {
  p.argv.insert(p.argv.end(), args.expanded.begin(), args.expanded.end());
  p.command.insert(p.command.end(), args.raw.begin(), args.raw.end());
}

}  // namespace

property_spec parse_property(const context& cx, const toml::table& t, const toml::table* defaults) {
  property_spec p;
  promise always;
  default_args args;
  p.line = line_of(t);
  if (defaults != nullptr)
    for (auto&& [key, v] : *defaults) default_key(cx, key.str(), v, p, args);
  for (auto&& [key, v] : t)
    if (!property_key(cx, key.str(), v, p, always))
      cx.fail(v, "unknown key '" + std::string(key.str()) +
                     "' in a property (name, command, env, watch, in, stdout, stderr, levels, "
                     "threads, cuts, faults, promise, always, timeout_ms, traced, holds, cases, "
                     "finding)");
  append_args(args, p);
  check_test_name(cx, p.name, p.line, "property");
  finish(cx, always, p);
  return p;
}

}  // namespace flushcheck
