#pragma once
/// Everything one run saw, as one value.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "flushcheck/sink.hpp"
#include "flushcheck/trace.hpp"
#include "flushcheck/wait_status.hpp"

namespace flushcheck {

struct stream_observation {
  std::string sink;           ///< "pipe", ..., or "stdout" when merged into stdout
  std::string data;           ///< what reached the reader, in order
  std::vector<chunk> chunks;  ///< pipe, pty: each read; file: one chunk at the end
};

struct marker_event {
  std::string label;
  std::int64_t t_us = 0;
  /// Bytes of each stream at the reader while the child waited at the marker.
  std::size_t stdout_visible = 0;
  std::size_t stderr_visible = 0;
};

struct kill_event {
  int signal = 0;
  std::string when;        ///< "marker:2"
  bool delivered = false;  ///< false: the child ended before the cut point
  std::int64_t t_us = 0;
};

struct observation {
  std::vector<std::string> argv;
  wait_status status = wait_status::exited(0);
  std::optional<kill_event> kill;
  stream_observation out;
  stream_observation err;
  std::vector<marker_event> markers;
  std::vector<std::string> notes;  ///< environment that changes buffering, held-open sinks
  std::int64_t duration_us = 0;
  std::optional<trace_summary> trace;  ///< with run_options::trace
};

}  // namespace flushcheck
