// Comparing a run with the model's prediction for it.
#include <regex>
#include <set>

#include "flushcheck/model.hpp"
#include "flushcheck/report.hpp"
#include "flushcheck/run.hpp"

namespace flushcheck {

namespace {

/// The targets' own error reports ("stdio_script: op 3 'flush out': ...\n",
/// written with write(2) when a call fails, e.g. on /dev/full) are not
/// stream output: take them out before comparing.
std::string without_reports(const std::string& data) {
  static const std::regex report("(stdio|iostream)_script: op [0-9]+ '[^'\\n]*': [^\\n]*\\n");
  return std::regex_replace(data, report, "");
}

/// What a terminate handler printed for an uncaught exception, to the end.
std::string without_runtime_message(const std::string& data) {
  for (const char* start : {"terminate called", "libc++abi: "}) {
    auto at = data.find(start);
    if (at != std::string::npos) return data.substr(0, at);
  }
  return data;
}

/// Can DATA be split into an interleaving of prefixes of the channels' bytes,
/// channel c taking between must[c] and may[c]? Bytes name their op, so only
/// '\n' can belong to more than one channel: a depth-first search over the
/// choices, each state seen once.
bool interleaves(const std::string& data, const std::vector<const std::string*>& meant,
                 const std::vector<byte_bounds>& bounds) {
  const std::size_t k = meant.size();
  std::set<std::vector<std::size_t>> seen;
  std::vector<std::vector<std::size_t>> stack{std::vector<std::size_t>(k, 0)};
  while (!stack.empty()) {
    auto pos = std::move(stack.back());
    stack.pop_back();
    std::size_t i = 0;
    for (auto p : pos) i += p;
    if (i == data.size()) {
      bool ok = true;
      for (std::size_t c = 0; c < k; ++c) ok = ok && pos[c] >= bounds[c].must;
      if (ok) return true;
      continue;
    }
    for (std::size_t c = 0; c < k; ++c) {
      if (pos[c] >= bounds[c].may || (*meant[c])[pos[c]] != data[i]) continue;
      auto next = pos;
      ++next[c];
      if (seen.insert(next).second) stack.push_back(std::move(next));
    }
  }
  return false;
}

std::size_t first_difference(const std::string& a, const std::string& b) {
  std::size_t i = 0;
  while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
  return i;
}

std::string shown(const std::string& s) {
  return "\"" + printable(s, 160) + "\" (" + std::to_string(s.size()) + " bytes)";
}

}  // namespace

verdict check_observation(const prediction& p, const model_setup& setup, const observation& obs) {
  verdict v;
  auto fail = [&](std::string what) {
    if (!v.pass) return;
    v.pass = false;
    v.explanation = std::move(what) + "\nmodel:\n" + p.describe();
  };
  const bool merged = !setup.stderr_sink.has_value();
  const std::array<sink_kind, 2> sinks{setup.stdout_sink,
                                       setup.stderr_sink.value_or(setup.stdout_sink)};
  const std::array<const char*, 2> names{merged ? "stdout+stderr" : "stdout", "stderr"};
  std::string seen;
  for (int d = 0; d < (merged ? 1 : 2); ++d) {
    std::string got = d == 0 ? obs.out.data : obs.err.data;
    if (setup.stdout_sink == sink_kind::full || sinks[1] == sink_kind::full)
      got = without_reports(got);
    if (p.runtime_message && (d == 1 || merged)) got = without_runtime_message(got);
    seen += std::string(names[d]) + " " + shown(got) + "; ";
    if (!sink_shows_data(sinks[d])) {
      if (!got.empty())
        fail(std::string(names[d]) + " is " + std::string(to_string(sinks[d])) +
             " but the reader got " + shown(got));
      continue;
    }
    if (p.exact) {
      if (got != p.data[d])
        fail(std::string(names[d]) + ": the model says exactly " + shown(p.data[d]) +
             ", the reader got " + shown(got) + ", first difference at byte " +
             std::to_string(first_difference(got, p.data[d])));
      continue;
    }
    std::vector<const std::string*> meant;
    std::vector<byte_bounds> bounds;
    for (std::size_t c = 0; c < channel_count; ++c) {
      const auto ch = static_cast<channel>(c);
      if (!merged && (fd_of(ch) == 1) != (d == 0)) continue;
      meant.push_back(&p.meant[c]);
      bounds.push_back(p.bounds[c]);
    }
    if (!interleaves(got, meant, bounds))
      fail(std::string(names[d]) + ": " + shown(got) +
           " is not an in-order interleaving of the streams' bytes with each between MUST "
           "and MAY");
  }
  if (obs.trace) {
    const std::array<long, 2> calls{static_cast<long>(obs.trace->stdout_write_calls()),
                                    static_cast<long>(obs.trace->stderr_write_calls())};
    seen += "write calls " + std::to_string(calls[0]) + "/" + std::to_string(calls[1]) + "; ";
    for (int d = 0; d < (merged ? 1 : 2); ++d)
      if (calls[d] < p.writes[d].first || calls[d] > p.writes[d].second)
        fail(std::string(names[d]) + ": " + std::to_string(calls[d]) +
             " write-family calls, the model allows " + std::to_string(p.writes[d].first) + ".." +
             std::to_string(p.writes[d].second));
  }
  const bool delivered = obs.kill && obs.kill->delivered;
  if (delivered != p.kill_delivered)
    fail(std::string("the cut was ") + (delivered ? "" : "not ") +
         "reached; the model says it is " + (p.kill_delivered ? "" : "not"));
  // A core dump (abort, SIGSEGV) depends on the machine's limits, not on buffering.
  const bool same_end = obs.status.type() == p.status.type() &&
                        obs.status.signal() == p.status.signal() &&
                        (!p.exit_code_known || obs.status.code() == p.status.code());
  if (!same_end)
    fail("the program ended " + obs.status.describe() + ", the model says " + p.status.describe());
  v.observed = seen + "ended " + obs.status.describe();
  if (v.pass) v.explanation = "agrees with the model";
  return v;
}

}  // namespace flushcheck

namespace flushcheck {

run_options model_run_options(const target_set& targets, const model_case& c) {
  run_options o;
  o.argv = {c.setup.language == lang::c ? targets.stdio_script : targets.iostream_script,
            c.ops.text()};
  o.stdout_sink = c.setup.stdout_sink;
  o.stderr_sink = c.setup.stderr_sink;
  o.input = c.setup.input.empty() ? stdin_kind::null : stdin_kind::pipe;
  o.input_data = c.setup.input;
  o.kill = c.cut;
  o.trace = true;
  o.env = clean_environment();
  o.timeout = std::chrono::milliseconds(20000);
  return o;
}

model_outcome run_against_model(const target_set& targets, const model_case& c) {
  model_outcome out;
  out.p = predict(c.setup, c.ops, c.cut);
  const run_options o = model_run_options(targets, c);
  out.first = run(o);
  out.v = check_observation(out.p, c.setup, out.first);
  out.v.repro = repro_command(o);
  if (out.v.pass) return out;
  out.second = run(o);
  verdict again = check_observation(out.p, c.setup, *out.second);
  if (again.pass) {
    out.flaky = true;
    out.v.explanation =
        "FLAKY: the first run disagreed, the re-run agreed.\nfirst run: " + out.v.observed + "\n" +
        out.v.explanation + "\nre-run: " + again.observed;
  } else {
    out.v.explanation += "\nre-run: " + again.observed + " (disagrees too)";
  }
  return out;
}

}  // namespace flushcheck
