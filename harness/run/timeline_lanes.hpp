#pragma once
/// A run as the lanes of its timeline picture (timeline_svg.hpp): one lane
/// per destination of the program's write-family calls (stdout's sink,
/// stderr's, each other one), one per stream's reader, and what is missing
/// and why. Data only: the drawing is timeline_svg.cpp.
#include <cstdint>
#include <string>
#include <vector>

#include "observation.hpp"

namespace flushcheck {

/// One call or one read: when, how many bytes, and its tooltip.
struct timeline_mark {
  std::int64_t t_us = 0;
  std::int64_t end_us = -1;  ///< a timed write: when it returned (-1: not known)
  std::int64_t bytes = 0;
  bool stopped = false;  ///< the write a write:N cut stopped at its entry: it never ran
  std::string title;
};

/// What a lane's marks are: a destination's write-family calls, or a reader's chunks.
enum class lane_kind { write, read };
/// "write" or "chunk": the marks' class in the SVG.
constexpr const char* css_class(lane_kind k) { return k == lane_kind::write ? "write" : "chunk"; }

struct timeline_lane {
  std::string name;  ///< "write(2) → stdout", "reader ← stdout"
  lane_kind kind = lane_kind::write;
  /// A write lane: whose sink its destination is (none: another file).
  stream_role role = stream_role::none;
  std::string what;  ///< the destination ("pipe:[123]") or the sink ("pipe")
  std::vector<timeline_mark> marks;
  /// Calls or reads that happened but are not in MARKS (the logs' caps).
  std::int64_t not_logged = 0;
};

/// The lanes of OBS: writes per destination (with a trace), then the readers.
std::vector<timeline_lane> timeline_lanes(const observation& obs);

/// The stream's sink has a reader: a pty, a pipe or a file (not /dev/null or
/// /dev/full, nor stdout's when it is 2>&1).
bool has_reader(const stream_observation& s);

/// Each lane OBS cannot have, with why ("no write calls: run without --trace").
std::vector<std::string> missing_lanes(const observation& obs);

}  // namespace flushcheck
