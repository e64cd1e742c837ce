// Check the driver, generate, check, shrink, rate (property_search.hpp).
// RapidCheck's generators make each case and its shrinks
// (Shrinkable::shrinks()); this walks them as RapidCheck's own shrinker
// does, taking the first smaller case that still fails, but only one that
// fails the same way, in most of its runs: a logger that races must show the
// bug, not luck. Every run ends by its phase's deadline.
#include "property_search.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <random>

#include "every_write_cut.hpp"
#include "outcome_wire.hpp"
#include "property_gen.hpp"
#include "property_run.hpp"
#include "workers.hpp"

namespace flushcheck {

namespace {

using clock = std::chrono::steady_clock;

double since(clock::time_point t) {
  return std::chrono::duration<double>(clock::now() - t).count();
}

clock::time_point after(clock::time_point t, double seconds) {
  return t + std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(seconds));
}

/// "log info 3; _exit 0": C's workload as it runs.
std::string workload_text(const property_spec& spec, const workload_case& c) {
  std::string text;
  for (const auto& op : plan_of(spec, c).workload) text += (text.empty() ? "" : "; ") + op;
  return text;
}

/// How the search runs a case: with o.derive, a case with write cuts is
/// checked at every one of them (every_write_cut.hpp), unless the driver's
/// check run showed it runs more than one process or thread (then none
/// could be derived, and each would cost an uncut run for nothing).
struct case_runner {
  const property_spec& spec;
  const search_options& o;
  std::string not_derived;  ///< why no case's write cuts are derived ("": they may be)
  workload_outcome operator()(const workload_case& c, clock::time_point deadline) const {
    const case_run_options ro{o.on_spawn, deadline};
    if (!o.derive) return run_workload_case(spec, c, ro);
    if (!not_derived.empty() && has_write_cuts(c))
      return run_own_write_cut(spec, c, ro, not_derived);
    return run_every_write_cut(spec, c, ro);
  }
  /// What decides C's runs (cases with one key run alike; with every write
  /// cut checked, which of them C drew does not).
  std::string key(workload_case c) const {
    // A case on one thread is derived (run_every_write_cut); one on more
    // runs its own cut, which its key must then keep.
    if (o.derive && not_derived.empty() && has_write_cuts(c) && !plan_of(spec, c).threaded)
      c.at = 0;
    return plan_of(spec, c).key();
  }
};

/// A candidate's runs: whether it broke the promise as WAY in most of them.
class judge {
 public:
  judge(const case_runner& run, const search_options& o, std::optional<breach> way,
        clock::time_point deadline)
      : run_(run), o_(o), way_(std::move(way)), deadline_(deadline) {}
  std::string key(const workload_case& c) const { return run_.key(c); }
  /// Runs C until the majority of o.reruns is known (a key already judged:
  /// not again). A run the deadline cut short counts as not failing.
  bool fails(const workload_case& c) {
    const std::string key = this->key(c);
    if (auto it = seen_.find(key); it != seen_.end()) return it->second;
    ++tries;
    const int need = o_.reruns / 2 + 1;
    int failed = 0, passed = 0;
    while (failed < need && passed < o_.reruns - need + 1) {
      const workload_outcome out = run_(c, deadline_);
      if (out.broken() != way_) {
        ++passed;
        continue;
      }
      if (failed++ == 0 && out.derivation) at_[key] = out.derivation->at;
    }
    return seen_[key] = failed >= need;
  }
  /// C with the cut of its first run that failed, where every write cut was checked.
  workload_case pinned(workload_case c) const {
    if (const auto it = at_.find(key(c)); it != at_.end()) c.at = it->second;
    return c;
  }
  long tries = 0;

 private:
  const case_runner& run_;
  const search_options& o_;
  std::optional<breach> way_;
  clock::time_point deadline_;
  std::map<std::string, bool> seen_;
  std::map<std::string, long> at_;  ///< per key, pinned()'s cut
};

/// One property's search: what it searches (the spec, the options), when it
/// started, and the result it fills in.
class searcher {
 public:
  searcher(const property_spec& spec, const search_options& o, property_result& r)
      : spec_(spec),
        o_(o),
        run_{spec, o, ""},
        gen_(gen_workload_case(spec)),
        start_(clock::now()),
        deadline_(after(start_, o.max_seconds)),
        r_(r) {}
  /// Checks the driver, then generates and runs o.cases cases from o.seed
  /// until one ends the search or o.max_seconds are up; then says whether
  /// every end it promises was tested.
  void search();

 private:
  /// The driver check (run_driver_check); false: the search cannot go on.
  bool driver_runs();
  /// The cases from number I on that can be made before any of them ran:
  /// case I, then each next one whose making cannot follow their outcomes
  /// (end_not_checked), at most max_batch.
  std::vector<rc::Shrinkable<workload_case>> next_cases(long i, rc::Random& random);
  static constexpr long max_batch = 256;
  /// Whether case I is made as the seed draws it, whatever the cases before it do.
  bool drawn_as_seeded(long i) const;
  /// Case I (SHRINKABLE), which ran as OUT; true: stop the search, because
  /// it could not run (the result's error), the budget ended it, or it broke
  /// the promise (kept in broke_, shrunk once the workers have ended: a run
  /// here while they live would end them as its orphans, and they would
  /// take its CPU).
  bool take_case(long i, const rc::Shrinkable<workload_case>& shrinkable,
                 const workload_outcome& out);
  /// Counts OUT, a run of C, in C's end's tally.
  void tally(const workload_case& c, const workload_outcome& out);
  /// Counts D, how a tested (TESTED) case's write cuts were checked, in T.
  void tally(const case_derivation& d, bool tested, end_tally& t);
  /// OUT's error as the result's, the case's number I said.
  void fail_with(const workload_outcome& out, const std::string& where);
  /// After a search that found nothing: each promised end no case tested, an error.
  void require_checked_ends();
  /// Before case I: a promised end no case has checked yet (its cut or
  /// fault never came, or no record its promise counts was logged), once
  /// the first cases (one per end) have had their chance at random, and
  /// while it has had fewer than forced_tries cases of its own; else none.
  /// A slow driver's short budget still checks every end it promises, and
  /// an end its driver never reaches cannot take every case. (Which cases
  /// are forced follows what earlier cases did: a racy driver's runs may
  /// make the same seed search other cases.)
  std::optional<property_end> end_not_checked(long i);
  static constexpr int forced_tries = 8;
  /// SHRINKABLE, which broke the promise as OUT, shrunk (when it breaks it
  /// again) and described; FOUND_AT: its case's number.
  counterexample counterexample_of(const rc::Shrinkable<workload_case>& shrinkable,
                                   const workload_outcome& out, long found_at);
  /// SHRINKABLE, which broke the promise as OUT and again since, shrunk and
  /// rated into CE; SHOWN becomes the shrunk case, unless it never broke the
  /// promise again (then SHOWN, the case as found, is rated). The run to describe.
  workload_outcome shrink_and_rate(const rc::Shrinkable<workload_case>& shrinkable,
                                   const workload_outcome& out, counterexample& ce,
                                   workload_case& shown);
  /// CE's picture: C run once more with its timeline kept.
  void draw(const workload_case& c, counterexample& ce) const;
  /// Walks SHRINKABLE's shrinks: the first that still fails becomes the
  /// case, and its shrinks are walked in turn, until none fails or DEADLINE.
  rc::Shrinkable<workload_case> shrink(rc::Shrinkable<workload_case> current, judge& j,
                                       counterexample& ce, clock::time_point deadline);
  /// Whether C, found breaking the promise as WAY, breaks it again within
  /// o.reruns runs; the runs are counted in CE's rate.
  bool reproduces(const workload_case& c, const std::optional<breach>& way, counterexample& ce,
                  clock::time_point deadline);
  /// Runs C until CE counts o.rate_runs runs (or DEADLINE), counting those that
  /// break the promise as FOUND did: the first of those, or FOUND if none does.
  workload_outcome rate(const workload_case& c, const workload_outcome& found, counterexample& ce,
                        clock::time_point deadline);
  /// C's report from OUT, a run that broke the promise: what broke, what
  /// arrived, how to repeat and pin it.
  void describe(const workload_case& c, const workload_outcome& out, counterexample& ce) const;
  void progress(search_progress::phase now, const counterexample* ce = nullptr) const;

  const property_spec& spec_;
  const search_options& o_;
  case_runner run_;             ///< how each case runs (its not_derived set by driver_runs)
  rc::Gen<workload_case> gen_;  ///< the cases as the seed draws them
  clock::time_point start_;
  clock::time_point deadline_;
  clock::time_point shrink_end_, rate_end_;  ///< once a case broke the promise
  std::map<property_end, int> forced_;       ///< cases end_not_checked chose, per end
  /// The case that broke the promise, as take_case took it.
  struct broken_case {
    rc::Shrinkable<workload_case> shrinkable;
    workload_outcome out;
    long found_at;
  };
  std::optional<broken_case> broke_;
  property_result& r_;
};

void searcher::progress(search_progress::phase now, const counterexample* ce) const {
  if (!o_.on_progress) return;
  search_progress p{now, r_.cases, o_.cases, since(start_)};
  if (ce) {
    p.shrink_steps = ce->shrink_steps;
    p.shrink_tries = ce->shrink_tries;
    p.runs = ce->runs;
  }
  o_.on_progress(p);
}

bool searcher::reproduces(const workload_case& c, const std::optional<breach>& way,
                          counterexample& ce, clock::time_point deadline) {
  for (int i = 0; i < o_.reruns && clock::now() < deadline; ++i) {
    const workload_outcome run = run_workload_case(spec_, c, {o_.on_spawn, deadline});
    if (run.out_of_budget) break;
    ++ce.runs;
    progress(search_progress::phase::rating, &ce);
    if (run.broken() == way) return ++ce.failed_runs, true;
  }
  return false;
}

workload_outcome searcher::rate(const workload_case& c, const workload_outcome& found,
                                counterexample& ce, clock::time_point deadline) {
  const std::optional<breach> way = found.broken();
  const int first_failed = ce.failed_runs;
  workload_outcome first = found;
  while (ce.runs < o_.rate_runs + (ce.note.empty() ? 0 : 1)) {
    if (clock::now() >= deadline) return ce.rate_stopped = true, first;
    workload_outcome run = run_workload_case(spec_, c, {o_.on_spawn, deadline});
    if (run.out_of_budget) return ce.rate_stopped = true, first;
    ++ce.runs;
    progress(search_progress::phase::rating, &ce);
    if (run.broken() != way) continue;
    if (ce.failed_runs++ == first_failed) first = std::move(run);
  }
  return first;
}

void searcher::describe(const workload_case& c, const workload_outcome& out,
                        counterexample& ce) const {
  const auto i = out.first_broken();
  ce.end = out.plan.end;
  ce.sink = out.plan.sink;
  ce.status = out.status;
  ce.repro = out.repro;
  ce.driver_stderr = out.driver_stderr;
  ce.workload = workload_text(spec_, c);
  if (!i) return;
  ce.promise = out.terms[*i];
  ce.check = out.checks[*i].expect.describe();
  ce.failure = out.checks[*i].outcome.why;
  ce.case_toml = case_toml(spec_, c, out.checks[*i].expect, spec_.name + "_counterexample");
}

rc::Shrinkable<workload_case> searcher::shrink(rc::Shrinkable<workload_case> current, judge& j,
                                               counterexample& ce, clock::time_point deadline) {
  for (bool smaller = true; smaller;) {
    smaller = false;
    auto shrinks = current.shrinks();
    while (auto next = shrinks.next()) {
      if (clock::now() > deadline) return ce.shrink_stopped = true, current;
      const bool fails = j.fails(next->value());
      ce.shrink_tries = j.tries;
      progress(search_progress::phase::shrinking, &ce);
      if (!fails) continue;
      if (j.key(next->value()) != j.key(current.value())) ++ce.shrink_steps;  // else unused fields
      current = *next;
      smaller = true;
      break;
    }
  }
  return current;
}

workload_outcome searcher::shrink_and_rate(const rc::Shrinkable<workload_case>& shrinkable,
                                           const workload_outcome& out, counterexample& ce,
                                           workload_case& shown) {
  judge j(run_, o_, out.broken(), shrink_end_);
  const auto shrunk = shrink(shrinkable, j, ce, shrink_end_);
  // Without a step the case is SHOWN, its cut pinned; else the cut its run that failed broke.
  const workload_case smallest = ce.shrink_steps > 0 ? j.pinned(shrunk.value()) : shown;
  ce.runs = ce.failed_runs = 0;
  const workload_outcome first = rate(smallest, out, ce, rate_end_);
  if (ce.failed_runs > 0 || ce.shrink_steps == 0) {
    shown = smallest;
    return first;
  }
  // A race's luck took the shrinking where it does not fail: show the case found.
  ce.note = "the shrunk case (" + workload_text(spec_, shrunk.value()) +
            ") did not break the promise again in " + std::to_string(ce.runs) +
            " runs: this is the case as found";
  ce.runs = ce.failed_runs = 1;  // the run that found it
  ce.rate_stopped = false;
  return rate(shown, out, ce, rate_end_);
}

counterexample searcher::counterexample_of(const rc::Shrinkable<workload_case>& shrinkable,
                                           const workload_outcome& out, long found_at) {
  counterexample ce;
  ce.found_at = found_at;
  ce.seconds_to_find = since(start_);
  // The shrinking gets max_seconds, less a quarter kept for the runs that rate its result.
  shrink_end_ = after(clock::now(), o_.max_seconds * 0.75);
  rate_end_ = after(clock::now(), o_.max_seconds);
  workload_case shown = shrinkable.value();
  if (out.derivation) shown.at = out.derivation->at;  // the cut that broke it, of every one
  workload_outcome first = out;
  if (reproduces(shown, out.broken(), ce, shrink_end_)) {
    first = shrink_and_rate(shrinkable, out, ce, shown);
  } else {
    ce.note = ce.runs < o_.reruns
                  ? "--max-seconds left no time to run it again: not shrunk"
                  : "it did not break the promise again in " + std::to_string(ce.runs) +
                        " runs: not shrunk (a race that seldom loses it)";
    ce.runs += 1, ce.failed_runs += 1;  // the run that found it
    first = rate(shown, out, ce, rate_end_);
  }
  describe(shown, first, ce);
  if (o_.timeline) draw(shown, ce);
  return ce;
}

void searcher::draw(const workload_case& c, counterexample& ce) const {
  // One more run for the picture: past the budget by one run at most, only for --html.
  const auto deadline = std::max(rate_end_, after(clock::now(), 10));
  ce.obs = run_workload_case(spec_, c, {o_.on_spawn, deadline, true}).obs;
}

void searcher::tally(const workload_case& c, const workload_outcome& out) {
  end_tally& t = r_.ends[c.end];
  ++t.generated;
  if (!out.missed.empty()) ++t.missed[out.missed];
  if (out.derivation) tally(*out.derivation, out.tested(), t);
  if (!out.tested()) return;
  ++t.tested;
  if (out.checked()) ++t.checked;
}

void searcher::tally(const case_derivation& d, bool tested, end_tally& t) {
  if (!d.not_derived.empty()) {
    if (t.not_derived[d.not_derived]++ == 0 && !d.detail.empty())
      t.not_derived_example[d.not_derived] = d.detail;
    return;
  }
  if (!tested) return;
  ++t.derived;
  t.derived_cuts += d.cuts;
  t.verified_cuts += d.verified;
}

void searcher::fail_with(const workload_outcome& out, const std::string& where) {
  static const std::map<case_error, property_error> kinds = {
      {case_error::spawn, property_error::spawn},
      {case_error::driver, property_error::driver},
      {case_error::harness, property_error::harness},
      {case_error::timeout, property_error::timeout}};
  r_.error_kind = kinds.at(out.error_kind);
  r_.error = where + out.error + (out.repro.empty() ? "" : "; repeat: " + out.repro);
  r_.driver_stderr = out.driver_stderr;
}

bool searcher::driver_runs() {
  const workload_outcome out = run_driver_check(spec_, {o_.on_spawn, deadline_});
  if (out.out_of_budget) {
    r_.budget_hit = true;
    return false;
  }
  if (out.error_kind == case_error::none) {
    if (out.processes > 1)
      run_.not_derived = "more than one process or thread ran (" + std::to_string(out.processes) +
                         " in the driver's check run)";
    return true;
  }
  const std::string run = "its check run ('" + out.plan.workload.front() + "; ...')";
  fail_with(out, out.error_kind == case_error::harness ? "the harness failed " + run + ": "
                                                       : "the driver failed " + run + ": ");
  return false;
}

bool searcher::take_case(long i, const rc::Shrinkable<workload_case>& shrinkable,
                         const workload_outcome& out) {
  if (out.out_of_budget) {
    r_.budget_hit = true;
    return true;
  }
  ++r_.cases;
  tally(shrinkable.value(), out);
  progress(search_progress::phase::searching);
  if (out.error_kind != case_error::none) {
    fail_with(out, "case " + std::to_string(i + 1) + ": ");
    return true;
  }
  if (!out.tested() || out.kept()) return false;
  broke_ = broken_case{shrinkable, out, i + 1};
  return true;
}

/// Why END, promised P, was never checked, from its tally T (of CASES).
std::string unchecked(property_end end, const end_tally& t, long cases) {
  const std::string e = end_name(end);
  if (t.generated == 0)
    return e + ": no case ended so (" + std::to_string(cases) +
           " cases in all: raise --cases or --max-seconds)";
  std::string why = e + ": " + std::to_string(t.tested) + " of " + std::to_string(t.generated) +
                    " cases tested it";
  for (const auto& [missed, n] : t.missed) why += "; " + std::to_string(n) + ": " + missed;
  if (t.tested > 0) why += "; none had a record its promise counts";
  return why;
}

void searcher::require_checked_ends() {
  std::string why;
  for (const auto& [end, promised] : spec_.promises) {
    if (promised.empty()) continue;  // "nothing": the end runs, nothing to check
    const end_tally t = r_.ends.contains(end) ? r_.ends.at(end) : end_tally{};
    if (t.checked == 0) why += (why.empty() ? "" : " | ") + unchecked(end, t, r_.cases);
  }
  if (why.empty()) return;
  r_.error_kind = property_error::nothing_checked;
  r_.error = "nothing checked of what it promises at " + why;
}

std::optional<property_end> searcher::end_not_checked(long i) {
  if (i < static_cast<long>(spec_.promises.size())) return std::nullopt;  // as the seed draws
  for (const auto& [end, promised] : spec_.promises) {
    if (promised.empty()) continue;  // "nothing": no case needed
    const bool checked = r_.ends.contains(end) && r_.ends.at(end).checked > 0;
    if (!checked && forced_[end] < forced_tries) {
      ++forced_[end];
      return end;
    }
  }
  return std::nullopt;
}

bool searcher::drawn_as_seeded(long i) const {
  if (i < static_cast<long>(spec_.promises.size())) return true;
  for (const auto& [end, promised] : spec_.promises) {
    if (promised.empty()) continue;
    const bool checked = r_.ends.contains(end) && r_.ends.at(end).checked > 0;
    const auto forced = forced_.find(end);
    if (!checked && (forced == forced_.end() || forced->second < forced_tries)) return false;
  }
  return true;  // end_not_checked finds none now, and never will (both only grow)
}

std::vector<rc::Shrinkable<workload_case>> searcher::next_cases(long i, rc::Random& random) {
  std::vector<rc::Shrinkable<workload_case>> cases;
  do {
    const long n = i + static_cast<long>(cases.size());
    const auto missing = end_not_checked(n);
    cases.push_back((missing ? gen_workload_case(spec_, missing) : gen_)(random.split(),
                                                                         static_cast<int>(n % 81)));
  } while (i + static_cast<long>(cases.size()) < o_.cases &&
           static_cast<long>(cases.size()) < max_batch &&
           drawn_as_seeded(i + static_cast<long>(cases.size())));
  return cases;
}

void searcher::search() {
  if (!driver_runs()) {
    if (r_.budget_hit) require_checked_ends();
    return;
  }
  rc::Random random(o_.seed);
  for (long i = 0; i < o_.cases;) {
    if (clock::now() > deadline_) {
      r_.budget_hit = true;
      break;
    }
    // The cases that wait for no outcome run side by side; their outcomes
    // are taken in their order, as if each had run after the one before.
    const auto cases = next_cases(i, random);
    bool ended = false;
    run_in_workers<workload_outcome>(
        o_.jobs, static_cast<long>(cases.size()),
        [&](long k) { return run_(cases[k].value(), deadline_); },
        [&](long k, workload_outcome out) { return !(ended = take_case(i + k, cases[k], out)); },
        encode_outcome, decode_outcome);
    if (broke_) r_.found = counterexample_of(broke_->shrinkable, broke_->out, broke_->found_at);
    if (ended) break;
    i += static_cast<long>(cases.size());
  }
  if (r_.error_kind == property_error::none && !r_.found) require_checked_ends();
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
  r.repeat = o.repeat;
  const auto start = clock::now();
  searcher(spec, o, r).search();
  r.seconds = since(start);
  return r;
}

}  // namespace flushcheck
