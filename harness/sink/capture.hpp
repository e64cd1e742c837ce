#pragma once
/// What a sink keeps of the bytes that reach its reader. Memory stays bounded
/// whatever the program prints: every byte is counted and hashed, and only
/// what the keep policy names is held (by default the first and the last
/// 8 MiB, so that an output up to 16 MiB is kept whole).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace flushcheck {

struct keep_policy {
  enum class kind { all, head, tail, ends, none };
  kind what = kind::ends;
  std::size_t bytes = std::size_t{8} << 20;  ///< head:N, tail:N, ends:N (N first and N last)

  /// "all", "none", "head:N", "tail:N", "ends:N" (N in bytes, with an optional
  /// K, M or G suffix: powers of 1024). Throws usage_error.
  static keep_policy parse(std::string_view text);
  /// The forms parse takes, a number to follow those ending in ':'.
  static const std::vector<std::string_view>& forms();
  /// parse's inverse, N in bytes: "ends:8388608".
  std::string text() const;
};

/// XXH3-64 of bytes fed in pieces (libxxhash's streaming state): the one
/// hash of streams, whole (capture) or line by line (explore's fault runs).
class xxh3_stream {
 public:
  xxh3_stream();  ///< throws std::bad_alloc
  void reset();
  void update(std::string_view bytes);
  std::uint64_t digest() const;
  /// digest() as 16 hex digits.
  std::string hex_digest() const;

 private:
  // XXH3_state_t*, freed with XXH3_freeState (xxhash.h stays out of this header);
  // null once moved from: then it hashes nothing.
  std::unique_ptr<void, void (*)(void*)> state_;
};

/// The bytes of one stream, as kept under a policy.
class capture {
 public:
  explicit capture(keep_policy policy = {});

  void append(std::string_view bytes);
  /// Where a reader puts the next bytes it reads, to hand them to commit():
  /// once the head is full, the ring's next stretch (at most SCRATCH's size),
  /// so that the tail is read in place and not copied; else SCRATCH.
  std::span<char> area(std::span<char> scratch);
  /// The first N bytes of AREA (what area() returned) arrived: as append.
  void commit(std::span<char> area, std::size_t n);
  /// Calls F with every byte as it arrives, whatever is kept (a caller that
  /// compares or spools the whole stream in bounded memory).
  void observe(std::function<void(std::string_view)> f) { observer_ = std::move(f); }

  /// Every byte that arrived.
  std::uint64_t total() const noexcept { return total_; }
  /// XXH3-64 of every byte that arrived, 16 hex digits (libxxhash).
  std::string hash() const;
  /// The kept bytes in order: the head, then the tail (see dropped()).
  std::string take_data();
  /// Bytes not kept, between the head and the tail: they were at offsets
  /// [dropped_at(), dropped_at() + dropped()) of the stream.
  std::uint64_t dropped_at() const noexcept;
  std::uint64_t dropped() const noexcept { return total_ - head_len_ - tail_kept(); }
  const keep_policy& policy() const noexcept { return policy_; }

 private:
  std::size_t head_room() const noexcept;
  std::size_t tail_room() const noexcept;
  std::size_t tail_kept() const noexcept;
  void append_head(std::string_view bytes);
  void append_tail(std::string_view bytes);
  void append_ring(char* ring, std::size_t room, std::string_view bytes);
  std::string take_blocks();
  void count(std::string_view bytes);

  keep_policy policy_;
  std::function<void(std::string_view)> observer_;
  std::uint64_t total_ = 0;
  static constexpr std::size_t k_block = std::size_t{4} << 20;
  std::string head_;  // the head's bytes (keep=all: its first block), then the tail's ring
  /// A block of k_block bytes mapped on its own (mmap), so that freeing it
  /// gives its pages back at once (malloc keeps freed heap pages).
  struct block {
    std::unique_ptr<char, void (*)(char*)> bytes;
    std::size_t size = 0;
    block();
  };
  std::vector<block> blocks_;  // keep=all: the rest of the head, a block each
  std::size_t head_len_ = 0;
  std::size_t ring_fill_ = 0;   // bytes in the ring (tail_room() once full)
  std::size_t tail_start_ = 0;  // the ring's oldest byte
  xxh3_stream hash_;
};

}  // namespace flushcheck
