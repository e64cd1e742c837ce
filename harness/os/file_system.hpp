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

}  // namespace flushcheck::detail
