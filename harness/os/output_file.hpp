#pragma once
/// A file the harness writes whole (a report, a page): what is at its path
/// is never destroyed. A device, a FIFO or /dev/stdout is written in place;
/// a symlink is followed; a regular file (or a new one) is written to an
/// anonymous or uniquely named temporary beside it and renamed over it, so
/// a reader never sees half of it and two writers leave one whole file
/// (docs/cli.md, "Reports").
#include <string>
#include <string_view>
#include <utility>

#include "temporary.hpp"
#include "unique_fd.hpp"

namespace flushcheck {

class output_file {
 public:
  /// Opens PATH for writing, before anything runs. Throws usage_error with
  /// the reason alone (the caller names the path): a directory, a missing
  /// directory, no permission, a socket.
  static output_file open(const std::string& path);

  /// Writes TEXT and puts it at the path. Throws harness_error (a full
  /// device, a failed rename); the path then holds what it held before.
  void commit(std::string_view text);

 private:
  enum class how { in_place, fifo_waiting, anonymous, named_temporary };
  /// A dup of the caller's fd N, which PATH names (standard_fd).
  static output_file at_fd(const std::string& path, int n);
  /// PATH, a symlink to a file not there yet: the file made through it.
  static output_file through_symlink(const std::string& path);
  static output_file in_place(const std::string& path, unsigned st_mode);
  static output_file beside(const std::string& target, unsigned mode, bool exists);
  /// After O_TMPFILE failed in DIR (errno says why): refuses, or opens the
  /// file in place or a named temporary beside it.
  void fall_back_from_tmpfile(const std::string& dir, bool exists);
  void write_all(std::string_view text);
  void publish();
  std::string link_anonymous();

  /// A named temporary's path, unlinked when this ends unless it was
  /// renamed into place: a report refused (the same file as an input) or
  /// failed before its commit leaves no FILE.tmp-XXXXXX behind.
  struct unlinked_path {
    std::string path;
    unlinked_path() = default;
    unlinked_path(unlinked_path&& o) noexcept : path(std::exchange(o.path, {})) {}
    unlinked_path& operator=(unlinked_path&& o) noexcept;
    ~unlinked_path() { remove(); }
    void remove() noexcept;
  };

  how how_ = how::in_place;
  unique_fd fd_;
  std::string path_;       ///< in place: what the caller named; else the file it names
  unsigned mode_ = 0;      ///< the written file's mode: the old file's, or 0666 & ~umask
  bool truncate_ = false;  ///< in place on a regular file: truncated at commit, not at open
  detail::listed_path listed_;
  unlinked_path temp_;  ///< named_temporary: its path (last: unlinked before it is unlisted)
};

}  // namespace flushcheck
