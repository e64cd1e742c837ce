#pragma once
/// One run drawn on the SVG layer (svg.hpp): a time axis from the start, in
/// ms, linear or log as the run needs; a lane per destination of the
/// program's write calls and per reader (timeline_lanes.hpp), a mark per
/// call or read (binned into a histogram when a lane is dense); the markers;
/// the cut or the exit; and bars for the bytes that reached the reader and,
/// where something says what was written, those lost. Every mark has a
/// <title> with its exact values. docs/cli.md, "Pictures".
#include <cstdint>
#include <optional>
#include <string>

#include "observation.hpp"

namespace flushcheck {

/// What the program had produced for a stream by its end or its cut, from
/// something that knows (an uncut run, the program's script and the model).
struct produced_output {
  std::uint64_t bytes = 0;
  std::uint64_t lines = 0;
  std::string source;  ///< "the same cut's uncut run on a pty"
};

struct timeline_options {
  std::string title;
  std::optional<produced_output> produced;  ///< of stdout, or of stderr with on_stderr
  bool on_stderr = false;
};

/// Marks in a lane beyond this are binned: one bar per 2 pixels, its height
/// log-scaled to the calls in it.
inline constexpr std::size_t timeline_max_marks = 1500;

std::string timeline_svg(const observation& obs, const timeline_options& o);

}  // namespace flushcheck
