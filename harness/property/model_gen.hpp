#pragma once
/// RapidCheck generators of model cases (docs/model.md, "Properties"):
/// scripts of the script targets' operations, their sinks, stdin, cuts and
/// --fault plans, each normalised to a script the model covers. The model
/// properties (model_property.hpp) draw from them.
#include <rapidcheck.h>

#include <ostream>
#include <vector>

#include "model_check.hpp"

namespace flushcheck {

/// Which cuts a property draws: markers (with SIGKILL/SIGTERM) and the
/// script's own ending, or write:N / after-write:N on stdout's destination.
enum class cut_family { markers_and_endings, writes };

/// One op of KIND on STREAM (N, MODE: its arguments, as script.h has them).
fc_op make_op(fc_op_kind kind, fc_stream stream = FC_OUT, long n = 0, int mode = 0);

/// Makes a generated (or shrunk) op list a script the model covers:
/// setvbuf only before a stream's first operation, sync_with_stdio only
/// first (NO_SYNC: never), markers labelled m1.., at most 61 ops so that
/// every op's byte is its own (docs/script.md), C ops only for C.
script normalize(std::vector<fc_op> ops, const std::vector<fc_op>& ending, lang l,
                 bool no_sync = false);

/// A whole case for PROFILE in language L; cuts of FAMILY. FAULTS: one or
/// two --fault plans, and cuts of either family.
rc::Gen<model_case> gen_case(lang l, const impl_profile& profile, cut_family family,
                             bool faults = false);

/// How RapidCheck prints a case (found by ADL): the script, sinks, cut, faults.
void showValue(const model_case& c, std::ostream& os);

}  // namespace flushcheck
