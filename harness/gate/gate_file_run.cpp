// A gate file's case, run: its gate_run, then each expectation as the
// gate check of gate.hpp it names, on the stream it names.
#include <chrono>
#include <map>

#include "gate_file.hpp"

#include "error.hpp"
#include "logger_table.hpp"

namespace flushcheck {

std::string gate_check_result::failure() const {
  if (!outcome.checked) return expect.describe() + ": could not check: " + outcome.why;
  return expect.describe() + ": " + (expect.holds ? "" : "it held: ") + outcome.why;
}

bool gate_case_result::pass() const {
  if (!error.empty() || !harness_failure.empty()) return false;
  for (const auto& c : checks)
    if (!c.pass()) return false;
  return true;
}

namespace {

/// C's run: its expectations checked as the bytes arrive, nothing kept of
/// the streams (the reports carry no text; the repro line repeats the run).
gate_run make_run(const gate_file& file, const gate_case& c) {
  gate_run g(c.argv);
  g.sinks(c.stdout_sink, c.stderr_sink);
  for (const auto& e : c.env) g.env(e);
  for (const auto& w : c.watch) g.watch(w);
  for (const auto& f : c.faults) g.fault(f);
  for (const auto& e : c.expect) g.expect(e);
  g.cut(c.cut).reader(c.reader).timeout(std::chrono::milliseconds(c.timeout_ms));
  g.tag(file.tag).keep({keep_policy::kind::none, 0});
  if (!c.traced) g.untraced();
  return g;
}

/// Records that arrived in IN (0 for a stream the run did not count).
long arrived_in(const gate_result& r, const write_target& in) {
  const auto it = r.records.find(in);
  return it != r.records.end() ? it->second : 0;
}

/// Per stream or log file a check of C reads: how many records arrived.
std::map<write_target, long> records_arrived(const gate_result& r, const gate_case& c) {
  std::map<write_target, long> arrived;
  for (const auto& e : c.expect)
    if (!e.reads_status()) arrived[e.in] = arrived_in(r, e.in);
  return arrived;
}

/// Where the records of C's row went: stdout's or stderr's sink, or a file.
std::string row_destination(const gate_case& c) {
  const write_target& in = c.row->in;
  return std::string(in.is_out()   ? to_string(c.stdout_sink)
                     : in.is_err() ? c.stderr_sink.name()
                                   : "file");
}

/// The case's row in docs/loggers.md, when it has one.
std::optional<loggers::row> row_of(const gate_file& f, const gate_case& c, const gate_result& r) {
  if (!c.row) return std::nullopt;
  const std::string dest = row_destination(c);
  const long n = arrived_in(r, c.row->in);
  const long writes = r.writes(c.row->in);
  return loggers::row{f.library,
                      c.row->config,
                      dest,
                      c.row->death,
                      f.records,
                      n,
                      writes < 0 ? "-" : loggers::per_record(writes, n),
                      c.row->tier,
                      c.row->note};
}

/// Into OUT, C's run R of FILE: how it ended, each check's outcome, the
/// records and the row.
void add_run(const gate_file& file, const gate_case& c, const gate_result& r,
             gate_case_result& out) {
  out.status = r.obs.status.describe();
  out.repro = r.repro;
  out.harness_failure = r.obs.harness_failure;
  for (std::size_t i = 0; i < c.expect.size(); ++i)
    out.checks.push_back({c.expect[i], r.checks[i]});
  out.arrived = records_arrived(r, c);
  out.row = row_of(file, c, r);
}

}  // namespace

gate_case_result run_gate_case(const gate_file& file, const gate_case& c,
                               std::function<void(int)> on_spawn) {
  gate_case_result out;
  out.name = c.name;
  const auto start = std::chrono::steady_clock::now();
  gate_result r;
  try {
    r = make_run(file, c).on_spawn(std::move(on_spawn)).run();
  } catch (const spawn_error& e) {
    out.error = std::string("cannot start ") + e.what();
    return out;
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  add_run(file, c, r, out);
  return out;
}

}  // namespace flushcheck
