// Generate, check, shrink, classify (property_search.hpp). RapidCheck's
// generators make each case and its shrinks (Shrinkable::shrinks()); this
// walks them as RapidCheck's own shrinker does, taking the first smaller
// case that still fails, but only one that fails the same way, in most of
// its runs: a logger that races must show the bug, not luck.
#include "property_search.hpp"

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <random>

#include "property_gen.hpp"
#include "property_run.hpp"

namespace flushcheck {

namespace {

using clock = std::chrono::steady_clock;

double since(clock::time_point t) {
  return std::chrono::duration<double>(clock::now() - t).count();
}

/// A candidate's runs: whether it broke the promise as WAY in most of them.
class judge {
 public:
  judge(const property_spec& spec, const search_options& o, std::string way)
      : spec_(spec), o_(o), way_(std::move(way)) {}
  /// What decides C's runs (cases with one key run alike).
  std::string key(const workload_case& c) const { return plan_of(spec_, c).key(); }
  /// Runs C until the majority of o.reruns is known (a key already judged: not again).
  bool fails(const workload_case& c) {
    const std::string key = this->key(c);
    if (auto it = seen_.find(key); it != seen_.end()) return it->second;
    ++tries;
    const int need = o_.reruns / 2 + 1;
    int failed = 0, passed = 0;
    while (failed < need && passed < o_.reruns - need + 1)
      ++(run_workload_case(spec_, c, o_.on_spawn).broken() == way_ ? failed : passed);
    return seen_[key] = failed >= need;
  }
  long tries = 0;

 private:
  const property_spec& spec_;
  const search_options& o_;
  std::string way_;
  std::map<std::string, bool> seen_;
};

/// The first of CURRENT's shrinks that still fails; nullopt when none does,
/// or when DEADLINE is past (CE says so).
std::optional<rc::Shrinkable<workload_case>> first_failing(
    const rc::Shrinkable<workload_case>& current, judge& j, counterexample& ce,
    clock::time_point deadline) {
  auto shrinks = current.shrinks();
  while (auto next = shrinks.next()) {
    if (clock::now() > deadline) {
      ce.shrink_stopped = true;
      return std::nullopt;
    }
    if (j.fails(next->value())) return *next;
  }
  return std::nullopt;
}

/// Walks SHRINKABLE's shrinks: the first that still fails becomes the case,
/// and its shrinks are walked in turn, until none fails or SECONDS are up.
rc::Shrinkable<workload_case> shrink(rc::Shrinkable<workload_case> current, judge& j,
                                     counterexample& ce, double seconds) {
  const auto deadline = clock::now() + std::chrono::duration_cast<clock::duration>(
                                           std::chrono::duration<double>(seconds));
  while (auto next = first_failing(current, j, ce, deadline)) {
    if (j.key(next->value()) != j.key(current.value())) ++ce.shrink_steps;  // else unused fields
    current = *next;
  }
  return current;
}

/// One property's search: what it searches (the spec, the options), when it
/// started, and the result it fills in.
class searcher {
 public:
  searcher(const property_spec& spec, const search_options& o, clock::time_point start,
           property_result& r)
      : spec_(spec), o_(o), start_(start), r_(r) {}
  /// Generates and runs o.cases cases from o.seed until one ends the search
  /// or o.max_seconds from the start are up.
  void search();

 private:
  /// Runs case I (SHRINKABLE); true: stop the search, because it could not
  /// run (the result's error) or it broke the promise (its counterexample).
  bool run_case(long i, const rc::Shrinkable<workload_case>& shrinkable);
  /// SHRINKABLE, which broke the promise as OUT, shrunk and described;
  /// FOUND_AT: its case's number.
  counterexample counterexample_of(const rc::Shrinkable<workload_case>& shrinkable,
                                   const workload_outcome& out, long found_at) const;
  /// FOUND_CASE's report, the case as found (it broke the promise as OUT),
  /// for the shrunk case CE that did not break it again.
  counterexample as_found(const workload_case& found_case, const workload_outcome& out,
                          const counterexample& ce) const;
  /// The shrunk case's report: what broke, what arrived, how often, how to repeat it.
  /// FOUND is the run that first broke it, what the report shows if C never breaks again.
  void describe(const workload_case& c, const workload_outcome& found, counterexample& ce) const;
  /// Runs C o.rate_runs times, counting in CE the runs and those that break
  /// the promise as FOUND did: the first of those, or FOUND if none does.
  workload_outcome rerun(const workload_case& c, const workload_outcome& found,
                         counterexample& ce) const;

  const property_spec& spec_;
  const search_options& o_;
  clock::time_point start_;
  property_result& r_;
};

workload_outcome searcher::rerun(const workload_case& c, const workload_outcome& found,
                                 counterexample& ce) const {
  const std::string way = found.broken();
  workload_outcome first = found;
  for (int i = 0; i < o_.rate_runs; ++i) {
    workload_outcome run = run_workload_case(spec_, c, o_.on_spawn);
    ++ce.runs;
    if (run.broken() != way) continue;
    if (ce.failed_runs++ == 0) first = std::move(run);
  }
  return first;
}

void searcher::describe(const workload_case& c, const workload_outcome& found,
                        counterexample& ce) const {
  const workload_outcome first = rerun(c, found, ce);
  const auto i = first.first_broken();
  ce.end = first.plan.end;
  ce.sink = first.plan.sink;
  ce.status = first.status;
  ce.repro = first.repro;
  for (const auto& op : first.plan.workload) ce.workload += (ce.workload.empty() ? "" : "; ") + op;
  if (!i) return;
  ce.promise = first.terms[*i];
  ce.check = first.checks[*i].expect.describe();
  ce.failure = first.checks[*i].outcome.why;
  ce.case_toml = case_toml(spec_, c, first.checks[*i].expect, spec_.name + "_counterexample");
}

counterexample searcher::as_found(const workload_case& found_case, const workload_outcome& out,
                                  const counterexample& ce) const {
  counterexample found = ce;
  found.failed_runs = found.runs = 0;
  found.workload.clear();
  describe(found_case, out, found);
  found.note = "the shrunk case (" + ce.workload + ") did not break it again in " +
               std::to_string(ce.runs) + " runs: this is the case as found";
  return found;
}

counterexample searcher::counterexample_of(const rc::Shrinkable<workload_case>& shrinkable,
                                           const workload_outcome& out, long found_at) const {
  counterexample ce;
  ce.found_at = found_at;
  ce.seconds_to_find = since(start_);
  judge j(spec_, o_, out.broken());
  const auto shrunk = shrink(shrinkable, j, ce, o_.max_seconds);
  ce.shrink_tries = j.tries;
  describe(shrunk.value(), out, ce);
  if (ce.failed_runs == 0 && ce.shrink_steps > 0)  // a race's luck took it: show the case found
    ce = as_found(shrinkable.value(), out, ce);
  return ce;
}

bool searcher::run_case(long i, const rc::Shrinkable<workload_case>& shrinkable) {
  const workload_outcome out = run_workload_case(spec_, shrinkable.value(), o_.on_spawn);
  ++r_.cases;
  if (!out.error.empty()) {
    r_.error = "case " + std::to_string(i + 1) + ": " + out.error +
               (out.repro.empty() ? "" : "; repeat: " + out.repro);
    return true;
  }
  if (out.kept()) return false;
  r_.found = counterexample_of(shrinkable, out, i + 1);
  return true;
}

void searcher::search() {
  const auto gen = gen_workload_case(spec_);
  rc::Random random(o_.seed);
  for (long i = 0; i < o_.cases; ++i) {
    if (since(start_) > o_.max_seconds) {
      r_.budget_hit = true;
      break;
    }
    const auto shrinkable = gen(random.split(), static_cast<int>(i % 81));
    if (run_case(i, shrinkable)) break;
  }
}

}  // namespace

std::uint64_t fresh_seed() {
  std::random_device rd;
  return (static_cast<std::uint64_t>(rd()) << 32 | rd()) % 1000000000000ULL;
}

property_result search_property(const property_spec& spec, const search_options& o) {
  property_result r;
  r.name = spec.name;
  r.seed = o.seed;
  r.cases_asked = o.cases;
  r.must_break = !spec.holds;
  r.repeat = o.repeat + " --seed " + std::to_string(o.seed);
  const auto start = clock::now();
  searcher(spec, o, start, r).search();
  r.seconds = since(start);
  return r;
}

}  // namespace flushcheck
