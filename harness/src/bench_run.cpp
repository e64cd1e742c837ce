// Measuring one bench row: R untraced runs, each timed by the program
// itself, then one traced run for the write-family calls (bench_run.hpp).
#include "bench_run.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <sstream>

#include "flushcheck/error.hpp"
#include "flushcheck/repro.hpp"
#include "flushcheck/run.hpp"

namespace flushcheck::detail {
namespace {

run_options options_for(const bench_case& c) {
  run_options o;
  o.argv = c.argv;
  o.env = clean_environment();
  o.stdout_sink = c.sink;
  o.stderr_sink = sink_kind::pipe;
  if (!c.input.empty()) {
    o.input = stdin_kind::pipe;
    o.input_data = c.input;
  }
  o.timeout = std::chrono::minutes(2);
  return o;
}

std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

/// Write-family calls to every destination but stderr (where the program
/// says its time): stdout's sink, or the program's own pipe.
std::int64_t writes_not_to_stderr(const trace_summary& t) {
  std::int64_t n = 0;
  for (const auto& d : t.destinations)
    if (d.role != "stderr") n += d.write_calls;
  return n;
}

/// "" when O is a run whose program said its time; otherwise why not.
std::string failure(const observation& o) {
  if (o.status == wait_status::exited(0)) return "";
  return "the program " + o.status.describe() + ": " + first_line(o.err.data);
}

/// One run: its values (ns=...), or SKIP / FAILED set.
std::map<std::string, double> once(const run_options& o, bench_row& row) {
  observation obs = run(o);
  if (std::string why = failure(obs); !why.empty()) {
    row.failed = true;
    row.skipped = why;
    return {};
  }
  auto values = parse_bench_line(obs.err.data, row.skipped);
  if (o.trace && obs.trace) row.write_calls = writes_not_to_stderr(*obs.trace);
  return values;
}

}  // namespace

std::map<std::string, double> parse_bench_line(const std::string& err, std::string& skip) {
  std::istringstream lines(err);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind("bench skip: ", 0) == 0) {
      skip = line.substr(12);
      return {};
    }
    if (line.rfind("bench ns=", 0) != 0) continue;
    std::map<std::string, double> values;
    std::istringstream words(line.substr(6));
    for (std::string w; words >> w;)
      if (auto eq = w.find('='); eq != std::string::npos)
        values[w.substr(0, eq)] = std::strtod(w.c_str() + eq + 1, nullptr);
    return values;
  }
  throw harness_error(std::error_code(EPROTO, std::generic_category()),
                      "a bench program said no 'bench ns=' line: " + first_line(err));
}

bench_row measure(const bench_case& c, int repeat) {
  bench_row row = c.row;
  run_options o = options_for(c);
  row.repro = repro_command(o);
  for (int r = 0; r < repeat && row.skipped.empty(); ++r) {
    auto values = once(o, row);
    if (!row.skipped.empty()) break;
    row.seconds.push_back(values["ns"] / 1e9);
    values.erase("ns");
    values.erase("bytes");
    row.values = std::move(values);
  }
  if (c.count_writes && row.skipped.empty()) {
    o.trace = true;
    if (!c.count_argv.empty()) o.argv = c.count_argv;
    once(o, row);
  }
  return row;
}

void set_ratios(bench_suite& s) {
  const bench_row* base = find_row(s, s.baseline);
  double denominator = base && base->measured() ? base->median() : 0;
  for (auto& r : s.rows) r.ratio = r.measured() && denominator > 0 ? r.median() / denominator : 0;
}

const bench_row* find_row(const bench_suite& s, const std::string& name) {
  for (const auto& r : s.rows)
    if (r.name == name) return &r;
  return nullptr;
}

std::string bench_program(const target_set& set, const std::string& program) {
  auto slash = set.stdio_script.rfind('/');
  return (slash == std::string::npos ? std::string(".") : set.stdio_script.substr(0, slash)) + "/" +
         program;
}

std::string size_name(long bytes) {
  if (bytes >= (1L << 20) && bytes % (1L << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
  if (bytes >= 1024 && bytes % 1024 == 0) return std::to_string(bytes >> 10) + " KiB";
  return std::to_string(bytes) + " B";
}

}  // namespace flushcheck::detail

namespace flushcheck {
namespace {

std::vector<double> sorted(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v;
}

}  // namespace

double bench_row::min() const { return seconds.empty() ? 0 : sorted(seconds).front(); }
double bench_row::max() const { return seconds.empty() ? 0 : sorted(seconds).back(); }

double bench_row::median() const {
  if (seconds.empty()) return 0;
  auto s = sorted(seconds);
  std::size_t n = s.size();
  return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

double bench_row::throughput() const {
  double m = median();
  return bytes > 0 && m > 0 ? static_cast<double>(bytes) / m : 0;
}

}  // namespace flushcheck
