#pragma once
// How a tracee starts, and the ptrace requests the tracer makes of it
// while it is stopped, each in one place with what its failure means; and
// what a signal would do to it. A stopped tracee can vanish under any
// request: a SIGKILL (the cut's, the deadline's, PTRACE_O_EXITKILL) ends it
// at once, and the request fails with ESRCH (ptrace(2), "Death under
// ptrace"). That is not an error: waitpid reports its exit next, and the
// tracer forgets it there. So the requests that only move a tracee on
// return nothing; those whose answer the caller uses say whether it came.
#include <sys/types.h>
#include <sys/user.h>

#include <optional>

#include "spawn.hpp"

namespace flushcheck::detail {

/// Spawns REQ traced: the traced calls' seccomp filter installed, stopped at
/// its exec, the ptrace options set (its forks, threads and execs followed;
/// killed if the tracer goes). Call from the thread that will wait for it.
/// Throws spawn_error, harness_error.
pid_t spawn_traced(spawn_request req);
/// At the entry of a clone or clone3 by P, with REGS: CLONE_UNTRACED would
/// give the child the filter without the tracer (its traced calls would fail
/// with ENOSYS). Cleared, the child is followed as any other (clone: the
/// flags register; clone3: clone_args.flags, the first word of its argument,
/// written with POKEDATA whatever the page's protection).
void keep_child_traced(pid_t p, user_regs_struct& regs);

/// PTRACE_CONT, delivering SIG (0: none).
void resume(pid_t p, int sig = 0) noexcept;
/// PTRACE_SYSCALL: on, and stop at the current call's exit.
void resume_to_exit(pid_t p) noexcept;
/// PTRACE_SETREGS: REGS become P's (the call it is stopped at sees them).
void set_regs(pid_t p, const user_regs_struct& regs) noexcept;

/// PTRACE_GETREGS; false when P is gone.
bool get_regs(pid_t p, user_regs_struct& regs) noexcept;
/// PTRACE_GETEVENTMSG: a new tracee's id, an exec's former id.
std::optional<unsigned long> event_message(pid_t p) noexcept;
/// PTRACE_PEEKDATA of the word at ADDR in P's memory; nullopt when P is
/// gone or ADDR is not mapped (the program passed a bad pointer).
std::optional<long> peek_word(pid_t p, unsigned long long addr) noexcept;
/// PTRACE_POKEDATA, whatever the page's protection; false as peek_word.
bool poke_word(pid_t p, unsigned long long addr, unsigned long long word) noexcept;
/// PTRACE_GETSIGINFO fails with EINVAL at a group stop (ptrace(2),
/// "Group-stop"): true there, false at a signal-delivery stop.
bool at_group_stop(pid_t p) noexcept;
/// Whether SIG sent to thread TID ends its process when it is delivered:
/// not blocked, not caught or ignored, and fatal by default (signal(7)).
bool signal_ends_process(pid_t tid, int sig);

}  // namespace flushcheck::detail
