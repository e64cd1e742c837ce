#pragma once
/// Everything one run saw, as one value.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "flushcheck/trace.hpp"
#include "flushcheck/wait_status.hpp"

namespace flushcheck {

/// One read of the reader: when it happened (us since the child started) and
/// how many bytes it returned.
struct chunk {
  std::int64_t t_us = 0;
  std::size_t bytes = 0;
  bool operator==(const chunk&) const = default;
};

struct stream_observation {
  std::string sink;  ///< "pipe", ..., or "stdout" when merged into stdout
  /// What reached the reader, in order, as far as the keep policy kept it:
  /// all of it unless `dropped` is not 0.
  std::string data;
  /// pipe, pty: the reads (the first sink::max_chunks of them); file: one
  /// chunk at the end.
  std::vector<chunk> chunks;
  std::uint64_t bytes = 0;      ///< every byte that reached the reader
  std::uint64_t reads = 0;      ///< every read (pipe, pty); 1 for a file
  std::string hash;             ///< XXH3-64 of all `bytes` bytes, 16 hex digits
  std::string kept;             ///< the keep policy ("ends:8388608")
  std::string reader;           ///< pipe, pty: the reader policy ("prompt", "paused", ...)
  std::uint64_t pipe_size = 0;  ///< pipe: its capacity (F_GETPIPE_SZ)
  /// file: the file system the file is on ("ext4", "tmpfs", "overlay", ...,
  /// or its magic number in hex): what a write means there depends on it.
  std::string fs;
  /// Bytes not in `data`: offsets [dropped_at, dropped_at + dropped) of the stream.
  std::uint64_t dropped_at = 0;
  std::uint64_t dropped = 0;
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
  /// What the run saw that a reader should know (held-open sinks, killed
  /// leftovers); the CLI adds the environment's buffering variables.
  std::vector<std::string> notes;
  std::int64_t duration_us = 0;
  std::optional<trace_summary> trace;  ///< with run_options::trace
};

}  // namespace flushcheck
