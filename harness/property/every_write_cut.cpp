// Every write cut of a case from one run (every_write_cut.hpp).
#include "every_write_cut.hpp"

#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <string_view>
#include <vector>

#include "property_promise.hpp"
#include "write_cuts.hpp"

namespace flushcheck {

namespace {

/// The bytes of records a case's derived cuts may check in all (each cut
/// checks what its writes left, from the start): past it, the case is
/// checked at its own cut. A workload's largest records (64 KiB each) in
/// 4 KiB writes stay far below it.
constexpr std::uint64_t max_read = std::uint64_t{256} << 20;

/// The records' stream of a run: what arrived, and the write-family calls
/// that brought it, in order.
struct records_stream {
  std::string_view bytes;
  std::vector<const trace_event*> writes;
  std::string not_whole;  ///< why BYTES is not all that arrived ("": it is)
};

/// The write-family calls of T that ran, to the file at PATH.
std::vector<const trace_event*> writes_to_file(const trace_summary& t, const std::string& path) {
  std::vector<const trace_event*> out;
  for (const auto& e : t.events)
    if (!e.stopped && is_write_family(e.call) && e.dest >= 0 &&
        t.destinations[static_cast<std::size_t>(e.dest)].what == path)
      out.push_back(&e);
  return out;
}

/// SPEC's records' stream in R, a run_case_whole run.
records_stream stream_of(const property_spec& spec, const gate_result& r) {
  records_stream s;
  const trace_summary* t = r.obs.trace ? &*r.obs.trace : nullptr;
  const std::string too_long = spec.in.text() + " holds more than the " +
                               std::to_string(kept_whole >> 20) + " MiB a derivation keeps";
  if (spec.in.is_file()) {
    const auto f = r.files.find(spec.in.file_name());
    if (f == r.files.end()) return s;  // never created: nothing arrived, and no write
    s.bytes = f->second.content;
    if (!f->second.whole)
      s.not_whole = "its log was not read whole before the search's time ran out";
    if (s.bytes.size() >= kept_whole) s.not_whole = too_long;
    if (t) s.writes = writes_to_file(*t, f->second.path);
    return s;
  }
  const bool err = spec.in.is_err();
  const stream_observation& o = err ? r.obs.err : r.obs.out;
  s.bytes = o.data;
  if (o.dropped > 0) s.not_whole = too_long;
  if (t) s.writes = t->stream_writes(err);
  return s;
}

/// Why C's write cuts cannot be derived from UNCUT, its uncut run whose
/// records' stream is S: in words that group alike cases, with this case's
/// particulars in DETAIL; "" when they can.
std::string why_not_derived(const property_spec& spec, const case_run& uncut,
                            const records_stream& s, std::string& detail) {
  if (uncut.out.error_kind != case_error::none) {
    detail = uncut.out.error;
    return "its uncut run failed";
  }
  if (spec.in.is_err() && spec.stderr_sink.merged())
    return "its records share stdout's sink with stdout";
  if (!uncut.result->obs.trace) return "its uncut run was not traced";
  const trace_summary& t = *uncut.result->obs.trace;
  if (detail = why_trace_not_derivable(t); !detail.empty())
    return t.processes > 1 ? "more than one process or thread ran" : "the trace dropped calls";
  if (detail = s.not_whole; !detail.empty()) return "its records' stream was not kept whole";
  detail = why_writes_do_not_add_up(s.writes, s.bytes.size(), "its writes to " + spec.in.text());
  return detail.empty() ? "" : "its writes do not account for the bytes that arrived";
}

/// C run at its own cut, as without a derivation, which WHY (DETAIL) says could not be.
workload_outcome own_cut(const property_spec& spec, const workload_case& c,
                         const case_run_options& o, const std::string& why,
                         const std::string& detail) {
  workload_outcome out = run_workload_case(spec, c, o);
  out.derivation = case_derivation{0, 0, c.at, why, detail};
  return out;
}

/// The index of the first of CHECKS that fails (a verdict), or -1.
int verdict_of(const std::vector<gate_expect>& expects, const std::vector<gate_check>& checks) {
  for (std::size_t i = 0; i < checks.size(); ++i)
    if (!gate_check_result{expects[i], checks[i]}.pass()) return static_cast<int>(i);
  return -1;
}

/// "" if REAL, the cut at write K+1 run for real (and run: no error), left
/// SPEC's records' stream as the derivation says (DERIVED, whose checks said
/// CHECKS); else how it differed.
std::string disagreement(const property_spec& spec, const case_run& real, std::size_t k,
                         std::string_view derived, const std::vector<gate_check>& checks) {
  const std::string when = "write cut " + std::to_string(k + 1) + ", run for real,";
  if (!real.out.missed.empty()) return when + " did not come: " + real.out.missed;
  const records_stream got = stream_of(spec, *real.result);
  if (!got.not_whole.empty()) return when + " was not kept whole: " + got.not_whole;
  if (got.bytes != derived)
    return when + " left " + std::to_string(got.bytes.size()) + " bytes in " + spec.in.text() +
           (got.bytes.starts_with(derived) || derived.starts_with(got.bytes)
                ? ""
                : ", not a prefix of the uncut run's,") +
           " where the derivation says " + std::to_string(derived.size());
  for (std::size_t i = 0; i < checks.size() && i < real.out.checks.size(); ++i)
    if (real.out.checks[i].outcome.ok != checks[i].ok)
      return when + " said " + real.out.checks[i].outcome.why + " where the derivation says " +
             checks[i].why;
  return "";
}

/// The cuts run for real to check a derivation whose cuts say VERDICT: the
/// first, the last, each change of verdict and one in 64 of the rest
/// (cuts_to_verify, a cut costing nothing here), with SHOWN, whose run the
/// outcome is, among them (cuts_to_verify takes it already: the first, a
/// change or the last).
std::vector<std::size_t> sample_of(const std::vector<int>& verdict, std::size_t shown) {
  std::vector<long> reached(verdict.size());
  std::iota(reached.begin(), reached.end(), 1L);
  auto sample = cuts_to_verify(reached, verdict, LONG_MAX, SIZE_MAX);
  if (!std::binary_search(sample.begin(), sample.end(), shown))
    sample.insert(std::upper_bound(sample.begin(), sample.end(), shown), shown);
  return sample;
}

}  // namespace

workload_outcome run_own_write_cut(const property_spec& spec, const workload_case& c,
                                   const case_run_options& o, const std::string& why) {
  return own_cut(spec, c, o, why, "");
}

bool has_write_cuts(const workload_case& c) {
  return c.end == property_end::kill && c.cut == kill_plan::when_kind::write;
}

workload_outcome run_every_write_cut(const property_spec& spec, const workload_case& c,
                                     const case_run_options& o) {
  if (!has_write_cuts(c)) return run_workload_case(spec, c, o);
  const case_plan plan = plan_of(spec, c);
  if (plan.threaded) return own_cut(spec, c, o, "its workload logs from more than one thread", "");
  const case_run uncut = run_case_whole(spec, c, o, true);
  if (uncut.out.out_of_budget) return uncut.out;  // no verdict: the search's time is up
  if (!uncut.result) return own_cut(spec, c, o, "its uncut run failed", uncut.out.error);
  const records_stream s = stream_of(spec, *uncut.result);
  std::string detail;
  if (auto why = why_not_derived(spec, uncut, s, detail); !why.empty())
    return own_cut(spec, c, o, why, detail);
  const std::vector<std::uint64_t> ends = write_ends(s.writes);
  if (ends.size() == 1) return run_workload_case(spec, c, o);  // no write: no cut to derive

  // Cut K (the case's at = K, a KILL at the entry of write K+1) leaves ends[K].
  const auto checks = promised_checks(spec, c, plan);
  std::vector<gate_expect> expects;
  for (const auto& k : checks) expects.push_back(k.expect);
  const std::vector<std::uint64_t> left(ends.begin(), ends.end() - 1);
  if (const std::uint64_t read = std::accumulate(left.begin(), left.end(), std::uint64_t{0});
      read > max_read)
    return own_cut(spec, c, o, "its write cuts would check too many bytes",
                   std::to_string(left.size()) + " write cuts would check " +
                       std::to_string(read >> 20) + " MiB of records, more than " +
                       std::to_string(max_read >> 20) + " MiB");
  const auto derived = check_prefixes(s.bytes, expects, "rec ", left);
  std::vector<int> verdict;
  for (const auto& checks_at : derived) verdict.push_back(verdict_of(expects, checks_at));
  // The cut whose run the outcome is: the first that broke the promise, else the last.
  const auto broke = std::find_if(verdict.begin(), verdict.end(), [](int v) { return v >= 0; });
  const std::size_t shown =
      broke == verdict.end() ? left.size() - 1 : static_cast<std::size_t>(broke - verdict.begin());
  const std::vector<std::size_t> sample = sample_of(verdict, shown);
  workload_outcome out;
  for (const std::size_t k : sample) {
    workload_case at_k = c;
    at_k.at = static_cast<long>(k);
    case_run real = run_case_whole(spec, at_k, o, false);
    // The budget, or a failure of the run (a timeout, a full TMPDIR): as the case would say it.
    if (real.out.out_of_budget || real.out.error_kind != case_error::none)
      return std::move(real.out);
    const std::string_view bytes = s.bytes.substr(0, static_cast<std::size_t>(left[k]));
    if (auto differs = disagreement(spec, real, k, bytes, derived[k]); !differs.empty())
      return own_cut(spec, c, o, "a cut run for real differed from its derivation", differs);
    if (k == shown) out = std::move(real.out);
  }
  out.derivation = case_derivation{static_cast<long>(left.size()), static_cast<long>(sample.size()),
                                   static_cast<long>(shown), "", ""};
  return out;
}

}  // namespace flushcheck
