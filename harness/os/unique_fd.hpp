#pragma once
/// A move-only owner of one file descriptor, -1 meaning empty (fmt's file,
/// rr's ScopedFd).
#include <utility>

namespace flushcheck {

class unique_fd {
 public:
  unique_fd() noexcept = default;
  explicit unique_fd(int fd) noexcept : fd_(fd) {}
  unique_fd(unique_fd&& o) noexcept : fd_(std::exchange(o.fd_, -1)) {}
  unique_fd& operator=(unique_fd&& o) noexcept {
    if (this != &o) reset(std::exchange(o.fd_, -1));
    return *this;
  }
  unique_fd(const unique_fd&) = delete;
  unique_fd& operator=(const unique_fd&) = delete;
  ~unique_fd() { reset(); }

  int get() const noexcept { return fd_; }
  explicit operator bool() const noexcept { return fd_ >= 0; }
  int release() noexcept { return std::exchange(fd_, -1); }
  /// Closes the held fd (never retried on EINTR) and takes FD.
  void reset(int fd = -1) noexcept;

 private:
  int fd_ = -1;
};

/// Both ends close-on-exec.
struct pipe_pair {
  unique_fd read_end;
  unique_fd write_end;
  static pipe_pair make();
};

/// A connected AF_UNIX stream pair, both close-on-exec.
struct socket_pair {
  unique_fd first;
  unique_fd second;
  static socket_pair make();
};

/// Opens PATH with FLAGS | O_CLOEXEC or throws harness_error.
unique_fd open_fd(const char* path, int flags, int mode = 0600);

/// Sets or clears O_NONBLOCK.
void set_nonblocking(int fd, bool on);

}  // namespace flushcheck
