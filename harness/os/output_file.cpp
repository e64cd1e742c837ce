// Output files that destroy nothing: in place for what is not a regular
// file, an anonymous (O_TMPFILE) or mkstemp temporary renamed over one that is.
#include "output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <random>

#include "error.hpp"
#include "parse_number.hpp"
#include "retry_eintr.hpp"

namespace flushcheck {

namespace {

[[noreturn]] void refuse(const std::string& why) { throw usage_error(why); }

[[noreturn]] void refuse_errno(const std::string& what) {
  refuse(what + ": " + std::strerror(errno));
}

/// N for /dev/stdout (1), /dev/stderr (2), /dev/fd/N, /proc/self/fd/N: an
/// fd of the caller's, written in place (its shell may have opened a file
/// there: replacing that file would hide the report from the shell); else -1.
int standard_fd(const std::string& path) {
  if (path == "/dev/stdout") return 1;
  if (path == "/dev/stderr") return 2;
  for (std::string_view prefix : {"/dev/fd/", "/proc/self/fd/"}) {
    if (!path.starts_with(prefix)) continue;
    auto n = detail::parse_number(std::string_view(path).substr(prefix.size()), 0, 1 << 20);
    return n ? static_cast<int>(*n) : -1;
  }
  return -1;
}

unsigned new_file_mode() {
  mode_t mask = ::umask(0);
  ::umask(mask);
  return 0666 & ~mask;
}

std::string parent_of(const std::string& path) {
  auto slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

/// The file PATH names, symlinks followed (it exists).
std::string resolved(const std::string& path) {
  char* real = ::realpath(path.c_str(), nullptr);
  if (real == nullptr) refuse_errno("cannot write it");
  std::string r = real;
  std::free(real);
  return r;
}

std::string random_suffix() {
  static thread_local std::mt19937_64 gen{std::random_device{}()};
  static constexpr char digits[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  std::string s(8, 'x');
  for (char& c : s) c = digits[gen() % (sizeof digits - 1)];
  return s;
}

/// Refuses what ST_MODE says cannot be written as a file.
void refuse_not_a_file(unsigned st_mode) {
  if (S_ISDIR(st_mode)) refuse("a directory, not a file");
  if (S_ISSOCK(st_mode)) refuse("a socket, not a file");
}

}  // namespace

output_file output_file::open(const std::string& path) {
  if (int n = standard_fd(path); n >= 0) return at_fd(path, n);
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISREG(st.st_mode)) return beside(resolved(path), st.st_mode & 07777, true);
    return in_place(path, st.st_mode);
  }
  if (errno != ENOENT) refuse_errno("cannot write it");
  if (::lstat(path.c_str(), &st) == 0)  // a symlink to a file not there yet: made through it
    return through_symlink(path);
  return beside(path, new_file_mode(), false);
}

output_file output_file::at_fd(const std::string& path, int n) {
  output_file f;
  f.path_ = path;
  f.fd_.reset(::fcntl(n, F_DUPFD_CLOEXEC, 3));
  if (!f.fd_) refuse_errno("not an open fd of flushcheck's");
  return f;
}

output_file output_file::through_symlink(const std::string& path) {
  output_file f;
  f.path_ = path;
  f.fd_.reset(::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | O_NOCTTY, 0666));
  if (!f.fd_) refuse_errno("cannot write through the symlink");
  f.truncate_ = true;
  return f;
}

output_file output_file::in_place(const std::string& path, unsigned st_mode) {
  refuse_not_a_file(st_mode);
  output_file f;
  f.path_ = path;
  // O_NONBLOCK: a FIFO with no reader yet must not hold up the start; it is
  // opened again, blocking as `echo > FIFO` does, when the report is ready.
  f.fd_.reset(::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
  if (!f.fd_ && errno == ENXIO && S_ISFIFO(st_mode)) {
    f.how_ = how::fifo_waiting;
    return f;
  }
  if (!f.fd_) refuse_errno("cannot write it");
  set_nonblocking(f.fd_.get(), false);
  return f;
}

output_file output_file::beside(const std::string& target, unsigned mode, bool exists) {
  output_file f;
  f.path_ = target;
  f.mode_ = mode;
  const std::string dir = parent_of(target);
  f.fd_.reset(::open(dir.c_str(), O_WRONLY | O_TMPFILE | O_CLOEXEC, 0600));
  if (f.fd_) {
    f.how_ = how::anonymous;
    return f;
  }
  f.fall_back_from_tmpfile(dir, exists);
  return f;
}

void output_file::fall_back_from_tmpfile(const std::string& dir, bool exists) {
  if (errno == ENOENT || errno == ENOTDIR) refuse("cannot write it: no directory " + dir);
  if ((errno == EACCES || errno == EPERM) && exists && ::access(path_.c_str(), W_OK) == 0) {
    // A writable file in a directory that is not: written in place, as before.
    fd_ = open_fd(path_.c_str(), O_WRONLY | O_NOCTTY);
    truncate_ = true;
    return;
  }
  if (errno != EOPNOTSUPP && errno != EISDIR) refuse_errno("cannot write it: " + dir);
  std::string temp = path_ + ".tmp-XXXXXX";  // no O_TMPFILE on this file system
  fd_.reset(::mkostemp(temp.data(), O_CLOEXEC));
  if (!fd_) refuse_errno("cannot write it: " + dir);
  how_ = how::named_temporary;
  listed_ = detail::listed_path(temp);
  temp_.path = std::move(temp);
}

void output_file::commit(std::string_view text) {
  if (how_ == how::fifo_waiting) fd_ = open_fd(path_.c_str(), O_WRONLY | O_NOCTTY);
  if (truncate_ && ::ftruncate(fd_.get(), 0) != 0) throw_errno("ftruncate " + path_);
  write_all(text);
  if (how_ == how::anonymous || how_ == how::named_temporary) publish();
  fd_.reset();
}

void output_file::write_all(std::string_view text) {
  while (!text.empty()) {
    ssize_t n = retry_eintr([&] { return ::write(fd_.get(), text.data(), text.size()); });
    if (n < 0) throw_errno("write " + path_);
    text.remove_prefix(static_cast<std::size_t>(n));
  }
}

void output_file::publish() {
  if (::fchmod(fd_.get(), mode_) != 0) throw_errno("fchmod " + path_);
  const std::string from = how_ == how::anonymous ? link_anonymous() : temp_.path;
  if (::rename(from.c_str(), path_.c_str()) != 0) {
    int e = errno;
    ::unlink(from.c_str());
    throw_error({e, std::generic_category()}, "rename to " + path_);
  }
  temp_.path.clear();  // it is the file now
  listed_ = detail::listed_path();
}

/// Gives the anonymous file a unique name beside the target, for rename(2)
/// (which alone replaces a file whole). Listed before it exists, so that an
/// interrupt in between removes it.
std::string output_file::link_anonymous() {
  const std::string proc = "/proc/self/fd/" + std::to_string(fd_.get());
  for (int tries = 0;; ++tries) {
    std::string name = path_ + ".tmp-" + random_suffix();
    listed_ = detail::listed_path(name);
    if (::linkat(AT_FDCWD, proc.c_str(), AT_FDCWD, name.c_str(), AT_SYMLINK_FOLLOW) == 0)
      return name;
    if (errno != EEXIST || tries == 100) throw_errno("linkat " + name);
  }
}

output_file::unlinked_path& output_file::unlinked_path::operator=(unlinked_path&& o) noexcept {
  if (this != &o) {
    remove();
    path = std::exchange(o.path, {});
  }
  return *this;
}

void output_file::unlinked_path::remove() noexcept {
  if (!path.empty()) ::unlink(path.c_str());
  path.clear();
}

}  // namespace flushcheck
