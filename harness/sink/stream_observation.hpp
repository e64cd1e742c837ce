#pragma once
/// What a sink's reader saw of one stream: its bytes and when they arrived.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "destination.hpp"

namespace flushcheck {

/// One read of the reader: when it happened (us since the child started) and
/// how many bytes it returned.
struct chunk {
  std::int64_t t_us = 0;
  std::size_t bytes = 0;
  bool operator==(const chunk&) const = default;
};

struct stream_observation {
  destination sink;  ///< its own sink, or merged into stdout's (2>&1)
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
  /// file: its file system had no room left when the run ended, so the
  /// program's writes to it may have failed with ENOSPC: the harness's failure.
  bool fs_full = false;
  /// Bytes not in `data`: offsets [dropped_at, dropped_at + dropped) of the stream.
  std::uint64_t dropped_at = 0;
  std::uint64_t dropped = 0;
};

}  // namespace flushcheck
