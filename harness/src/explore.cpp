#include "flushcheck/explore.hpp"

#include <set>
#include <sstream>

#include "flushcheck/report.hpp"
#include "flushcheck/signals.hpp"

namespace flushcheck {

namespace {

std::vector<std::string> lines_of(const std::string& data) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  for (std::size_t i = 0; i < data.size(); ++i)
    if (data[i] == '\n') {
      lines.push_back(data.substr(start, i - start));
      start = i + 1;
    }
  if (start < data.size()) lines.push_back(data.substr(start));  // unterminated last line
  return lines;
}

/// The writes to stdout's sink (1-based) that a sync of it follows (fsync,
/// fdatasync, sync_file_range before the next write there), but the last.
std::vector<long> writes_before_a_sync(const trace_summary& t, long writes) {
  std::vector<long> out;
  long k = 0;
  for (const auto& e : t.events) {
    if (!t.on_stdout(e)) continue;
    if (is_write_family(e.call)) ++k;
    const bool sync = info(e.call).family == call_family::sync;
    if (sync && k > 0 && k < writes && (out.empty() || out.back() != k)) out.push_back(k);
  }
  return out;
}

/// Cut points: every marker, the entry of every write (the state after
/// the previous one), right after each write a sync follows (between the
/// write and its fsync) and the moment after the last write.
std::vector<kill_plan> boundaries(const explored_sink& s, int sig) {
  std::vector<kill_plan> cuts;
  for (long m = 1; m <= s.markers; ++m) cuts.push_back(kill_plan::at_marker(m, sig));
  auto synced = s.synced_writes.begin();
  for (long w = 1; w <= s.writes; ++w) {
    cuts.push_back(kill_plan::at_write(w, sig));
    if (synced != s.synced_writes.end() && *synced == w) {
      cuts.push_back(kill_plan::after_write(w, sig));
      ++synced;
    }
  }
  if (s.writes > 0) cuts.push_back(kill_plan::after_write(s.writes, sig));
  return cuts;
}

/// A run of the exploration: a cut, or a fault at one write (no cut).
struct planned {
  kill_plan cut;
  std::optional<fault_plan> fault;
};

std::vector<planned> plan_runs(const explore_options& o, const explored_sink& s) {
  std::vector<planned> runs;
  for (int sig : o.signals)
    for (auto& c : boundaries(s, sig)) runs.push_back({c, std::nullopt});
  for (const auto& what : o.faults)
    for (long w = 1; w <= s.writes; ++w)
      runs.push_back({{}, fault_plan::parse(what + "@write:" + std::to_string(w))});
  return runs;
}

/// A fault run: the reference lines that arrived, in order (a fault may drop
/// lines in the middle), and those that did not. A line that is no line of
/// the reference still to come (the ends of two lines glued where a failed
/// write dropped the bytes between them) is torn, and skipped.
void match_lines(explored_cut& c, const std::vector<std::string>& ref_lines) {
  auto got = lines_of(c.survived);
  std::multiset<std::string> ahead(ref_lines.begin(), ref_lines.end());
  std::size_t g = 0;
  for (const auto& line : ref_lines) {
    while (g < got.size() && got[g] != line && ahead.count(got[g]) == 0) c.torn += got[g++] + "\n";
    if (g < got.size() && got[g] == line) {
      ++g;
      ++c.lines_survived;
    } else {
      c.lost.push_back(line);
    }
    ahead.erase(ahead.find(line));
  }
  for (; g < got.size(); ++g) c.torn += got[g] + "\n";
  if (!c.survived.empty() && c.survived.back() != '\n' && !c.torn.empty())
    c.torn.pop_back();  // the last piece had no newline of its own
}

explored_cut judge_fault(const observation& reference, const fault_plan& f,
                         const observation& obs) {
  explored_cut c;
  c.fault = f;
  c.delivered = obs.trace && !obs.trace->faults.empty() && obs.trace->faults.front().applied();
  c.status = obs.status;
  c.survived = obs.out.data;
  c.prefix = reference.out.data.compare(0, c.survived.size(), c.survived) == 0;
  match_lines(c, lines_of(reference.out.data));
  return c;
}

explored_cut judge(const observation& reference, const kill_plan& cut, const observation& obs) {
  explored_cut c;
  c.cut = cut;
  c.delivered = obs.kill && obs.kill->delivered;
  c.status = obs.status;
  c.survived = obs.out.data;
  const std::string& all = reference.out.data;
  c.prefix = all.compare(0, c.survived.size(), c.survived) == 0;
  const auto ref_lines = lines_of(all);
  std::size_t whole = 0;
  std::size_t at = 0;
  while (whole < ref_lines.size()) {
    const std::size_t end = at + ref_lines[whole].size() + 1;
    if (end > c.survived.size() || c.survived.compare(at, end - at, all, at, end - at) != 0) break;
    at = end;
    ++whole;
  }
  c.lines_survived = whole;
  if (at < c.survived.size()) c.torn = c.survived.substr(at);
  for (std::size_t i = whole; i < ref_lines.size(); ++i) c.lost.push_back(ref_lines[i]);
  return c;
}

}  // namespace

std::vector<explored_sink> explore(const explore_options& o) {
  std::vector<explored_sink> result;
  for (sink_kind sink : o.stdout_sinks) {
    explored_sink s;
    s.sink = sink;
    run_options ref = o.base;
    ref.stdout_sink = sink;
    ref.trace = true;
    ref.kill = {};
    s.reference = run(ref);
    s.writes = s.reference.trace ? s.reference.trace->stdout_write_calls() : 0;
    s.markers = static_cast<long>(s.reference.markers.size());
    if (s.reference.trace) {
      s.syncs = s.reference.trace->stdout_calls(traced_call::fsync) +
                s.reference.trace->stdout_calls(traced_call::fdatasync) +
                s.reference.trace->stdout_calls(traced_call::sync_file_range);
      s.synced_writes = writes_before_a_sync(*s.reference.trace, s.writes);
    }
    std::vector<planned> cuts = plan_runs(o, s);
    s.cuts_total = cuts.size();
    if (cuts.size() > o.max_cuts && o.max_cuts >= 2) {
      // Evenly spaced, first and last kept: deterministic, so a rerun agrees.
      std::vector<planned> picked;
      for (std::size_t i = 0; i < o.max_cuts; ++i)
        picked.push_back(cuts[i * (cuts.size() - 1) / (o.max_cuts - 1)]);
      cuts = std::move(picked);
      s.sampled = true;
    }
    for (const auto& p : cuts) {
      run_options r = o.base;
      r.stdout_sink = sink;
      r.kill = p.cut;
      r.trace = false;
      if (p.fault) r.faults = {*p.fault};
      s.cuts.push_back(p.fault ? judge_fault(s.reference, *p.fault, run(r))
                               : judge(s.reference, p.cut, run(r)));
    }
    result.push_back(std::move(s));
  }
  return result;
}

nlohmann::json to_json(const std::vector<explored_sink>& result) {
  nlohmann::json runs = nlohmann::json::array();
  for (const auto& s : result) {
    nlohmann::json cuts = nlohmann::json::array();
    for (const auto& c : s.cuts) {
      nlohmann::json lost = nlohmann::json::array();
      for (const auto& l : c.lost) lost.push_back(bytes_as_code_points(l));
      cuts.push_back(
          {{"cut", c.fault ? std::string("never") : c.cut.when_text()},
           {"signal", c.fault ? nlohmann::json() : nlohmann::json(signal_name(c.cut.signal))},
           {"fault", c.fault ? nlohmann::json(c.fault->text()) : nlohmann::json()},
           {"delivered", c.delivered},
           {"exit", to_json(c.status)},
           {"survived", bytes_as_code_points(c.survived)},
           {"bytes", c.survived.size()},
           {"lines", c.lines_survived},
           {"lost", lost},
           {"torn", bytes_as_code_points(c.torn)},
           {"prefix", c.prefix}});
    }
    const auto ref_lines = lines_of(s.reference.out.data).size();
    runs.push_back({{"stdout", std::string(to_string(s.sink))},
                    {"reference",
                     {{"exit", to_json(s.reference.status)},
                      {"bytes", s.reference.out.data.size()},
                      {"lines", ref_lines},
                      {"writes", s.writes},
                      {"syncs", s.syncs},
                      {"markers", s.markers}}},
                    {"cuts_total", s.cuts_total},
                    {"sampled", s.sampled},
                    {"cuts", cuts}});
  }
  return {{"schema", json_schema_version}, {"runs", runs}};
}

std::string explore_table(const std::vector<explored_sink>& result) {
  std::ostringstream os;
  for (const auto& s : result) {
    const auto ref_lines = lines_of(s.reference.out.data).size();
    os << "stdout=" << to_string(s.sink) << ": the uncut run wrote " << ref_lines << " lines ("
       << s.reference.out.data.size() << " bytes) in " << s.writes << " write calls, " << s.markers
       << " markers, and " << s.reference.status.describe() << "\n";
    if (s.syncs > 0)
      os << "  stdout's file was synced " << s.syncs << (s.syncs == 1 ? " time" : " times")
         << ": each write a sync follows is cut right after it too (after-write:N)\n";
    for (const auto& n : s.reference.notes) os << "  note: " << n << "\n";
    if (s.sampled)
      os << "  sampled: " << s.cuts.size() << " of " << s.cuts_total
         << " cuts (evenly spaced; --max-cuts to change)\n";
    else
      os << "  exhaustive: " << s.cuts.size() << " cuts\n";
    os << "  " << std::left;
    char line[256];
    std::snprintf(line, sizeof line, "%-16s %-7s %-22s %-18s %s\n", "cut", "signal", "ended",
                  "survived", "lost");
    os << line;
    for (const auto& c : s.cuts) {
      std::string lost;
      for (std::size_t i = 0; i < c.lost.size() && i < 4; ++i)
        lost += (i ? " | " : "") + printable(c.lost[i], 24);
      if (c.lost.size() > 4) lost += " | ... (" + std::to_string(c.lost.size()) + " lines)";
      if (lost.empty()) lost = "-";
      std::string survived =
          std::to_string(c.lines_survived) + "/" + std::to_string(ref_lines) + " lines";
      if (!c.torn.empty()) survived += " +" + std::to_string(c.torn.size()) + "B";
      std::string what = c.fault ? c.fault->text() : c.cut.when_text();
      std::string sig = c.fault ? "-" : signal_name(c.cut.signal);
      std::snprintf(line, sizeof line, "  %-16s %-7s %-22s %-18s %s%s\n", what.c_str(), sig.c_str(),
                    c.delivered ? c.status.describe().c_str()
                    : c.fault   ? "(not applied)"
                                : "(not reached)",
                    survived.c_str(), lost.c_str(),
                    c.prefix  ? ""
                    : c.fault ? "  (a gap)"
                              : "  NOT A PREFIX");
      os << line;
    }
  }
  return os.str();
}

}  // namespace flushcheck
