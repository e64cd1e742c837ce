#pragma once
/// RapidCheck generators of property cases (docs/gate.md, "Property
/// gates"): workloads of records at the spec's levels, sized around the
/// stdio buffer and PIPE_BUF, with flushes, sleeps and threads; an end the
/// spec promises something for, and where a cut or fault comes; stdout's
/// sink. RapidCheck's own shrinking makes them smaller: fewer ops, smaller
/// records, lower levels, earlier cuts.
///
///     RC_GTEST_PROP(minilog, keeps_its_promise, ()) {
///       const auto c = *flushcheck::gen_workload_case(spec);
///       const auto out = flushcheck::run_workload_case(spec, c);
///       RC_PRE(out.tested());  // its cut or fault came: it says something
///       RC_ASSERT(out.kept());
///     }
#include <optional>

#include <rapidcheck.h>

#include "property_spec.hpp"
#include "workload_case.hpp"

namespace flushcheck {

rc::Gen<workload_op> gen_workload_op(const property_spec& spec);
/// Cases of SPEC; with END, each ends so (a search that must test an end it
/// has not generated yet).
rc::Gen<workload_case> gen_workload_case(const property_spec& spec,
                                         std::optional<property_end> end = std::nullopt);

}  // namespace flushcheck
