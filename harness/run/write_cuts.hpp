#pragma once
// What a SIGKILL at the entry of write N leaves, derived from one traced run
// rather than run (the idea of ALICE, OSDI 2014): the reader holds exactly
// the bytes of writes 1 to N-1. Sound only for a program that takes the same
// path every time, so a sample of the derived cuts is run for real to check
// it. explore derives its cuts so (explore/derived_cuts.hpp), and a property
// gate every write cut of a case (property/every_write_cut.hpp).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "trace.hpp"

namespace flushcheck {

/// Why T's run cannot stand for its cuts ("" if it can): it ran more than
/// one process or thread, or its trace is not whole.
std::string why_trace_not_derivable(const trace_summary& t);

/// Why WRITES, the write-family calls to one destination (WHAT: "its writes
/// to stdout's sink"), do not account for the GOT bytes its reader got ("" if
/// they do): a call with an offset the derivation does not follow, or bytes
/// that do not add up (a failed or short write, a terminal's translation).
std::string why_writes_do_not_add_up(const std::vector<const trace_event*>& writes,
                                     std::uint64_t got, const std::string& what);

/// [k]: the bytes of the first k of WRITES (so [0] is 0, and a KILL at the
/// entry of write N leaves [N-1]).
std::vector<std::uint64_t> write_ends(const std::vector<const trace_event*>& writes);

/// Which of the derived cuts (REACHED: the write each reaches, in order;
/// VERDICT: what each cut says, as a number) are run for real to check the
/// derivation: the first, the last, each where the verdict changes, and one
/// in 64 of the rest. Past the first and the last, in BUDGET writes (a real
/// cut costs the writes it reaches, each a stop of the tracer) and in MAX
/// runs in all (the first and the last whatever MAX: a derivation is never
/// taken unchecked): each change that fits, the earlier first, then as many
/// of the others as fit, thinned evenly. Indices, in order.
std::vector<std::size_t> cuts_to_verify(const std::vector<long>& reached,
                                        const std::vector<int>& verdict, long budget,
                                        std::size_t max);

}  // namespace flushcheck
