#include "sink.hpp"

#include <fcntl.h>
#include <linux/capability.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <sstream>

#include "error.hpp"
#include "file_system.hpp"
#include "input_file.hpp"
#include "parse_number.hpp"
#include "proc_status.hpp"
#include "pty.hpp"
#include "retry_eintr.hpp"
#include "run_clock.hpp"
#include "temporary.hpp"

namespace flushcheck {

namespace {

/// rate=N reads once it has earned 10 ms of its rate (at least a byte, at
/// most 64 KiB): ~100 reads a second, not one per byte.
std::uint64_t rate_batch(std::uint64_t n) { return std::clamp<std::uint64_t>(n / 100, 1, 65536); }

}  // namespace

std::size_t parse_pipe_size(std::string_view text) {
  auto n = detail::parse_number(text, 1, std::uint64_t{1} << 30, true);
  if (!n)
    throw usage_error(std::string(text) +
                      ": expected bytes from 1 to 1G (a K, M or G suffix: 2^10, 2^20, 2^30)");
  return static_cast<std::size_t>(*n);
}

std::size_t st_blksize_of(sink_kind kind) {
  static std::mutex m;
  static std::array<std::size_t, 8> cache{};
  const std::lock_guard<std::mutex> lock(m);
  auto& b = cache.at(static_cast<std::size_t>(kind));
  if (b != 0) return b;
  const sink fresh = sink::open(kind);
  struct stat st {};
  if (::fstat(fresh.child_fd(), &st) != 0)
    throw_errno("fstat of a " + std::string(to_string(kind)));
  return b = static_cast<std::size_t>(st.st_blksize);
}

sink sink::open(sink_kind kind, keep_policy keep) {
  sink s;
  s.kind_ = kind;
  s.capture_ = capture(keep);
  switch (kind) {
    case sink_kind::pty:
    case sink_kind::pty_cooked: s.open_pty(kind == sink_kind::pty); break;
    case sink_kind::pipe: s.open_pipe(); break;
    case sink_kind::file: s.open_file(); break;
    case sink_kind::null: s.child_ = open_fd("/dev/null", O_WRONLY); break;
    case sink_kind::full: s.child_ = open_fd("/dev/full", O_WRONLY); break;
  }
  return s;
}

void sink::open_pty(bool raw) {
  auto p = pty_pair::open(raw);
  reader_ = std::move(p.master);
  child_ = std::move(p.slave);
  set_nonblocking(reader_.get(), true);
}

void sink::open_pipe() {
  auto p = pipe_pair::make();
  reader_ = std::move(p.read_end);
  child_ = std::move(p.write_end);
  set_nonblocking(reader_.get(), true);
  pipe_size_ = static_cast<std::size_t>(std::max(0, ::fcntl(reader_.get(), F_GETPIPE_SZ)));
}

void sink::open_file() {
  // Like `prog > out.txt`: a new regular file, the program's fd O_WRONLY at
  // offset 0. Not O_TRUNC, which a shell adds: the file is new and empty,
  // and on ext4 a truncate to 0 arms auto_da_alloc's replace-via-truncate
  // heuristic (the kernel's Documentation/admin-guide/ext4.rst), which
  // writes the data to disk at the first close, in the program's exit:
  // ~170 us and one disk write a run here, for nothing a reader sees.
  // Unlinked at once: the two open fds keep it, and nothing is left
  // behind even when the harness is killed with SIGKILL.
  reader_ = anonymous_temporary_file("flushcheck-sink-", [this](const std::string& path) {
    child_ = open_fd(path.c_str(), O_WRONLY);
  });  // the reader's fd: kept for size and the final read; never polled
  fs_ = detail::file_system_of(reader_.get());
}

bool sink::reading() const noexcept {
  return reader_ && (kind_ == sink_kind::pipe || is_pty()) && (released_ || !policy_.pauses()) &&
         !rate_limited();
}

bool sink::rate_limited() const noexcept {
  return policy_.what == reader_policy::kind::rate && !released_ && rate_start_ &&
         allowance(std::chrono::steady_clock::now()) < rate_batch(policy_.n);
}

std::uint64_t sink::allowance(std::chrono::steady_clock::time_point now) const noexcept {
  if (policy_.what != reader_policy::kind::rate || released_) return UINT64_MAX;
  if (!rate_start_) return 0;
  auto us = static_cast<std::uint64_t>(std::max<std::int64_t>(
      std::chrono::duration_cast<std::chrono::microseconds>(now - *rate_start_).count(), 0));
  // n <= 2^40 and a day is < 2^37 us: each product stays below 2^64.
  std::uint64_t earned = us / 1000000 * policy_.n + us % 1000000 * policy_.n / 1000000;
  std::uint64_t read = capture_.total();
  return earned > read ? earned - read : 0;
}

std::optional<std::chrono::steady_clock::time_point> sink::next_read_at() const noexcept {
  if (closes_at()) return closes_at();
  // Only while over its rate: otherwise data itself wakes the loop (POLLIN),
  // and a time already past would make it spin on an empty pipe.
  if (!rate_limited() || !reader_) return std::nullopt;
  // The first microsecond at which a batch more is earned.
  std::uint64_t want = capture_.total() + rate_batch(policy_.n);
  std::uint64_t us =
      want / policy_.n * 1000000 + (want % policy_.n * 1000000 + policy_.n - 1) / policy_.n;
  return *rate_start_ + std::chrono::microseconds(us);
}

void sink::set_reader(reader_policy policy) noexcept {
  policy_ = policy;
  if (policy.what == reader_policy::kind::paused_then_close)
    close_at_ = std::chrono::steady_clock::now() + std::chrono::milliseconds(policy.n);
}

std::optional<std::chrono::steady_clock::time_point> sink::closes_at() const noexcept {
  if (!close_at_ || released_ || !reader_) return std::nullopt;
  return close_at_;
}

std::size_t sink::read_size(std::size_t buffer,
                            std::chrono::steady_clock::time_point now) const noexcept {
  if (policy_.what == reader_policy::kind::chunk) return std::min<std::uint64_t>(buffer, policy_.n);
  if (policy_.what == reader_policy::kind::rate)
    return std::min<std::uint64_t>(buffer, allowance(now));
  if (policy_.what == reader_policy::kind::close_after)
    return std::min<std::uint64_t>(buffer, policy_.n - std::min(policy_.n, capture_.total()));
  return buffer;
}

namespace {

/// Why the kernel refused a pipe size: what bounds it for this process.
std::string pipe_size_limit() {
  std::istringstream max_file(read_file("/proc/sys/fs/pipe-max-size").value_or(""));
  std::string max = "?";
  max_file >> max;
  // CapEff's bits are numbered from 1 in status_mask_has (as signals are).
  if (!detail::status_mask_has(::getpid(), "CapEff:", CAP_SYS_RESOURCE + 1))
    return std::string("above /proc/sys/fs/pipe-max-size, ") + max +
           " bytes, a pipe needs CAP_SYS_RESOURCE, which flushcheck does not have" +
           (::geteuid() == 0 ? ", though it runs as root" : "");
  return "more than the pipe buffers this user may hold (/proc/sys/fs/pipe-user-pages-hard) or "
         "the kernel gives one pipe";
}

}  // namespace

void sink::set_pipe_size(std::size_t bytes) {
  if (kind_ != sink_kind::pipe) return;
  int got = ::fcntl(reader_.get(), F_SETPIPE_SZ, static_cast<int>(bytes));
  if (got < 0 && (errno == EPERM || errno == EINVAL))
    throw usage_error("a pipe of " + std::to_string(bytes) + " bytes: " + std::strerror(errno) +
                      " (" + pipe_size_limit() + ")");
  if (got < 0) throw_errno("F_SETPIPE_SZ " + std::to_string(bytes));
  pipe_size_ = static_cast<std::size_t>(got);
}

void sink::set_child_nonblocking() { set_nonblocking(child_.get(), true); }

bool sink::drain(std::chrono::steady_clock::time_point start,
                 std::chrono::steady_clock::time_point stop_at) {
  if (policy_.what == reader_policy::kind::rate && !rate_start_)
    rate_start_ = std::chrono::steady_clock::now();
  if (auto at = closes_at(); at && std::chrono::steady_clock::now() >= *at)
    return close_reader();                            // paused-then-close=MS
  if (!reading()) return static_cast<bool>(reader_);  // paused: data may wait
  return read_available(start, stop_at);
}

bool sink::close_reader() {
  reader_.reset();  // the writer meets EPIPE from now on
  return false;
}

bool sink::read_available(std::chrono::steady_clock::time_point start,
                          std::chrono::steady_clock::time_point stop_at) {
  char buf[65536];
  for (;;) {
    std::size_t want = read_size(sizeof buf, std::chrono::steady_clock::now());
    if (policy_.what == reader_policy::kind::rate && rate_limited()) return true;  // over its rate
    if (want == 0) return close_reader();                   // close-after=N: N bytes read
    const std::span<char> to = capture_.area({buf, want});  // the tail's ring, in place
    ssize_t n = retry_eintr([&] { return ::read(reader_.get(), to.data(), to.size()); });
    if (n <= 0) return after_empty_read(n, start);
    if (take_chunk(to, static_cast<std::size_t>(n), start, stop_at)) return true;
  }
}

bool sink::take_chunk(std::span<char> to, std::size_t n,
                      std::chrono::steady_clock::time_point start,
                      std::chrono::steady_clock::time_point stop_at) {
  auto now = std::chrono::steady_clock::now();
  auto t_us = detail::micros_since(start, now);
  capture_.commit(to, n);
  if (++reads_ <= max_chunks) chunks_.push_back({t_us, n});
  // rate=N: one read per wake-up (the loop wakes at its next byte), not a
  // spin of one-byte reads as the allowance grows.
  return now >= stop_at || policy_.what == reader_policy::kind::rate;
}

bool sink::after_empty_read(ssize_t n, std::chrono::steady_clock::time_point start) {
  if (n < 0 && errno == EAGAIN) return true;
  // 0 on a pipe, EIO on a pty master once every slave fd is closed.
  if (n == 0 || errno == EIO) {
    ended_us_ = detail::micros_since(start);
    reader_.reset();
    return false;
  }
  throw_errno("read " + std::string(to_string(kind_)));
}

std::size_t sink::visible() const {
  if (kind_ != sink_kind::file) return static_cast<std::size_t>(capture_.total());
  struct stat st {};
  if (::fstat(reader_.get(), &st) != 0) throw_errno("fstat file sink");
  return static_cast<std::size_t>(st.st_size);
}

stream_observation sink::finish(std::int64_t end_us) {
  if (kind_ == sink_kind::file && reader_) read_file();
  const bool full = kind_ == sink_kind::file && reader_ && detail::file_system_full(reader_.get());
  reader_.reset();
  child_.reset();
  stream_observation o;
  take_reads(o, end_us);
  take_capture(o);
  o.fs_full = full;
  return o;
}

void sink::take_reads(stream_observation& o, std::int64_t end_us) {
  o.sink = destination(kind_);
  o.reads = kind_ == sink_kind::file ? 1 : reads_;
  o.chunks = std::move(chunks_);
  if (kind_ == sink_kind::file) o.chunks = {{end_us, static_cast<std::size_t>(capture_.total())}};
  o.pipe_size = pipe_size_;
  o.fs = fs_;
  o.reader = kind_ == sink_kind::pipe || is_pty() ? policy_.text() : "";
}

void sink::take_capture(stream_observation& o) {
  o.bytes = capture_.total();
  o.hash = capture_.hash();
  o.kept = capture_.policy().text();
  o.dropped_at = capture_.dropped_at();
  o.dropped = capture_.dropped();
  o.data = capture_.take_data();  // last: it empties the capture (dropped() changes)
}

void sink::read_file() {
  char buf[65536];
  for (off_t off = 0;;) {
    ssize_t n = retry_eintr([&] { return ::pread(reader_.get(), buf, sizeof buf, off); });
    if (n < 0) throw_errno("read file sink");
    if (n == 0) break;
    capture_.append({buf, static_cast<std::size_t>(n)});
    off += n;
  }
}

}  // namespace flushcheck
