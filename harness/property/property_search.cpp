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
/// or when SECONDS from START are up (CE says so).
std::optional<rc::Shrinkable<workload_case>> first_failing(
    const rc::Shrinkable<workload_case>& current, judge& j, counterexample& ce,
    clock::time_point start, double seconds) {
  auto shrinks = current.shrinks();
  while (auto next = shrinks.next()) {
    if (since(start) > seconds) {
      ce.shrink_stopped = true;
      return std::nullopt;
    }
    if (j.fails(next->value())) return *next;
  }
  return std::nullopt;
}

/// Walks SHRINKABLE's shrinks: the first that still fails becomes the case,
/// and its shrinks are walked in turn, until none fails or time is up.
rc::Shrinkable<workload_case> shrink(rc::Shrinkable<workload_case> current, judge& j,
                                     counterexample& ce, double seconds) {
  const auto start = clock::now();
  while (auto next = first_failing(current, j, ce, start, seconds)) {
    if (j.key(next->value()) != j.key(current.value())) ++ce.shrink_steps;  // else unused fields
    current = *next;
  }
  return current;
}

/// Runs C o.rate_runs times, counting in CE the runs and those that break
/// the promise as FOUND did: the first of those, or FOUND if none does.
workload_outcome rerun(const property_spec& spec, const workload_case& c,
                       const workload_outcome& found, const search_options& o, counterexample& ce) {
  const std::string way = found.broken();
  workload_outcome first = found;
  for (int i = 0; i < o.rate_runs; ++i) {
    workload_outcome run = run_workload_case(spec, c, o.on_spawn);
    ++ce.runs;
    if (run.broken() != way) continue;
    if (ce.failed_runs++ == 0) first = std::move(run);
  }
  return first;
}

/// The shrunk case's report: what broke, what arrived, how often, how to repeat it.
/// FOUND is the run that first broke it, what the report shows if C never breaks again.
void describe(const property_spec& spec, const workload_case& c, const workload_outcome& found,
              const search_options& o, counterexample& ce) {
  const workload_outcome first = rerun(spec, c, found, o, ce);
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
  ce.case_toml = case_toml(spec, c, first.checks[*i].expect, spec.name + "_counterexample");
}

/// FOUND_CASE's report, the case as found (it broke the promise as OUT),
/// for the shrunk case CE that did not break it again.
counterexample as_found(const property_spec& spec, const search_options& o,
                        const workload_case& found_case, const workload_outcome& out,
                        const counterexample& ce) {
  counterexample found = ce;
  found.failed_runs = found.runs = 0;
  found.workload.clear();
  describe(spec, found_case, out, o, found);
  found.note = "the shrunk case (" + ce.workload + ") did not break it again in " +
               std::to_string(ce.runs) + " runs: this is the case as found";
  return found;
}

/// SHRINKABLE, which broke the promise as OUT, shrunk and described; FOUND_AT:
/// its case's number, START: the search's.
counterexample counterexample_of(const property_spec& spec, const search_options& o,
                                 const rc::Shrinkable<workload_case>& shrinkable,
                                 const workload_outcome& out, long found_at,
                                 clock::time_point start) {
  counterexample ce;
  ce.found_at = found_at;
  ce.seconds_to_find = since(start);
  judge j(spec, o, out.broken());
  const auto shrunk = shrink(shrinkable, j, ce, o.max_seconds);
  ce.shrink_tries = j.tries;
  describe(spec, shrunk.value(), out, o, ce);
  if (ce.failed_runs == 0 && ce.shrink_steps > 0)  // a race's luck took it: show the case found
    ce = as_found(spec, o, shrinkable.value(), out, ce);
  return ce;
}

/// Runs case I (SHRINKABLE); true when it ends the search: it could not
/// run (R's error) or it broke the promise (R's counterexample).
bool ends_search(const property_spec& spec, const search_options& o,
                 const rc::Shrinkable<workload_case>& shrinkable, long i, clock::time_point start,
                 property_result& r) {
  const workload_outcome out = run_workload_case(spec, shrinkable.value(), o.on_spawn);
  ++r.cases;
  if (!out.error.empty()) {
    r.error = "case " + std::to_string(i + 1) + ": " + out.error +
              (out.repro.empty() ? "" : "; repeat: " + out.repro);
    return true;
  }
  if (out.kept()) return false;
  r.found = counterexample_of(spec, o, shrinkable, out, i + 1, start);
  return true;
}

/// Generates and runs o.cases cases from o.seed until one ends the search or
/// o.max_seconds from START are up.
void search_cases(const property_spec& spec, const search_options& o, clock::time_point start,
                  property_result& r) {
  const auto gen = gen_workload_case(spec);
  rc::Random random(o.seed);
  for (long i = 0; i < o.cases; ++i) {
    if (since(start) > o.max_seconds) {
      r.budget_hit = true;
      break;
    }
    const auto shrinkable = gen(random.split(), static_cast<int>(i % 81));
    if (ends_search(spec, o, shrinkable, i, start, r)) break;
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
  search_cases(spec, o, start, r);
  r.seconds = since(start);
  return r;
}

}  // namespace flushcheck
