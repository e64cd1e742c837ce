// Comparing a run with the model's prediction for it.
#include "model_check.hpp"

#include <algorithm>
#include <chrono>
#include <optional>
#include <regex>
#include <set>

#include "escape.hpp"
#include "repro.hpp"
#include "sink.hpp"

namespace flushcheck {

namespace {

/// The targets' own error reports ("stdio_script: op 3 'flush out': ...\n",
/// one write(2) when a call fails: a fault, /dev/full) are not stream
/// output: take them out before comparing (the model counts their calls).
std::string without_reports(const std::string& data) {
  if (data.find("_script: op ") == std::string::npos) return data;
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
bool interleaves(const std::string& data, const std::vector<const std::string*>& streams,
                 const std::vector<byte_bounds>& bounds) {
  const std::size_t k = streams.size();
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
      if (pos[c] >= bounds[c].may || (*streams[c])[pos[c]] != data[i]) continue;
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

/// One comparison of a run with its prediction: the first disagreement
/// explains the verdict; every destination adds to what was observed.
class observation_check {
 public:
  observation_check(const prediction& p, const model_setup& setup, const observation& obs)
      : p_(p),
        setup_(setup),
        obs_(obs),
        merged_(!setup.stderr_sink.has_value()),
        sinks_{setup.stdout_sink, setup.stderr_sink.value_or(setup.stdout_sink)},
        names_{merged_ ? "stdout+stderr" : "stdout", "stderr"} {}

  verdict result() {
    for (int d = 0; d < destinations(); ++d) check_data(d);
    if (obs_.trace) check_calls();
    check_end();
    v_.observed = seen_ + "ended " + obs_.status.describe();
    for (const auto& note : obs_.notes) v_.observed += "; note: " + note;
    if (v_.pass) v_.explanation = "agrees with the model";
    return v_;
  }

 private:
  int destinations() const { return merged_ ? 1 : 2; }

  void fail(std::string what) {
    if (!v_.pass) return;
    v_.pass = false;
    v_.explanation = std::move(what) + "\nmodel:\n" + p_.describe();
  }

  /// What destination D's reader got, less what is not stream output.
  std::string received(int d) const {
    std::string got = without_reports(d == 0 ? obs_.out.data : obs_.err.data);
    if (p_.runtime_message && (d == 1 || merged_)) got = without_runtime_message(got);
    return got;
  }

  void check_data(int d) {
    const std::string got = received(d);
    seen_ += std::string(names_[d]) + " " + shown(got) + "; ";
    if (!sink_shows_data(sinks_[d]))
      check_nothing_shown(d, got);
    else if (!p_.exact)
      check_interleaving(d, got);
    else
      check_exact(d, got);
  }

  /// A sink that shows no data (/dev/null, /dev/full): the reader gets none.
  void check_nothing_shown(int d, const std::string& got) {
    if (!got.empty())
      fail(std::string(names_[d]) + " is " + std::string(to_string(sinks_[d])) +
           " but the reader got " + shown(got));
  }

  void check_exact(int d, const std::string& got) {
    if (got != p_.data[d])
      fail(std::string(names_[d]) + ": the model says exactly " + shown(p_.data[d]) +
           ", the reader got " + shown(got) + ", first difference at byte " +
           std::to_string(first_difference(got, p_.data[d])));
  }

  void check_interleaving(int d, const std::string& got) {
    std::vector<const std::string*> streams;
    std::vector<byte_bounds> bounds;
    for (std::size_t c = 0; c < channel_count; ++c) {
      const auto ch = static_cast<channel>(c);
      if (!merged_ && (fd_of(ch) == 1) != (d == 0)) continue;
      streams.push_back(&p_.stream[c]);
      bounds.push_back(p_.bounds[c]);
    }
    if (!interleaves(got, streams, bounds))
      fail(std::string(names_[d]) + ": " + shown(got) +
           " is not an in-order interleaving of the streams' bytes with each between MUST "
           "and MAY");
  }

  void check_calls() {
    const std::array<long, 2> calls{static_cast<long>(obs_.trace->stdout_write_calls()),
                                    static_cast<long>(obs_.trace->stderr_write_calls())};
    seen_ += "write calls " + std::to_string(calls[0]) + "/" + std::to_string(calls[1]) + "; ";
    for (int d = 0; d < destinations(); ++d)
      if (calls[d] < p_.writes[d].first || calls[d] > p_.writes[d].second)
        fail(std::string(names_[d]) + ": " + std::to_string(calls[d]) +
             " write-family calls, the model allows " + std::to_string(p_.writes[d].first) + ".." +
             std::to_string(p_.writes[d].second));
  }

  void check_end() {
    const bool delivered = obs_.kill && obs_.kill->delivered;
    if (delivered != p_.kill_delivered)
      fail(std::string("the cut was ") + (delivered ? "" : "not ") +
           "reached; the model says it is " + (p_.kill_delivered ? "" : "not"));
    // A core dump (abort, SIGSEGV) depends on the machine's limits, not on buffering.
    const bool same_end = obs_.status.type() == p_.status.type() &&
                          obs_.status.signal() == p_.status.signal() &&
                          (!p_.exit_code_known || obs_.status.code() == p_.status.code());
    if (!same_end)
      fail("the program ended " + obs_.status.describe() + ", the model says " +
           p_.status.describe());
  }

  const prediction& p_;
  const model_setup& setup_;
  const observation& obs_;
  const bool merged_;
  const std::array<sink_kind, 2> sinks_;
  const std::array<const char*, 2> names_;
  verdict v_;
  std::string seen_;
};

}  // namespace

verdict check_observation(const prediction& p, const model_setup& setup, const observation& obs) {
  return observation_check(p, setup, obs).result();
}

}  // namespace flushcheck

namespace flushcheck {

model_setup with_st_blksize(model_setup setup) {
  setup.st_blksize = {st_blksize_of(setup.stdout_sink),
                      st_blksize_of(setup.stderr_sink.value_or(setup.stdout_sink))};
  return setup;
}

run_options model_run_options(const target_set& targets, const model_case& c) {
  run_options o;
  o.argv = {c.setup.language == lang::c ? targets.stdio_script : targets.iostream_script,
            c.ops.text()};
  o.stdout_sink = c.setup.stdout_sink;
  o.stderr_sink = c.setup.stderr_sink;
  o.input = c.setup.input.empty() ? stdin_kind::null : stdin_kind::pipe;
  o.input_data = c.setup.input;
  o.kill = c.cut;
  o.faults = c.setup.faults;
  o.trace = true;
  o.env = clean_environment();
  o.timeout = std::chrono::milliseconds(20000);
  return o;
}

namespace {

using steady = std::chrono::steady_clock;

/// One run of O, its timeout cut to the time left before DEADLINE; nullopt
/// when none was left, or when the cut timeout, not O's own, ended it.
std::optional<observation> run_within(run_options o, std::optional<steady::time_point> deadline) {
  const auto own = o.timeout;
  if (deadline) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(*deadline - steady::now());
    if (left.count() <= 0) return std::nullopt;
    o.timeout = std::min(own, left);
  }
  observation obs = run(o);
  if (o.timeout < own && obs.status.type() == wait_status::kind::timeout) return std::nullopt;
  return obs;
}

/// A disagreement, run once more with O: OUT is flaky when the re-run
/// agrees, else its verdict still fails and says what the re-run showed;
/// stopped when DEADLINE ended the re-run.
void rerun(model_outcome& out, const model_case& c, const run_options& o,
           std::optional<steady::time_point> deadline) {
  auto second = run_within(o, deadline);
  if (!second) {
    out.stopped = true;
    return;
  }
  out.second = std::move(*second);
  verdict again = check_observation(out.p, c.setup, *out.second);
  if (again.pass) {
    out.flaky = true;
    out.v.explanation =
        "FLAKY: the first run disagreed, the re-run agreed.\nfirst run: " + out.v.observed + "\n" +
        out.v.explanation + "\nre-run: " + again.observed;
  } else {
    out.v.explanation += "\nre-run: " + again.observed + " (disagrees too)";
  }
}

}  // namespace

model_outcome run_against_model(const target_set& targets, const model_case& c,
                                std::optional<steady::time_point> deadline) {
  model_outcome out;
  out.p = predict(with_st_blksize(c.setup), c.ops, c.cut);
  const run_options o = model_run_options(targets, c);  // the repro keeps its own timeout
  auto first = run_within(o, deadline);
  if (first) {
    out.first = std::move(*first);
    out.v = check_observation(out.p, c.setup, out.first);
  }
  out.v.repro = repro_command(o);
  out.stopped = !first;
  if (first && !out.v.pass) rerun(out, c, o, deadline);
  return out;
}

}  // namespace flushcheck
