#include "capture.hpp"

#include <sys/mman.h>

#include <xxhash.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <utility>

#include "error.hpp"
#include "parse_number.hpp"

namespace flushcheck {
namespace {

constexpr std::pair<keep_policy::kind, std::string_view> k_kinds[] = {
    {keep_policy::kind::head, "head"},
    {keep_policy::kind::tail, "tail"},
    {keep_policy::kind::ends, "ends"},
    {keep_policy::kind::all, "all"},
    {keep_policy::kind::none, "none"}};

constexpr std::uint64_t k_max_keep = std::uint64_t{1} << 40;  // 1 TiB

std::size_t parse_size(std::string_view n, std::string_view whole) {
  auto v = detail::parse_number(n, 0, k_max_keep, true);
  if (!v)
    throw usage_error(std::string(whole) + ": '" + std::string(n) +
                      "' is not a byte count from 0 to 1T (K, M, G: powers of 1024)");
  return static_cast<std::size_t>(*v);
}

}  // namespace

const std::vector<std::string_view>& keep_policy::forms() {
  static const std::vector<std::string_view> all{"all", "none", "head:", "tail:", "ends:"};
  return all;
}

keep_policy keep_policy::parse(std::string_view text) {
  auto colon = text.find(':');
  std::string_view name = text.substr(0, colon);
  for (auto [k, kname] : k_kinds) {
    if (kname != name) continue;
    bool sized = k == kind::head || k == kind::tail || k == kind::ends;
    if (sized != (colon != std::string_view::npos))
      throw usage_error(std::string(text) + ": " +
                        (sized ? "expected " + std::string(name) + ":BYTES"
                               : std::string(name) + " takes no size"));
    return {k, sized ? parse_size(text.substr(colon + 1), text) : 0};
  }
  throw usage_error(std::string(text) +
                    ": expected all, none, head:BYTES, tail:BYTES or ends:BYTES");
}

std::string keep_policy::text() const {
  for (auto [k, name] : k_kinds)
    if (k == what)
      return k == kind::all || k == kind::none ? std::string(name)
                                               : std::string(name) + ":" + std::to_string(bytes);
  return "?";
}

xxh3_stream::xxh3_stream()
    : state_(XXH3_createState(), [](void* s) { XXH3_freeState(static_cast<XXH3_state_t*>(s)); }) {
  if (state_ == nullptr) throw std::bad_alloc();
  reset();
}

void xxh3_stream::reset() {
  if (state_ != nullptr) XXH3_64bits_reset(static_cast<XXH3_state_t*>(state_.get()));
}

void xxh3_stream::update(std::string_view bytes) {
  if (state_ != nullptr)
    XXH3_64bits_update(static_cast<XXH3_state_t*>(state_.get()), bytes.data(), bytes.size());
}

std::uint64_t xxh3_stream::digest() const {
  return state_ != nullptr ? XXH3_64bits_digest(static_cast<XXH3_state_t*>(state_.get()))
                           : XXH3_64bits(nullptr, 0);
}

capture::capture(keep_policy policy) : policy_(policy) {}

std::size_t capture::head_room() const noexcept {
  switch (policy_.what) {
    case keep_policy::kind::all: return std::numeric_limits<std::size_t>::max();
    case keep_policy::kind::head:
    case keep_policy::kind::ends: return policy_.bytes;
    default: return 0;
  }
}

std::size_t capture::tail_room() const noexcept {
  bool tail = policy_.what == keep_policy::kind::tail || policy_.what == keep_policy::kind::ends;
  return tail ? policy_.bytes : 0;
}

std::size_t capture::tail_kept() const noexcept { return ring_fill_; }

std::uint64_t capture::dropped_at() const noexcept { return head_len_; }

/// Every byte that arrives: counted, hashed and observed, kept or not.
void capture::count(std::string_view bytes) {
  hash_.update(bytes);
  total_ += bytes.size();
  if (observer_) observer_(bytes);
}

std::span<char> capture::area(std::span<char> scratch) {
  const std::size_t room = tail_room();
  if (room == 0 || head_len_ < head_room()) return scratch;
  if (head_.size() == head_len_) head_.resize(head_len_ + room);
  const std::size_t at = ring_fill_ < room ? ring_fill_ : tail_start_;
  return {head_.data() + head_len_ + at, std::min(scratch.size(), room - at)};
}

void capture::commit(std::span<char> area, std::size_t n) {
  const std::string_view bytes(area.data(), n);
  const auto at = reinterpret_cast<std::uintptr_t>(area.data());
  const auto ring = reinterpret_cast<std::uintptr_t>(head_.data() + head_len_);
  if (tail_room() == 0 || head_.size() == head_len_ || at < ring || at >= ring + tail_room())
    return append(bytes);  // read into the caller's scratch
  count(bytes);
  const std::size_t room = tail_room();
  if (ring_fill_ < room)
    ring_fill_ += n;  // tail_start_ stays 0 until the ring is full
  else
    tail_start_ = (tail_start_ + n) % room;
}

void capture::append(std::string_view bytes) {
  count(bytes);
  std::size_t to_head = std::min(bytes.size(), head_room() - std::min(head_room(), head_len_));
  append_head(bytes.substr(0, to_head));
  append_tail(bytes.substr(to_head));
}

/// The head's bytes: in head_ up to a block, then (keep=all) in blocks of
/// their own, never moved: a string that doubles holds its old and its new
/// buffer at once, up to twice what it keeps.
void capture::append_head(std::string_view bytes) {
  head_len_ += bytes.size();
  const bool spill = policy_.what == keep_policy::kind::all;
  const std::size_t first =
      spill ? std::min(bytes.size(), k_block - std::min(k_block, head_.size())) : bytes.size();
  head_.append(bytes.data(), first);
  for (bytes.remove_prefix(first); !bytes.empty();) {
    if (blocks_.empty() || blocks_.back().size == k_block) blocks_.emplace_back();
    block& b = blocks_.back();
    const std::size_t n = std::min(bytes.size(), k_block - b.size);
    std::copy_n(bytes.data(), n, b.bytes.get() + b.size);
    b.size += n;
    bytes.remove_prefix(n);
  }
}

capture::block::block()
    : bytes(static_cast<char*>(::mmap(nullptr, k_block, PROT_READ | PROT_WRITE,
                                      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)),
            [](char* p) { ::munmap(p, k_block); }) {
  if (bytes.get() == MAP_FAILED) {
    bytes.release();
    throw std::bad_alloc();
  }
}

/// The last tail_room() bytes, in a ring right after the head in the same
/// string (made once the head is full): once full, new bytes overwrite the
/// oldest, so memory stays at what is kept however much arrives, and
/// take_data() hands it over in place.
void capture::append_tail(std::string_view bytes) {
  const std::size_t room = tail_room();
  if (room == 0 || bytes.empty()) return;
  if (head_.size() == head_len_) head_.resize(head_len_ + room);
  char* ring = head_.data() + head_len_;
  if (bytes.size() >= room) {
    std::copy_n(bytes.data() + bytes.size() - room, room, ring);
    ring_fill_ = room;
    tail_start_ = 0;
    return;
  }
  append_ring(ring, room, bytes);
}

/// BYTES, fewer than the ring's ROOM, into the ring at RING: what still fits,
/// then over the oldest.
void capture::append_ring(char* ring, std::size_t room, std::string_view bytes) {
  const std::size_t fill = std::min(bytes.size(), room - ring_fill_);
  std::copy_n(bytes.data(), fill, ring + ring_fill_);
  ring_fill_ += fill;
  for (std::size_t i = fill; i < bytes.size();) {  // the ring is full: overwrite the oldest
    const std::size_t n = std::min(bytes.size() - i, room - tail_start_);
    std::copy_n(bytes.data() + i, n, ring + tail_start_);
    tail_start_ = (tail_start_ + n) % room;
    i += n;
  }
}

std::string xxh3_stream::hex_digest() const {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(digest()));
  return buf;
}

std::string capture::hash() const { return hash_.hex_digest(); }

std::string capture::take_data() {
  if (!blocks_.empty()) return take_blocks();
  char* ring = head_.data() + head_len_;
  std::rotate(ring, ring + tail_start_, ring + ring_fill_);  // oldest first, in place
  head_.resize(head_len_ + ring_fill_);
  std::string out = std::move(head_);
  head_.clear();
  head_len_ = ring_fill_ = tail_start_ = 0;
  return out;
}

/// keep=all's head and blocks in one string, each block freed once copied:
/// at most one block more than what is kept is held at once.
std::string capture::take_blocks() {
  std::string out;
  out.reserve(head_len_);  // untouched pages: resident only as they are written
  out.append(head_);
  head_ = std::string();
  for (auto& b : blocks_) {
    out.append(b.bytes.get(), b.size);
    b.bytes.reset();
  }
  blocks_.clear();
  head_len_ = 0;
  return out;
}

}  // namespace flushcheck
