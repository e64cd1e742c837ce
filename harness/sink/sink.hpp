#pragma once
/// Where a child's fd 1 or 2 goes, and the reader the harness keeps on it.
#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "capture.hpp"
#include "reader_policy.hpp"
#include "sink_kind.hpp"
#include "stream_observation.hpp"
#include "unique_fd.hpp"

namespace flushcheck {

/// A pipe size's TEXT: bytes from 1 to 1 GiB, with a K, M or G suffix as
/// keep and reader policies take them. Throws usage_error ("TEXT: why").
std::size_t parse_pipe_size(std::string_view text);

/// st_blksize of a fresh sink of KIND, as fstat says (glibc sizes its
/// buffers from it); asked of the kernel once per kind and process.
std::size_t st_blksize_of(sink_kind kind);

class sink {
 public:
  /// Pipe, pty: a reader records chunks as they come. File: a fresh
  /// temporary regular file, read after the run and then removed. Null, full:
  /// /dev/null, /dev/full. KEEP says what of the bytes is kept.
  static sink open(sink_kind kind, keep_policy keep = {});
  /// The reads listed in a stream_observation; later ones are only counted.
  static constexpr std::size_t max_chunks = 100000;

  sink_kind kind() const noexcept { return kind_; }
  bool is_pty() const noexcept { return is_tty(kind_); }
  /// The fd the child gets.
  int child_fd() const noexcept { return child_.get(); }
  /// Drops the harness's copy of the child's end (after spawn), so that end
  /// of data can be seen. A pty keeps it until program_ended().
  void close_child_end() noexcept {
    if (!is_pty()) child_.reset();
  }
  /// The program has ended and the run loop has read what it wrote: a pty
  /// lets its copy of the slave go now. Its master reads EIO once the last
  /// slave fd closes; holding one until here puts that end after every byte
  /// the program's write calls took, whatever the scheduler does at its exit
  /// (a descendant that still holds the pty is read until it closes it).
  void program_ended() noexcept { child_.reset(); }
  /// Calls F with every byte the reader gets (capture::observe).
  void observe(std::function<void(std::string_view)> f) { capture_.observe(std::move(f)); }
  /// The fd to poll for data, or -1 (file, null, full, or at end of data).
  int reader_fd() const noexcept { return reader_.get(); }
  /// How the reader reads (pipe, pty). A paused reader reads nothing until
  /// release(): the run loop releases it when the program has ended, at the
  /// deadline, or at the marker it waits for.
  /// paused-then-close=MS counts its MS from here.
  void set_reader(reader_policy policy) noexcept;
  const reader_policy& reader() const noexcept { return policy_; }
  void release() noexcept { released_ = true; }
  /// Whether the reader would read now (open, not paused, not over its rate).
  bool reading() const noexcept;
  /// When the run loop must wake for the reader: a rate=N reader that has
  /// read its allowance may read again, a paused-then-close=MS reader closes.
  /// nullopt for any other.
  std::optional<std::chrono::steady_clock::time_point> next_read_at() const noexcept;
  /// paused-then-close=MS, not yet released: when it closes its end.
  std::optional<std::chrono::steady_clock::time_point> closes_at() const noexcept;
  /// A pipe sink's capacity (F_SETPIPE_SZ); the kernel rounds it up to a
  /// power of two pages. Throws harness_error.
  void set_pipe_size(std::size_t bytes);
  /// The child's end becomes non-blocking (O_NONBLOCK on the open file
  /// description the program gets, as from a non-blocking parent).
  void set_child_nonblocking();
  /// Reads what is there now, without blocking, until none is left or the
  /// clock reaches STOP_AT (a writer that never stops must not hold up the
  /// run's deadline or a time cut); each chunk is timed from START. False at
  /// end of data (ended_us() says when).
  bool drain(std::chrono::steady_clock::time_point start,
             std::chrono::steady_clock::time_point stop_at);
  /// When the reader met the end of data (EOF, a pty's EIO), from drain's
  /// START; -1 before.
  std::int64_t ended_us() const noexcept { return ended_us_; }
  /// Bytes that have reached the reader: pipe, pty: read so far; file: its size.
  std::size_t visible() const;
  /// Ends the reader (a file's content is read now) and gives what it saw;
  /// END_US: when the run ended, the time of a file's one chunk.
  stream_observation finish(std::int64_t end_us);

  sink(sink&&) noexcept = default;
  sink& operator=(sink&&) noexcept = default;

 private:
  sink() = default;
  /// open's ends per kind: RAW as pty_pair::open takes it.
  void open_pty(bool raw);
  void open_pipe();
  void open_file();
  /// drain once the reader reads: until nothing is left, STOP_AT, or the
  /// policy stops it.
  bool read_available(std::chrono::steady_clock::time_point start,
                      std::chrono::steady_clock::time_point stop_at);
  /// A read's N bytes in TO as a chunk timed from START; true when drain
  /// stops after it.
  bool take_chunk(std::span<char> to, std::size_t n, std::chrono::steady_clock::time_point start,
                  std::chrono::steady_clock::time_point stop_at);
  /// A read that got nothing (N <= 0): true if more may come, false at end
  /// of data; throws harness_error on a read error.
  bool after_empty_read(ssize_t n, std::chrono::steady_clock::time_point start);
  /// The reader closes its end (reader_policy: close-after, paused-then-close);
  /// false, as drain returns at end of data.
  bool close_reader();
  /// finish: what the sink and its reader give O (its kind, reads, pipe size,
  /// file system, reader policy) and its chunks, moved out (a file: one, at END_US).
  void take_reads(stream_observation& o, std::int64_t end_us);
  /// finish: what the capture gives O (bytes, hash, keep policy, what it
  /// dropped), its kept bytes last, moved out.
  void take_capture(stream_observation& o);
  void read_file();
  std::size_t read_size(std::size_t buffer,
                        std::chrono::steady_clock::time_point now) const noexcept;
  bool rate_limited() const noexcept;
  /// rate=N: bytes it may read by NOW, past what it has read.
  std::uint64_t allowance(std::chrono::steady_clock::time_point now) const noexcept;
  sink_kind kind_ = sink_kind::pipe;
  unique_fd child_;
  unique_fd reader_;
  capture capture_;
  std::vector<chunk> chunks_;
  std::uint64_t reads_ = 0;
  std::int64_t ended_us_ = -1;
  reader_policy policy_;
  bool released_ = false;
  std::size_t pipe_size_ = 0;
  std::string fs_;  ///< file: the file system's name (fstatfs)
  /// rate=N: the reader's first look, where its allowance starts.
  std::optional<std::chrono::steady_clock::time_point> rate_start_;
  /// paused-then-close=MS: when it closes its end (set_reader + MS).
  std::optional<std::chrono::steady_clock::time_point> close_at_;
};

}  // namespace flushcheck
