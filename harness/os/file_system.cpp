#include "file_system.hpp"

#include <linux/magic.h>
#include <sys/statvfs.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <cstdio>
#include <utility>

namespace flushcheck::detail {
namespace {

constexpr std::pair<unsigned long, const char*> k_file_systems[] = {
    {EXT4_SUPER_MAGIC, "ext4"},  // ext2 and ext3 share it
    {TMPFS_MAGIC, "tmpfs"},       {OVERLAYFS_SUPER_MAGIC, "overlay"}, {XFS_SUPER_MAGIC, "xfs"},
    {BTRFS_SUPER_MAGIC, "btrfs"}, {NFS_SUPER_MAGIC, "nfs"},           {RAMFS_MAGIC, "ramfs"},
    {F2FS_SUPER_MAGIC, "f2fs"},   {SQUASHFS_MAGIC, "squashfs"},       {FUSE_SUPER_MAGIC, "fuse"},
    {0x2fc12fc1UL, "zfs"},  // ZFS_SUPER_MAGIC (OpenZFS)
};

}  // namespace

std::string file_system_of(int fd) {
  struct statfs st {};
  if (::fstatfs(fd, &st) != 0) return "";
  const auto type = static_cast<unsigned long>(st.f_type);
  for (const auto& [magic, name] : k_file_systems)
    if (magic == type) return name;
  char hex[32];
  std::snprintf(hex, sizeof hex, "0x%lx", type);
  return hex;
}

namespace {

/// ST has no block or no inode left that this process may use.
bool full(const struct statvfs& st) {
  const bool root = ::geteuid() == 0;  // root may use the reserved blocks and inodes
  const auto blocks = root ? st.f_bfree : st.f_bavail;
  const auto inodes = root ? st.f_ffree : st.f_favail;
  return blocks == 0 || (st.f_files != 0 && inodes == 0);
}

}  // namespace

bool file_system_full(int fd) {
  struct statvfs st {};
  return ::fstatvfs(fd, &st) == 0 && full(st);
}

bool file_system_full(const std::string& path) {
  struct statvfs st {};
  return ::statvfs(path.c_str(), &st) == 0 && full(st);
}

}  // namespace flushcheck::detail
