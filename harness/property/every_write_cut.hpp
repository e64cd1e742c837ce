#pragma once
/// Every write cut of a case's workload, from one run (run/write_cuts.hpp):
/// a case that ends with a SIGKILL at a write to its records' stream is
/// checked at every such write, not at the one it drew. Its workload runs
/// once uncut and traced; the records' stream each cut would leave (the
/// bytes of the writes before it) is checked against the promise; a
/// sample of the cuts is run for real (the first, the last, each where the
/// verdict changes, one in 64 of the rest), and any that differs from its
/// derivation makes the case run its own cut only, as it would without
/// this. Sound for a workload that takes the same path every run: one
/// thread, no timing, no randomness; the sample is what checks that.
#include <string>

#include "property_run.hpp"
#include "property_spec.hpp"
#include "workload_case.hpp"

namespace flushcheck {

/// Whether C ends with a cut that every_write_cut derives: a KILL at a write.
bool has_write_cuts(const workload_case& c);

/// C checked at every write cut of its workload where that is sound (its
/// outcome's derivation says how, and the run it is: the first cut that
/// broke the promise, else the last), or at its own cut (derivation's
/// not_derived says why). A case without write cuts runs as run_workload_case.
workload_outcome run_every_write_cut(const property_spec& spec, const workload_case& c,
                                     const case_run_options& o = {});

/// C at its own cut (a case with write cuts), without a derivation, which
/// WHY says could not be (its outcome's derivation says so).
workload_outcome run_own_write_cut(const property_spec& spec, const workload_case& c,
                                   const case_run_options& o, const std::string& why);

}  // namespace flushcheck
