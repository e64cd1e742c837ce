#pragma once
/// Real runs against the model: what a traced run of a script showed,
/// compared with what the model predicts for it (tests/property_test.cpp
/// generates the cases, docs/model.md says what is compared).
#include <chrono>
#include <optional>

#include "kill_plan.hpp"
#include "model.hpp"
#include "observation.hpp"
#include "run.hpp"
#include "script.hpp"
#include "target_set.hpp"
#include "verdict.hpp"

namespace flushcheck {

/// Does the observation of one run agree with the model's prediction for it?
/// Per destination: the bytes at the reader (target error reports and a
/// terminate handler's message taken out) are exactly `data` when the model
/// is exact, else an interleaving of the channels' prefixes, each between
/// MUST and MAY; write calls in range (with a trace); the same end.
/// The verdict explains the first disagreement, MUST/MAY next to what arrived.
verdict check_observation(const prediction& p, const model_setup& setup, const observation& obs);

/// One generated case: a script, where its streams go, and where it is cut.
struct model_case {
  model_setup setup;
  script ops;
  kill_plan cut;  ///< never: the script runs to its end
};

struct model_outcome {
  verdict v;  ///< v.repro: the `flushcheck run` line; v.observed: what arrived
  prediction p;
  observation first;
  std::optional<observation> second;  ///< the re-run after a disagreement
  bool flaky = false;                 ///< the first run disagreed, the re-run did not
  /// A run reached the deadline before its own timeout (or none was left to
  /// start it): no verdict, whatever v says. v.repro is the run cut short.
  bool stopped = false;
};

/// SETUP with the st_blksize of its destinations asked of the kernel
/// (sink.hpp's st_blksize_of): what a real run of it will see.
model_setup with_st_blksize(model_setup setup);

/// The run_options that run case C on TARGETS (traced, clean environment).
run_options model_run_options(const target_set& targets, const model_case& c);

/// Runs C on TARGETS, traced, and checks it against the model. A
/// disagreement is run once more: if the re-run agrees the outcome is flaky
/// (both observations kept), else the verdict fails. With a DEADLINE, each
/// run's timeout is the smaller of its own and the time left; a run that the
/// deadline ended, or that had no time left, makes the outcome `stopped`.
model_outcome run_against_model(
    const target_set& targets, const model_case& c,
    std::optional<std::chrono::steady_clock::time_point> deadline = std::nullopt);

}  // namespace flushcheck
