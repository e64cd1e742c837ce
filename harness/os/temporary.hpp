#pragma once
/// Temporary files and directories of the harness (a file sink's file, a
/// gate's log directory): where they go, and the list of those that exist,
/// so that an interrupted CLI removes them (remove_temporary_files).
#include <functional>
#include <string>

#include "unique_fd.hpp"

namespace flushcheck {

/// Where temporary files go: $TMPDIR if it is set and not empty, else /tmp.
std::string temp_dir();

/// Closes the list for good: from then on no temporary is made or listed.
/// A thread that makes one waits until the process ends (having removed
/// what it had made), for the process is about to die. For the CLI's
/// interrupt thread, before remove_temporary_files(): what it removes is
/// then all there is, even while other threads are still making paths.
void close_temporary_files() noexcept;

/// Removes every listed temporary file, and every listed directory with all
/// it holds, that exists now; true when none of them is left. For the CLI's
/// interrupt thread (SIGINT, SIGTERM, SIGHUP, SIGQUIT): an interrupted run
/// leaves no flushcheck-* path behind.
bool remove_temporary_files() noexcept;

/// For a process just forked from one with temporaries (a worker,
/// workers.hpp): starts an empty list of its own. What was listed before the
/// fork is the parent's to remove, not this process's.
void forget_temporary_files() noexcept;

/// Runs STEP with the list of temporaries locked and open: an interrupt's
/// clean-up (close_temporary_files, then remove_temporary_files) comes
/// wholly before it or wholly after. Once the list is closed, STEP does not
/// run and this never returns. For a step that turns a temporary into what
/// stays (a build renamed into place): an interrupted build never replaces
/// the one there.
void while_temporaries_open(const std::function<void()>& step);

/// A file of the harness's own in temp_dir() (PREFIX and mkdtemp's six
/// characters), unlinked before this returns, after WHILE_NAMED (if any)
/// had its path (to open it again): it lives as long as its fds, and an
/// interrupt in between finds it listed and removes it.
unique_fd anonymous_temporary_file(const std::string& prefix,
                                   const std::function<void(const std::string&)>& while_named = {});

namespace detail {
/// A temporary path, listed where remove_temporary_files() finds it while
/// this lives. Its owner removes it as usual; the list is for interrupts.
class listed_path {
 public:
  listed_path() noexcept = default;
  /// PATH, made already. A directory is removed with what it holds. Once the
  /// list is closed, PATH is removed and this never returns.
  explicit listed_path(const std::string& path);
  /// The path MAKE makes and returns, made with the list locked, so that an
  /// interrupt's clean-up finds it made and listed, or not made at all. Once
  /// the list is closed, MAKE does not run and this never returns.
  static listed_path made_by(const std::function<std::string()>& make);
  listed_path(listed_path&& o) noexcept;
  listed_path& operator=(listed_path&& o) noexcept;
  listed_path(const listed_path&) = delete;
  listed_path& operator=(const listed_path&) = delete;
  ~listed_path();

 private:
  void unlist() noexcept;
  long id_ = -1;
};
}  // namespace detail

/// A fresh directory, PREFIX followed by mkdtemp's six characters, listed
/// for an interrupt (remove_temporary_files) and removed with all it holds
/// when this ends; what was renamed away meanwhile is not there to remove.
/// Throws harness_error when it cannot be made.
class temporary_directory {
 public:
  explicit temporary_directory(const std::string& prefix);
  ~temporary_directory();
  temporary_directory(const temporary_directory&) = delete;
  temporary_directory& operator=(const temporary_directory&) = delete;
  const std::string& path() const noexcept { return path_; }

 private:
  std::string path_;
  detail::listed_path listed_;
};

}  // namespace flushcheck
