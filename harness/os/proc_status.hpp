#pragma once
// What /proc/TID/status says about a traced thread.
#include <sys/types.h>

namespace flushcheck::detail {

/// The process (thread group) of thread TID; TID itself if /proc has no entry.
pid_t tgid_of(pid_t tid);

/// Whether bit SIG is set in the hex mask on line NAME ("SigBlk:", "SigIgn:",
/// "SigCgt:") of /proc/TID/status.
bool status_mask_has(pid_t tid, const char* name, int sig);

}  // namespace flushcheck::detail
