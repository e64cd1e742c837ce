// The model properties (model_property.hpp).
#include "model_property.hpp"

#include <csignal>
#include <cstdint>
#include <sstream>

#include "seeded_check.hpp"

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

/// What a property's cases leave behind, for its report.
struct case_trail {
  // Shrinking keeps a candidate only when it fails, so the last failing
  // case seen is the shrunk counterexample RapidCheck reports.
  std::optional<model_case> last_failed;
  std::optional<model_outcome> last_outcome;
  fault_tally tally;
};

/// Runs C against the model: a disagreement fails the case (RC_FAIL); one
/// that did not repeat goes to R's flaky cases.
void check_case(const target_set& targets, const model_case& c, property_report& r,
                case_trail& trail) {
  model_outcome o = run_against_model(targets, c);
  if (o.v.pass) trail.tally.add(o.p);
  if (o.flaky) {
    r.flaky.push_back(c.ops.text() + "\n" + o.v.explanation + "\nreproduce: " + o.v.repro);
    return;
  }
  if (!o.v.pass) {
    trail.last_failed = c;
    trail.last_outcome = o;
    RC_FAIL(o.v.explanation + "\narrived: " + o.v.observed + "\nreproduce: " + o.v.repro);
  }
}

/// Property NAME falsified: RESULT's shrunk case and RapidCheck's
/// description, and AGAIN, the command that runs it again.
std::string falsified_message(const std::string& name, const seeded_result& result,
                              std::uint64_t seed, const std::string& again) {
  std::ostringstream os;
  os << name << ": falsified after " << result.cases << " cases, seed " << seed << "\n";
  os << result.counterexample << result.description << "\n";
  os << "run the property again: " << again << "\n";
  return os.str();
}

/// For people: what RESULT, RapidCheck's, says of P (SEED, AGAIN: how to run it again).
std::string message_of(const model_property& p, const seeded_result& result, std::uint64_t seed,
                       const std::string& again, const fault_tally& tally) {
  if (result.what == seeded_result::outcome::falsified)
    return falsified_message(p.name, result, seed, again);
  if (result.what == seeded_result::outcome::passed)
    return p.name + ": " + std::to_string(result.cases) + " cases agree with the model" +
           (p.faults ? tally.text() : "");
  if (result.what == seeded_result::outcome::gave_up)
    return p.name + ": gave up: " + result.description;
  return p.name + ": RapidCheck error";
}

/// R's verdict, from RESULT and what the cases left (TRAIL).
void set_verdict(const model_property& p, const seeded_result& result, const std::string& again,
                 const case_trail& trail, property_report& r) {
  r.passed = result.what == seeded_result::outcome::passed;
  if (result.what == seeded_result::outcome::falsified) {
    r.counterexample = trail.last_failed;
    r.outcome = trail.last_outcome;
  }
  r.message = message_of(p, result, r.seed, again, trail.tally);
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

property_report check_against_model(const model_property& p, const target_set& targets, int cases,
                                    std::uint64_t seed, const std::string& again) {
  property_report r;
  r.seed = seed;
  r.cases = cases;
  const auto gen = gen_case(p.language, targets.profile, p.family, p.faults);
  case_trail trail;
  auto prop = [&] { check_case(targets, *gen, r, trail); };
  set_verdict(p, seeded_check(p.name, prop, cases, seed), again, trail, r);
  return r;
}

}  // namespace flushcheck
