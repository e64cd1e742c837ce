// Temporary paths: the one place that says where they go, and the list that
// an interrupted CLI removes.
#include "temporary.hpp"

#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>
#include <utility>

namespace flushcheck {

namespace {

struct listed {
  std::string path;
  bool directory;
};

/// The listed paths by id. The CLI removes them from a thread of its own
/// (not a signal handler), so a mutex guards them.
struct path_list {
  std::mutex mu;
  std::map<long, listed> paths;
  long next = 0;
};

path_list& the_list() {
  static path_list* list = new path_list;  // never destroyed: used until exit
  return *list;
}

}  // namespace

std::string temp_dir() {
  const char* t = std::getenv("TMPDIR");
  return t != nullptr && *t != '\0' ? t : "/tmp";
}

void remove_temporary_files() noexcept {
  path_list& l = the_list();
  std::lock_guard lock(l.mu);
  for (const auto& [id, p] : l.paths) {
    std::error_code ec;
    if (p.directory)
      std::filesystem::remove_all(p.path, ec);
    else
      std::filesystem::remove(p.path, ec);
  }
}

namespace detail {

listed_path::listed_path(const std::string& path, bool directory) {
  path_list& l = the_list();
  std::lock_guard lock(l.mu);
  id_ = l.next++;
  l.paths.emplace(id_, listed{path, directory});
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

}  // namespace flushcheck
