#pragma once
// The ptrace requests the tracer makes of a stopped tracee, each in one
// place with what its failure means. A stopped tracee can vanish under any
// of them: a SIGKILL (the cut's, the deadline's, PTRACE_O_EXITKILL) ends it
// at once, and the request fails with ESRCH (ptrace(2), "Death under
// ptrace"). That is not an error: waitpid reports its exit next, and the
// tracer forgets it there. So the requests that only move a tracee on
// return nothing; those whose answer the caller uses say whether it came.
#include <sys/types.h>
#include <sys/user.h>

#include <optional>

namespace flushcheck::detail {

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

}  // namespace flushcheck::detail
