#pragma once
// The file system a file sink lives on: what write(2), fsync and O_DIRECT
// mean there depends on it (tmpfs has no O_DIRECT, ext4 journals, overlay
// copies up), so the report names it.
#include <string>

namespace flushcheck::detail {

/// "ext4", "tmpfs", "overlay", "xfs", "btrfs", ... for FD's file system
/// (fstatfs f_type, linux/magic.h), its magic number in hex for one the
/// table does not name, "" when fstatfs fails.
std::string file_system_of(int fd);

/// Whether FD's file system has no room left for this process's writes:
/// no free block (the reserved ones count for root) or no free inode. A
/// file sink or log directory on such a file system made the program's
/// writes fail with ENOSPC: the harness's failure, never the program's.
bool file_system_full(int fd);
/// The same for the file system that holds PATH (false when it cannot say).
bool file_system_full(const std::string& path);

}  // namespace flushcheck::detail
