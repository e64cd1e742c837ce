// The model properties (model_property.hpp).
#include "model_property.hpp"

#include <chrono>
#include <csignal>
#include <cstdint>
#include <exception>
#include <optional>
#include <sstream>

#include "seeded_check.hpp"
#include "sink.hpp"

namespace flushcheck {
namespace {

/// How many of a faulted property's cases met each kind of failure (the
/// model's view of the runs that agreed with it): proof that they ran.
struct fault_tally {
  int failed = 0, short_write = 0, reported = 0, sigpipe = 0;
  void add(const prediction& p) {
    bool f = false, s = false;
    for (const auto& c : p.calls) {
      f = f || c.result < 0;
      s = s || (c.result >= 0 && static_cast<std::size_t>(c.result) < c.requested);
    }
    failed += f;
    short_write += s;
    reported += p.reports > 0;
    sigpipe += p.status == wait_status::signaled(SIGPIPE);
  }
  std::string text() const {
    return " (" + std::to_string(failed) + " with a failed call, " + std::to_string(short_write) +
           " with a short write, " + std::to_string(reported) + " with error reports, " +
           std::to_string(sigpipe) + " killed by SIGPIPE)";
  }
};

/// A property's time budget (model_search::max_seconds): the search's from
/// its start, then, once a case failed, the shrinking's, as long again.
class budget {
 public:
  using clock = std::chrono::steady_clock;
  explicit budget(std::optional<double> seconds) : seconds_(seconds), end_(from_now()) {}
  /// When what runs now must end; none without a budget.
  std::optional<clock::time_point> deadline() const { return end_; }
  bool over() const { return end_ && clock::now() >= *end_; }
  /// A case failed: the shrinking starts, with a budget of its own.
  void start_shrinking() { end_ = from_now(); }

 private:
  std::optional<clock::time_point> from_now() const {
    if (!seconds_) return std::nullopt;
    return clock::now() +
           std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(*seconds_));
  }
  std::optional<double> seconds_;
  std::optional<clock::time_point> end_;
};

/// Why a property's cases stopped before RapidCheck's search ended.
enum class stop { none, budget, error };

/// Thrown out of a case to end RapidCheck's search, which has no other way
/// to stop: RapidCheck counts it as a failure, the trail says what it was.
struct stop_search {};

/// What a property's cases leave behind, for its report.
struct case_trail {
  explicit case_trail(std::optional<double> seconds) : timer(seconds) {}
  // Shrinking keeps a candidate only when it fails, so the last failing
  // case seen is the shrunk counterexample RapidCheck reports.
  std::optional<model_case> last_failed;
  std::optional<model_outcome> last_outcome;
  fault_tally tally;
  budget timer;
  int checked = 0;  ///< cases of the search run to a verdict
  stop stopped = stop::none;
  std::exception_ptr error;  ///< what a case's run threw
  std::string cut_short;     ///< the run the budget ended, as a command
  bool shrinking() const { return last_failed.has_value(); }
};

/// Runs C against the model within T's budget; nullopt, with T.stopped
/// saying why, when the budget ran out or the run threw (no verdict).
std::optional<model_outcome> outcome_of(const target_set& targets, const model_case& c,
                                        case_trail& t) {
  if (t.timer.over()) {
    t.stopped = stop::budget;
    return std::nullopt;
  }
  try {
    model_outcome o = run_against_model(targets, c, t.timer.deadline());
    if (!o.stopped) return o;
    t.stopped = stop::budget;
    t.cut_short = o.v.repro;
  } catch (...) {
    t.stopped = stop::error;
    t.error = std::current_exception();
  }
  return std::nullopt;
}

/// Runs C against the model: a disagreement fails the case (RC_FAIL); one
/// that did not repeat goes to R's flaky cases. Once the budget or an error
/// stopped the cases, the rest pass unrun, so that RapidCheck ends soon.
void check_case(const target_set& targets, const model_case& c, property_report& r, case_trail& t) {
  if (t.stopped != stop::none) return;
  const auto o = outcome_of(targets, c, t);
  if (!o) {
    if (!t.shrinking()) throw stop_search{};  // while shrinking, the last failure stands
    return;
  }
  if (o->v.pass) t.tally.add(o->p);
  if (!t.shrinking()) ++t.checked;
  if (o->flaky) {
    r.flaky.push_back(c.ops.text() + "\n" + o->v.explanation + "\nreproduce: " + o->v.repro);
    return;
  }
  if (!o->v.pass) {
    if (!t.shrinking()) t.timer.start_shrinking();
    t.last_failed = c;
    t.last_outcome = *o;
    RC_FAIL(o->v.explanation + "\narrived: " + o->v.observed + "\nreproduce: " + o->v.repro);
  }
}

/// Property NAME falsified: RESULT's shrunk case and RapidCheck's
/// description, and AGAIN, the command that runs it again.
std::string falsified_message(const std::string& name, const seeded_result& result,
                              const property_report& r, const std::string& again) {
  std::ostringstream os;
  os << name << ": falsified after " << result.cases << " cases, seed " << r.seed
     << (r.shrink_stopped ? " (shrinking stopped at --max-seconds)" : "") << "\n";
  os << result.counterexample << result.description << "\n";
  os << "run the property again: " << again << "\n";
  return os.str();
}

/// P's search, stopped by the budget before R.cases cases: how many agree,
/// or that none was checked (and the run cut short: T.cut_short).
std::string stopped_message(const model_property& p, const property_report& r,
                            const case_trail& t) {
  std::string text = p.name + ": stopped at --max-seconds after " + std::to_string(r.checked) +
                     " cases, of " + std::to_string(r.cases);
  if (r.checked > 0) return text + "; they agree with the model" + (p.faults ? t.tally.text() : "");
  text += ": nothing checked";
  return t.cut_short.empty() ? text : text + " (the case cut short: " + t.cut_short + ")";
}

/// For people: what RESULT, RapidCheck's, says of P (R's seed, AGAIN: how
/// to run it again; T: what the cases left).
std::string message_of(const model_property& p, const seeded_result& result,
                       const property_report& r, const std::string& again, const case_trail& t) {
  if (r.counterexample) return falsified_message(p.name, result, r, again);
  if (r.stopped) return stopped_message(p, r, t);
  if (result.what == seeded_result::outcome::passed)
    return p.name + ": " + std::to_string(result.cases) + " cases agree with the model" +
           (p.faults ? t.tally.text() : "");
  if (result.what == seeded_result::outcome::gave_up)
    return p.name + ": gave up: " + result.description;
  return p.name + ": RapidCheck error";
}

/// R's verdict, from RESULT and what the cases left (T). What a case's run
/// threw is thrown again: a harness failure is no verdict.
void set_verdict(const model_property& p, const seeded_result& result, const std::string& again,
                 const case_trail& t, property_report& r) {
  if (t.error) std::rethrow_exception(t.error);
  r.checked = t.checked;
  const bool falsified = result.what == seeded_result::outcome::falsified && t.shrinking();
  r.stopped = t.stopped == stop::budget && !t.shrinking();
  r.shrink_stopped = t.stopped == stop::budget && t.shrinking();
  r.passed = result.what == seeded_result::outcome::passed || (r.stopped && r.checked > 0);
  if (falsified) {
    r.counterexample = t.last_failed;
    r.outcome = t.last_outcome;
  }
  r.message = message_of(p, result, r, again, t);
}

}  // namespace

const std::vector<model_property>& model_properties() {
  static const std::vector<model_property> all = {
      {"c_markers_and_endings", lang::c, cut_family::markers_and_endings, false},
      {"c_write_cuts", lang::c, cut_family::writes, false},
      {"cxx_markers_and_endings", lang::cxx, cut_family::markers_and_endings, false},
      {"cxx_write_cuts", lang::cxx, cut_family::writes, false},
      // faulted runs: --fault plans (errnos, short writes) and cuts of both families
      {"c_faults", lang::c, cut_family::writes, true},
      {"cxx_faults", lang::cxx, cut_family::writes, true},
  };
  return all;
}

property_report check_against_model(const model_property& p, const target_set& targets,
                                    const model_search& s, const std::string& again) {
  property_report r;
  r.seed = s.seed;
  r.cases = s.cases;
  // The generator sizes each case's buffers from its sinks' st_blksize
  // (with_st_blksize), a real sink made once per kind: made here, so that a
  // harness that cannot make one (an unwritable TMPDIR) throws its failure
  // here, not inside RapidCheck's generation, which would call it an error of its own.
  for (const sink_kind k : all_sinks) (void)st_blksize_of(k);
  const auto gen = gen_case(p.language, targets.profile, p.family, p.faults);
  case_trail trail(s.max_seconds);
  auto prop = [&] { check_case(targets, *gen, r, trail); };
  set_verdict(p, seeded_check(p.name, prop, s.cases, s.seed), again, trail, r);
  return r;
}

property_report check_against_model(const model_property& p, const target_set& targets, int cases,
                                    std::uint64_t seed, const std::string& again) {
  return check_against_model(p, targets, model_search{cases, seed, std::nullopt}, again);
}

}  // namespace flushcheck
