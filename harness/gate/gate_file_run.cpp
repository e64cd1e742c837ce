// A gate file's case, run: its gate_run, then each expectation as the
// gate check of gate.hpp it names, on the stream it names.
#include <chrono>
#include <map>

#include "gate_file.hpp"

#include "error.hpp"
#include "logger_table.hpp"
#include "signals.hpp"

namespace flushcheck {

std::string gate_expect::describe() const {
  std::string what = check;
  if (check == "no_torn_record")
    what += text.empty() ? "" : " '" + text + "'";
  else if (check == "max_writes_per_record")
    what += " " + loggers::ratio_text(ratio);
  else if (check == "signal")
    what += " " + signal_name(static_cast<int>(number));
  else if (check != "in_order")
    what += " " + std::to_string(number);
  if (check == "visible_at_marker") what += " '" + text + "'";
  if (check != "exit_code" && check != "signal") what += " in " + in;
  return holds ? what : what + " (must fail)";
}

std::string gate_check_result::failure() const {
  if (!outcome.checked) return expect.describe() + ": could not check: " + outcome.why;
  return expect.describe() + ": " + (expect.holds ? "" : "it held: ") + outcome.why;
}

bool gate_case_result::pass() const {
  if (!error.empty()) return false;
  for (const auto& c : checks)
    if (!c.pass()) return false;
  return true;
}

namespace {

gate_run make_run(const gate_case& c) {
  gate_run g(c.argv);
  g.stdout_to(*parse_sink_kind(c.stdout_sink));
  if (c.stderr_sink == "stdout")
    g.stderr_to_stdout();
  else
    g.stderr_to(*parse_sink_kind(c.stderr_sink));
  for (const auto& e : c.env) g.env(e);
  for (const auto& w : c.watch) g.watch(w);
  for (const auto& f : c.faults) g.fault(f);
  g.cut(kill_plan::parse(c.cut)).reader(c.reader).timeout(std::chrono::milliseconds(c.timeout_ms));
  if (!c.traced) g.untraced();
  return g;
}

/// The text an expectation reads, and the write calls that brought it (-1:
/// not counted); nullptr when a watched file was not written.
struct source {
  const std::string* text = nullptr;
  long writes = -1;
};

source source_of(const gate_result& r, const std::string& in) {
  const bool traced = r.obs.trace.has_value();
  if (in == "stdout") return {&r.obs.out.data, traced ? r.stdout_writes() : -1};
  if (in == "stderr") return {&r.obs.err.data, traced ? r.stderr_writes() : -1};
  auto it = r.files.find(in.substr(5));  // "file:NAME"
  if (it == r.files.end()) return {};
  return {&it->second.content, it->second.write_calls};
}

gate_check max_writes(const source& s, double ratio, const std::string& tag) {
  if (s.writes < 0) return {false, "write calls were not counted (traced = false)", false};
  const long n = static_cast<long>(record_numbers(*s.text, tag).size());
  if (n == 0)
    return {false, "no record arrived (" + std::to_string(s.writes) + " write calls)", false};
  const bool ok = static_cast<double>(s.writes) <= ratio * static_cast<double>(n);
  return {ok, std::to_string(n) + " records arrived in " + std::to_string(s.writes) +
                  " write calls (" + loggers::per_record(s.writes, n) + " per record; at most " +
                  loggers::ratio_text(ratio) + ")"};
}

gate_check status_check(const gate_result& r, const gate_expect& e) {
  const wait_status& st = r.obs.status;
  const bool ok = e.check == "exit_code"
                      ? st.type() == wait_status::kind::exited && st.code() == e.number
                      : st.type() == wait_status::kind::signaled && st.signal() == e.number;
  return {ok, "the program " + st.describe()};
}

gate_check evaluate_text(const gate_result& r, const gate_expect& e, const std::string& tag,
                         const source& s) {
  const std::string& t = *s.text;
  if (e.check == "records_through") return records_through(t, e.number, tag);
  if (e.check == "records_prefix") return records_prefix(t, e.number, tag);
  if (e.check == "in_order") return records_in_order(t, tag);
  if (e.check == "each_once") return records_each_once(t, e.number, tag);
  if (e.check == "no_torn_record")
    return e.text.empty() ? no_torn_record(t) : no_torn_record(t, e.text);
  if (e.check == "max_writes_per_record") return max_writes(s, e.ratio, tag);
  if (e.in.rfind("file:", 0) == 0) return {false, "visible_at_marker reads stdout or stderr"};
  return visible_at_marker(r.obs, static_cast<std::size_t>(e.number), e.in == "stderr", e.text);
}

gate_check evaluate(const gate_result& r, const gate_expect& e, const std::string& tag) {
  if (e.check == "exit_code" || e.check == "signal") return status_check(r, e);
  const source s = source_of(r, e.in);
  if (s.text != nullptr) return evaluate_text(r, e, tag, s);
  // A log file never created is a log where nothing arrived (winston's file
  // when the program exits first), checked as that: not "could not check".
  static const std::string nothing;
  gate_check c = evaluate_text(r, e, tag, {&nothing, r.obs.trace ? 0 : -1});
  c.why = "the log file '" + e.in.substr(5) + "' was never created: " + c.why;
  return c;
}

/// Per stream or log file a check of C reads: how many records arrived.
std::map<std::string, long> records_arrived(const gate_result& r, const gate_case& c,
                                            const std::string& tag) {
  std::map<std::string, long> arrived;
  for (const auto& e : c.expect) {
    if (e.check == "exit_code" || e.check == "signal" || arrived.contains(e.in)) continue;
    const source s = source_of(r, e.in);
    arrived[e.in] = s.text == nullptr ? 0 : static_cast<long>(record_numbers(*s.text, tag).size());
  }
  return arrived;
}

/// The case's row in docs/loggers.md, when it has one.
std::optional<loggers::row> row_of(const gate_file& f, const gate_case& c, const gate_result& r) {
  if (!c.row) return std::nullopt;
  const source s = source_of(r, c.row->in);
  const std::string none;
  const std::string& text = s.text != nullptr ? *s.text : none;
  const std::string dest = c.row->in == "stdout"   ? c.stdout_sink
                           : c.row->in == "stderr" ? c.stderr_sink
                                                   : "file";
  const long n = loggers::survived(text, f.tag);
  return loggers::row{f.library,
                      c.row->config,
                      dest,
                      c.row->death,
                      f.records,
                      n,
                      s.writes < 0 ? "-" : loggers::per_record(s.writes, n),
                      c.row->tier,
                      c.row->note};
}

}  // namespace

gate_case_result run_gate_case(const gate_file& file, const gate_case& c,
                               std::function<void(int)> on_spawn) {
  gate_case_result out;
  out.name = c.name;
  const auto start = std::chrono::steady_clock::now();
  gate_result r;
  try {
    r = make_run(c).on_spawn(std::move(on_spawn)).run();
  } catch (const spawn_error& e) {
    out.error = std::string("cannot start ") + e.what();
    return out;
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  out.status = r.obs.status.describe();
  out.repro = r.repro;
  for (const auto& e : c.expect) out.checks.push_back({e, evaluate(r, e, file.tag)});
  out.arrived = records_arrived(r, c, file.tag);
  out.row = row_of(file, c, r);
  return out;
}

}  // namespace flushcheck
