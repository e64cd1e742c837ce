// The helper conformance kit's workloads and their comparison with the C
// reference (workload_check.hpp).
#include "workload_check.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "error.hpp"
#include "escape.hpp"
#include "gate.hpp"

namespace flushcheck {

namespace {

/// OPS split at "; " into one argument each, as property gates pass a workload.
std::vector<std::string> ops(const std::string& text) {
  std::vector<std::string> out;
  for (std::size_t at = 0; at <= text.size();) {
    const auto end = std::min(text.find("; ", at), text.size());
    if (end > at) out.push_back(text.substr(at, end - at));
    at = end + 2;
  }
  return out;
}

/// N ops OP, then END: a workload at the bound (or one past it), a
/// thousand ops an argument (one argument each would pass ARG_MAX).
std::vector<std::string> many(std::size_t n, const std::string& op, const std::string& end) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < n; ++i) {
    if (i % 1000 == 0) out.emplace_back();
    out.back() += (i % 1000 ? ";" : "") + op;
  }
  if (!end.empty()) out.push_back(end);
  return out;
}

/// `threads K` then COUNT records, then `return 0`.
std::vector<std::string> threaded(int k, int count) {
  std::vector<std::string> out = {"log info 0", "threads " + std::to_string(k)};
  for (int i = 0; i < count; ++i) out.push_back(i % 7 == 3 ? "flush" : "log info 10");
  out.push_back("return 0");
  return out;
}

kit_case valid(std::string name, std::string workload, std::string what,
               kit_compare compare = kit_compare::same, std::string may_refuse = "") {
  return {std::move(name), ops(workload), compare, std::move(may_refuse), std::move(what)};
}

kit_case malformed(std::string name, std::vector<std::string> args, std::string may_refuse = "") {
  return {std::move(name), std::move(args), kit_compare::refusal, std::move(may_refuse),
          "refused before anything runs: one line on stderr, exit 64"};
}

/// The valid workloads: the records, flushes, markers, threads and ends.
std::vector<kit_case> valid_cases() {
  return {
      valid("records",
            "log debug 0; log info 5; log warn 6; log error 200; log info 4095; "
            "log info 4096; log info 4097; return 0",
            "records 0..6 at each level, in order, each message padded to its size"),
      valid("a_large_record", "log info 1048576; log info 0; return 0",
            "a record of the largest size, 1048576 bytes"),
      valid("flush", "log info 1; log warn 2; flush; marker flushed; log info 3; return 0",
            "what a flush wrote is at the reader when the next marker is reached"),
      valid("markers", "marker first; log info 0; marker second; return 0",
            "markers in order, with their labels"),
      valid("return", "log info 0; return 7", "return N: main returns N"),
      valid("no_end", "log info 0; log info 1", "no end op: main returns 0"),
      {"nothing", {}, kit_compare::same, "", "no op at all: main returns 0"},
      {"one_argument",
       {"log info 0;log info 1\nlog info 2 ;  return 0"},
       kit_compare::same,
       "",
       "ops in one argument, split at ';' and newlines, spaces around"},
      valid("sleep", "sleep 1; log info 0; sleep 0; return 0", "sleep MS"),
      valid("exit", "log info 0; exit 3", "exit N: the status (its records are the language's)",
            kit_compare::status),
      valid("underscore_exit", "log info 0; _exit 4", "_exit N: the status", kit_compare::status),
      valid("abort", "log info 0; abort", "abort: SIGABRT", kit_compare::status, "abort"),
      valid("raise_term", "log info 0; raise TERM", "raise TERM: SIGTERM", kit_compare::status,
            "raise"),
      valid("raise_number", "raise 15", "raise 15: SIGTERM", kit_compare::status, "raise"),
      valid("raise_ignored", "raise SIGCHLD", "a signal that does not end it: then main returns 0",
            kit_compare::status, "raise"),
      {"threads", threaded(4, 60), kit_compare::same_set, "threads",
       "threads 4: each record once, by one thread"},
      {"threads_64", threaded(64, 200), kit_compare::same_set, "threads",
       "threads 64: each record once"},
      valid("throw", "log info 0; throw", "throw: an uncaught exception ends it abnormally",
            kit_compare::uncaught, "throw"),
      {"many_ops", many(99999, "log info 0", "return 0"), kit_compare::same, "",
       "100000 ops, the most a workload may have, parsed in linear time"},
  };
}

/// The malformed workloads: each refused alike, with the reference's words.
std::vector<kit_case> malformed_cases() {
  return {
      malformed("unknown_level", {"log loud 3"}),
      malformed("log_without_size", {"log info"}),
      malformed("size_not_a_number", {"log info x"}),
      malformed("size_too_large", {"log info 1048577"}),
      malformed("size_of_5000_digits", {"log info " + std::string(5000, '7')}),
      malformed("sleep_too_long", {"sleep 600001"}),
      malformed("sleep_negative", {"sleep -1"}),
      malformed("unknown_op", {"log info 1", "frob"}),
      malformed("too_many_arguments", {"log info 1 2 3"}),
      malformed("flush_with_an_argument", {"flush now"}),
      malformed("marker_without_label", {"marker"}),
      malformed("marker_label_too_long", {"marker " + std::string(64, 'm')}),
      malformed("one_thread", {"threads 1"}, "threads"),
      malformed("too_many_threads", {"threads 65"}, "threads"),
      malformed("a_second_threads", {"threads 2", "threads 3"}, "threads"),
      malformed("a_marker_after_threads", {"threads 2", "marker m"}, "threads"),
      malformed("an_op_after_the_end", {"return 0", "log info 1"}),
      malformed("exit_status_too_large", {"return 256"}),
      malformed("exit_without_status", {"exit"}),
      malformed("raise_stop", {"log info 0", "raise STOP"}, "raise"),
      malformed("raise_sigtstp", {"raise SIGTSTP"}, "raise"),
      malformed("raise_65", {"raise 65"}, "raise"),
      malformed("raise_unknown", {"raise SIGNOPE"}, "raise"),
      malformed("ops_past_the_bound", many(100001, "log info 0", "")),
  };
}

}  // namespace

const std::vector<kit_case>& kit_cases() {
  static const std::vector<kit_case> all = [] {
    std::vector<kit_case> out = valid_cases();
    const auto bad = malformed_cases();
    out.insert(out.end(), bad.begin(), bad.end());
    return out;
  }();
  return all;
}

namespace {

/// The message of the record whose "rec N" starts at AT in LINE: "rec N",
/// and when padded, a space and the 'x's after it.
std::string message_at(const std::string& line, std::size_t at) {
  std::size_t end = line.find_first_not_of("0123456789", at + 4);
  if (end == std::string::npos) end = line.size();
  if (end + 1 < line.size() && line[end] == ' ' && line[end + 1] == 'x')
    end = std::min(line.find_first_not_of('x', end + 1), line.size());
  return line.substr(at, end - at);
}

/// The whole lines of TEXT (a last line without '\n' is cut short: left out).
std::vector<std::string> whole_lines(const std::string& text) {
  std::vector<std::string> out;
  for (std::size_t at = 0; at < text.size();) {
    const auto nl = text.find('\n', at);
    if (nl == std::string::npos) break;
    out.push_back(text.substr(at, nl - at));
    at = nl + 1;
  }
  return out;
}

/// The records of TEXT's whole lines, in order, with their messages into MESSAGES.
std::vector<long> records_of(const std::string& text,
                             std::vector<std::pair<long, std::string>>* messages) {
  std::vector<long> out;
  for (const auto& line : whole_lines(text)) {
    const auto at = line.find("rec ");
    if (at == std::string::npos || at + 4 >= line.size() || !std::isdigit(line[at + 4])) continue;
    out.push_back(std::strtol(line.c_str() + at + 4, nullptr, 10));
    if (messages) messages->emplace_back(out.back(), message_at(line, at));
  }
  return out;
}

}  // namespace

protocol_view view_of(const observation& obs) {
  protocol_view v;
  v.status = obs.status;
  v.records = records_of(obs.out.data, &v.messages);
  for (const auto& m : obs.markers) {
    v.markers.push_back(m.label);
    v.seen_at_marker.push_back(records_of(
        obs.out.data.substr(0, std::min(m.stdout_visible, obs.out.data.size())), nullptr));
  }
  std::string err = obs.err.data;
  while (!err.empty() && err.back() == '\n') err.pop_back();
  std::istringstream in(err);
  for (std::string line; std::getline(in, line);) v.stderr_lines.push_back(line);
  return v;
}

namespace {

/// "[0 1 2 ... (N)]": a list of records for a message.
std::string list_text(const std::vector<long>& v) {
  std::string out = "[";
  for (std::size_t i = 0; i < v.size() && i < 12; ++i) out += (i ? " " : "") + std::to_string(v[i]);
  if (v.size() > 12) out += " ... (" + std::to_string(v.size()) + ")";
  return out + "]";
}

/// A malformed workload's line from "bad workload: " on (the driver names itself before it).
std::string refusal_words(const protocol_view& v) {
  if (v.stderr_lines.size() != 1) return "";
  const auto at = v.stderr_lines[0].find("bad workload: ");
  return at == std::string::npos ? "" : v.stderr_lines[0].substr(at);
}

/// Why V is not a refusal (exit 64, one line "NAME: bad workload: ..."), or "".
std::string not_a_refusal(const protocol_view& v) {
  if (v.status != wait_status::exited(64)) return "it " + v.status.describe() + ", not exit 64";
  if (v.stderr_lines.size() != 1)
    return std::to_string(v.stderr_lines.size()) + " lines on stderr, not one";
  if (refusal_words(v).empty())
    return "its line is not \"NAME: bad workload: op K 'OP': WHY\": \"" +
           printable(v.stderr_lines[0], 200) + "\"";
  return "";
}

/// The index and the text the refusal of C's first op named OP shows:
/// "op K 'TEXT'", with TEXT as the helpers show it (79 bytes at most).
std::string refused_op(const kit_case& c, const std::string& op) {
  std::vector<std::string> all;
  for (const auto& a : c.args) {
    std::istringstream in(a);
    for (std::string piece; std::getline(in, piece, ';');) all.push_back(piece);
  }
  long index = 0;
  for (const auto& piece : all) {
    const auto first = piece.find_first_not_of(" \t\r");
    if (first == std::string::npos) continue;
    if (piece.compare(first, op.size(), op) == 0)
      return "bad workload: op " + std::to_string(index) + " '" + piece.substr(first, 79) + "': ";
    ++index;
  }
  return "";
}

/// Whether DRIVER refused C's op that a language without it may refuse.
bool refused_as_allowed(const kit_case& c, const protocol_view& driver) {
  if (c.may_refuse.empty() || !not_a_refusal(driver).empty()) return false;
  const std::string want = refused_op(c, c.may_refuse);
  return !want.empty() && refusal_words(driver).rfind(want, 0) == 0;
}

std::string compare_refusal(const protocol_view& driver, const protocol_view& reference) {
  if (const auto why = not_a_refusal(driver); !why.empty()) return why;
  if (refusal_words(driver) != refusal_words(reference))
    return "it said \"" + printable(refusal_words(driver), 200) + "\", the reference \"" +
           printable(refusal_words(reference), 200) + "\"";
  return "";
}

/// A and B ended alike: the same status, or the same signal (a core dumped or not).
bool same_end(const wait_status& a, const wait_status& b) {
  if (a.type() != b.type()) return false;
  if (a.type() == wait_status::kind::exited) return a.code() == b.code();
  return a.type() != wait_status::kind::signaled || a.signal() == b.signal();
}

std::string compare_status(const protocol_view& driver, const protocol_view& reference) {
  if (same_end(driver.status, reference.status)) return "";
  return "it " + driver.status.describe() + ", the reference " + reference.status.describe();
}

/// Each record's message as the reference's, by number.
std::string compare_messages(const protocol_view& driver, const protocol_view& reference) {
  std::map<long, std::string> want(reference.messages.begin(), reference.messages.end());
  for (const auto& [n, message] : driver.messages) {
    const auto it = want.find(n);
    if (it != want.end() && it->second != message)
      return "record " + std::to_string(n) + "'s message is " + std::to_string(message.size()) +
             " bytes (\"" + printable(message, 40) + "\"), the reference's " +
             std::to_string(it->second.size());
  }
  return "";
}

/// At each marker, the driver's reader had every record the reference's had.
std::string compare_markers(const protocol_view& driver, const protocol_view& reference) {
  if (driver.markers != reference.markers)
    return "it reached " + std::to_string(driver.markers.size()) + " markers, the reference " +
           std::to_string(reference.markers.size()) + " (labels as given)";
  for (std::size_t i = 0; i < driver.markers.size(); ++i) {
    const auto& have = driver.seen_at_marker[i];
    for (long n : reference.seen_at_marker[i])
      if (std::find(have.begin(), have.end(), n) == have.end())
        return "at marker '" + driver.markers[i] + "' its reader lacked record " +
               std::to_string(n) + " (flushed before it): had " + list_text(have);
  }
  return "";
}

std::string compare_records(const kit_case& c, const protocol_view& driver,
                            const protocol_view& reference) {
  std::vector<long> have = driver.records, want = reference.records;
  if (c.compare == kit_compare::same_set) {
    std::sort(have.begin(), have.end());
    std::sort(want.begin(), want.end());
  }
  if (have != want)
    return "records arrived as " + list_text(driver.records) + ", the reference's " +
           list_text(reference.records);
  return compare_messages(driver, reference);
}

std::string compare_uncaught(const protocol_view& driver) {
  if (driver.status == wait_status::exited(0)) return "it exited 0: no uncaught exception ended it";
  if (driver.status.type() == wait_status::kind::timeout) return "it did not end";
  if (not_a_refusal(driver).empty())  // a refusal that names `throw` passes as allowed
    return "it refused the workload (\"" + printable(refusal_words(driver), 200) +
           "\"): no uncaught exception ended it";
  return "";
}

/// Why DRIVER's run of C differs from the reference's, refusals aside.
std::string difference(const kit_case& c, const protocol_view& driver,
                       const protocol_view& reference) {
  switch (c.compare) {
    case kit_compare::refusal: return compare_refusal(driver, reference);
    case kit_compare::status: return compare_status(driver, reference);
    case kit_compare::uncaught: return compare_uncaught(driver);
    default: break;
  }
  for (const auto& why : {compare_status(driver, reference), compare_markers(driver, reference),
                          compare_records(c, driver, reference)})
    if (!why.empty()) return why;
  return "";
}

}  // namespace

std::string kit_difference(const kit_case& c, const protocol_view& driver,
                           const protocol_view& reference) {
  if (driver.status.type() == wait_status::kind::timeout)
    return "it did not end within its timeout (a workload parsed in linear time takes well under "
           "a second)";
  const std::string why = difference(c, driver, reference);
  return why.empty() || refused_as_allowed(c, driver) ? "" : why;
}

namespace {

/// ARGV with C's workload, run with O's environment and timeout, stdout kept whole.
protocol_view run_case(const std::vector<std::string>& argv, const kit_case& c,
                       const workload_check_options& o) {
  std::vector<std::string> all = argv;
  all.insert(all.end(), c.args.begin(), c.args.end());
  gate_run g(all);
  for (const auto& e : o.env) g.env(e);
  g.timeout(o.timeout).on_spawn(o.on_spawn).untraced();
  return view_of(g.run().obs);
}

}  // namespace

long workload_check_report::failed() const {
  return static_cast<long>(
      std::count_if(results.begin(), results.end(), [](const auto& r) { return !r.pass; }));
}

workload_check_report check_workload_helper(const workload_check_options& o) {
  workload_check_report report{o.driver, o.reference, {}};
  for (const auto& c : kit_cases()) {
    const protocol_view reference = run_case(o.reference, c, o);
    const protocol_view driver = run_case(o.driver, c, o);
    kit_result r{c.name, c.what, false, kit_difference(c, driver, reference)};
    r.pass = r.why.empty();
    if (o.on_result) o.on_result(r);
    report.results.push_back(std::move(r));
  }
  return report;
}

}  // namespace flushcheck
