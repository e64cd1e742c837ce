#pragma once
// explore's cuts derived from its one traced run, not run one by one
// (run/write_cuts.hpp): a SIGKILL at the entry of write N leaves at the
// reader exactly what writes 1 to N-1 put there, so a program that takes
// the same path every time needs one run for all its write cuts. Sound only
// for such a program: a sample of the derived cuts is run for real, and one
// that differs makes explore run every cut as before.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "explore.hpp"
#include "reference_output.hpp"

namespace flushcheck::detail {

/// Why the write cuts of S, its uncut run traced, cannot be derived from
/// that run ("" if they can): it ran more than one process or thread, the
/// trace is not whole, or its writes are not the bytes the reader got.
std::string why_not_derivable(const explored_sink& s);

/// Is CUT one a derivation stands for: a SIGKILL at write:N or after-write:N?
bool derivable(const kill_plan& cut);

/// The bytes at the reader when a write cut struck: those of the writes
/// before it, from the traced run's write-family calls to the stream's sink.
class write_ends {
 public:
  write_ends(const trace_summary& t, bool on_stderr);
  /// At write:N, the first N-1 writes' bytes; at after-write:N, the first N's.
  std::uint64_t at(const kill_plan& cut) const;

 private:
  std::vector<std::uint64_t> ends_;  // [k]: the bytes of the first k writes
};

/// The whole lines of the reference within its first bytes, found in one
/// pass over the lines while the offsets asked for grow (a smaller one
/// starts the pass again).
class line_cursor {
 public:
  explicit line_cursor(const reference_output& ref) : lines_(ref.whole_lines()) {}
  struct position {
    std::uint64_t lines = 0;        ///< whole lines within the first BYTES
    std::uint64_t whole_bytes = 0;  ///< where they end
  };
  position at(std::uint64_t bytes);

 private:
  const std::vector<line_key>& lines_;
  position pos_;
};

/// What a run that keeps KEEP and is cut by CUT would report, its stream
/// ending after the first BYTES bytes of the reference (repro left empty).
explored_cut derived_cut(const reference_output& ref, line_cursor& lines, const kill_plan& cut,
                         std::uint64_t bytes, const keep_policy& keep);

/// "" if REAL, the same cut run for real, ended as DERIVED says; else how it
/// differed, for the report.
std::string disagreement(const explored_cut& derived, const explored_cut& real);

}  // namespace flushcheck::detail
