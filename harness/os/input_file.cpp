// Bounded reads of untrusted files, gzip or not (zlib's gzread reads both).
#include "input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <string>

#include "error.hpp"
#include "retry_eintr.hpp"
#include "unique_fd.hpp"

namespace flushcheck {

namespace {

struct gz_closer {
  void operator()(gzFile f) const noexcept { ::gzclose(f); }
};
using gz_file = std::unique_ptr<gzFile_s, gz_closer>;

/// PATH opened for reading; a directory is refused before zlib sees it.
unique_fd open_input(const std::string& path) {
  unique_fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY));
  if (!fd) throw usage_error(std::string("cannot read it: ") + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd.get(), &st) == 0 && S_ISDIR(st.st_mode))
    throw usage_error("a directory, not a file");
  return fd;
}

/// "64 MiB", or bytes under 1 MiB.
std::string size_text(std::size_t bytes) {
  if (bytes >= (1 << 20) && bytes % (1 << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
  return std::to_string(bytes) + " bytes";
}

/// PATH opened for gzread, which reads a file that is not gzip as it is.
gz_file open_gz(const std::string& path) {
  unique_fd fd = open_input(path);
  gz_file gz(::gzdopen(fd.get(), "rb"));
  if (!gz) throw usage_error("cannot read it: out of memory");
  fd.release();  // gzclose closes it
  return gz;
}

/// Why gzread failed on GZ: the system's words for an I/O error, zlib's for the rest.
[[noreturn]] void throw_read_error(gzFile gz) {
  int err = 0;
  const char* what = ::gzerror(gz, &err);
  throw usage_error(std::string("cannot read it: ") +
                    (err == Z_ERRNO ? std::strerror(errno) : what));
}

}  // namespace

std::string read_input_file(const std::string& path, std::size_t max_bytes) {
  gz_file gz = open_gz(path);
  std::string text;
  char buf[65536];
  for (;;) {
    const int n = ::gzread(gz.get(), buf, sizeof buf);
    if (n < 0) throw_read_error(gz.get());
    if (n == 0) return text;
    if (text.size() + static_cast<std::size_t>(n) > max_bytes)
      throw usage_error("larger than " + size_text(max_bytes) +
                        ", the most flushcheck reads of such a file");
    text.append(buf, static_cast<std::size_t>(n));
  }
}

std::optional<std::string> read_file(const std::string& path, std::size_t max_bytes) {
  unique_fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY));
  if (!fd) return std::nullopt;
  std::string text;
  char buf[4096];
  while (text.size() < max_bytes) {
    const auto want = std::min(sizeof buf, max_bytes - text.size());
    const ssize_t n = retry_eintr([&] { return ::read(fd.get(), buf, want); });
    if (n <= 0) break;  // the end, or an error: what was read so far
    text.append(buf, static_cast<std::size_t>(n));
  }
  return text;
}

}  // namespace flushcheck
