#pragma once
/// A promise, made concrete for one case: the gate checks
/// (gate_expect.hpp, the checks gate files have) that the case's records
/// must pass, each named by the promise term it stands for. docs/gate.md
/// ("Property gates") gives the table this follows.
#include <string>
#include <vector>

#include "gate_expect.hpp"
#include "property_spec.hpp"
#include "workload_case.hpp"

namespace flushcheck {

struct promised_check {
  promised_term term;  ///< "through_last_flush at _exit"
  gate_expect expect;
};

/// The checks SPEC's promise for C's end asks of PLAN's run.
std::vector<promised_check> promised_checks(const property_spec& spec, const workload_case& c,
                                            const case_plan& plan);

}  // namespace flushcheck
