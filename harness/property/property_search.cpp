// Generate, check, shrink, classify (property_search.hpp). RapidCheck's
// generators make each case and its shrinks (Shrinkable::shrinks()); this
// walks them as RapidCheck's own shrinker does, taking the first smaller
// case that still fails, but only one that fails the same way, in most of
// its runs: a logger that races must show the bug, not luck.
#include "property_search.hpp"

#include <chrono>
#include <cstdint>
#include <map>
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

/// Walks SHRINKABLE's shrinks: the first that still fails becomes the case,
/// and its shrinks are walked in turn, until none fails or time is up.
rc::Shrinkable<workload_case> shrink(rc::Shrinkable<workload_case> current, judge& j,
                                     counterexample& ce, double seconds) {
  const auto start = clock::now();
  for (bool progress = true; progress;) {
    progress = false;
    auto shrinks = current.shrinks();
    while (auto next = shrinks.next()) {
      if (since(start) > seconds) {
        ce.shrink_stopped = true;
        return current;
      }
      if (!j.fails(next->value())) continue;
      if (j.key(next->value()) != j.key(current.value())) ++ce.shrink_steps;  // else unused fields
      current = *next;
      progress = true;
      break;
    }
  }
  return current;
}

/// The shrunk case's report: what broke, what arrived, how often, how to repeat it.
/// FOUND is the run that first broke it, what the report shows if C never breaks again.
void describe(const property_spec& spec, const workload_case& c, const workload_outcome& found,
              const search_options& o, counterexample& ce) {
  const std::string way = found.broken();
  workload_outcome first = found;
  for (int i = 0; i < o.rate_runs; ++i) {
    workload_outcome run = run_workload_case(spec, c, o.on_spawn);
    ++ce.runs;
    if (run.broken() != way) continue;
    if (ce.failed_runs++ == 0) first = std::move(run);
  }
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
  const auto gen = gen_workload_case(spec);
  rc::Random random(o.seed);
  for (long i = 0; i < o.cases; ++i) {
    if (since(start) > o.max_seconds) {
      r.budget_hit = true;
      break;
    }
    const auto shrinkable = gen(random.split(), static_cast<int>(i % 81));
    const workload_outcome out = run_workload_case(spec, shrinkable.value(), o.on_spawn);
    ++r.cases;
    if (!out.error.empty()) {
      r.error = "case " + std::to_string(i + 1) + ": " + out.error +
                (out.repro.empty() ? "" : "; repeat: " + out.repro);
      break;
    }
    if (out.kept()) continue;
    counterexample ce;
    ce.found_at = i + 1;
    ce.seconds_to_find = since(start);
    judge j(spec, o, out.broken());
    const auto shrunk = shrink(shrinkable, j, ce, o.max_seconds);
    ce.shrink_tries = j.tries;
    describe(spec, shrunk.value(), out, o, ce);
    if (ce.failed_runs == 0 && ce.shrink_steps > 0) {  // a race's luck took it: show the case found
      counterexample found = ce;
      found.failed_runs = found.runs = 0;
      found.workload.clear();
      describe(spec, shrinkable.value(), out, o, found);
      found.note = "the shrunk case (" + ce.workload + ") did not break it again in " +
                   std::to_string(ce.runs) + " runs: this is the case as found";
      ce = std::move(found);
    }
    r.found = std::move(ce);
    break;
  }
  r.seconds = since(start);
  return r;
}

}  // namespace flushcheck
