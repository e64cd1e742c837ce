// Temporary paths: the one place that says where they go, and the list that
// an interrupted CLI removes.
#include "temporary.hpp"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>
#include <new>
#include <utility>

#include "error.hpp"

namespace flushcheck {

namespace {

/// The listed paths by id. The CLI removes them from a thread of its own
/// (not a signal handler), so a mutex guards them. Closed: the CLI is
/// being interrupted, and nothing is made or listed any more.
struct path_list {
  std::mutex mu;
  std::map<long, std::string> paths;
  long next = 0;
  bool closed = false;
};

path_list*& list_pointer() {
  static path_list* list = new path_list;  // never destroyed: used until exit
  return list;
}
path_list& the_list() { return *list_pointer(); }

}  // namespace

std::string temp_dir() {
  const char* t = std::getenv("TMPDIR");
  return t != nullptr && *t != '\0' ? t : "/tmp";
}

namespace {

/// PATH and all it holds, where what is already gone counts as removed: the
/// CLI's interrupt thread removes a gate's log directory while the thread
/// that made it may be unlinking its files too. std::filesystem::remove_all
/// stops at an entry the other thread unlinked first: libstdc++ 12 returns
/// ENOENT and leaves the directory (26 of 200 rounds of 50 files with a
/// concurrent unlinker; this: 0 of 2,000), and the CLI then died with the
/// directory left, empty (tests/cli/interrupt_test.cpp, 1 run in about 170).
void remove_tree(const std::filesystem::path& path) noexcept {
  std::error_code ec;
  if (std::filesystem::is_directory(std::filesystem::symlink_status(path, ec))) {
    for (std::filesystem::directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec))
      remove_tree(it->path());
  }
  std::filesystem::remove(path, ec);  // ENOENT is no error here
}

/// Never returns: the thread that wanted a temporary once the list closed
/// waits for the interrupt thread to end the process (it holds no lock).
[[noreturn]] void wait_for_the_end() {
  for (;;) ::pause();
}

}  // namespace

void close_temporary_files() noexcept {
  path_list& l = the_list();
  std::lock_guard lock(l.mu);
  l.closed = true;
}

void while_temporaries_open(const std::function<void()>& step) {
  path_list& l = the_list();
  {
    std::lock_guard lock(l.mu);
    if (!l.closed) {
      step();
      return;
    }
  }
  wait_for_the_end();
}

void forget_temporary_files() noexcept {
  // The parent's list is left as it is: a thread the fork did not copy may
  // have held its lock.
  list_pointer() = new (std::nothrow) path_list;
  if (list_pointer() == nullptr) ::_exit(71);
}

bool remove_temporary_files() noexcept {
  path_list& l = the_list();
  std::lock_guard lock(l.mu);
  bool all_gone = true;
  for (const auto& [id, path] : l.paths) {
    remove_tree(path);
    std::error_code ec;
    all_gone = all_gone && !std::filesystem::exists(std::filesystem::symlink_status(path, ec));
  }
  return all_gone;
}

namespace detail {

listed_path::listed_path(const std::string& path) {
  path_list& l = the_list();
  {
    std::lock_guard lock(l.mu);
    if (!l.closed) {
      id_ = l.next++;
      l.paths.emplace(id_, path);
      return;
    }
  }
  remove_tree(path);  // the clean-up removes only what was listed before it closed
  wait_for_the_end();
}

listed_path listed_path::made_by(const std::function<std::string()>& make) {
  path_list& l = the_list();
  {
    std::lock_guard lock(l.mu);
    if (!l.closed) {
      std::string path = make();  // throws with nothing listed
      const long id = l.next++;
      l.paths.emplace(id, std::move(path));
      listed_path listed;  // last: destroyed by a throw here, its unlist would lock again
      listed.id_ = id;
      return listed;
    }
  }
  wait_for_the_end();
}

listed_path::listed_path(listed_path&& o) noexcept : id_(std::exchange(o.id_, -1)) {}

listed_path& listed_path::operator=(listed_path&& o) noexcept {
  if (this != &o) {
    unlist();
    id_ = std::exchange(o.id_, -1);
  }
  return *this;
}

listed_path::~listed_path() { unlist(); }

void listed_path::unlist() noexcept {
  if (id_ < 0) return;
  path_list& l = the_list();
  std::lock_guard lock(l.mu);
  l.paths.erase(id_);
  id_ = -1;
}

}  // namespace detail

temporary_directory::temporary_directory(const std::string& prefix) : path_(prefix + "XXXXXX") {
  listed_ = detail::listed_path::made_by([this] {
    if (::mkdtemp(path_.data()) == nullptr) throw_errno("mkdtemp " + path_);
    return path_;
  });
}

temporary_directory::~temporary_directory() { remove_tree(path_); }

unique_fd anonymous_temporary_file(const std::string& prefix,
                                   const std::function<void(const std::string&)>& while_named) {
  std::string path = temp_dir() + "/" + prefix + "XXXXXX";
  unique_fd fd;
  const detail::listed_path listed = detail::listed_path::made_by([&] {
    fd.reset(::mkostemp(path.data(), O_CLOEXEC));
    if (!fd) throw_errno("mkostemp " + path);
    return path;
  });
  struct unlinked_at_end {
    const std::string& path;
    ~unlinked_at_end() { ::unlink(path.c_str()); }
  } named{path};
  if (while_named) while_named(path);
  return fd;
}

}  // namespace flushcheck
