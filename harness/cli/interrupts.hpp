#pragma once
// Ctrl-C, a kill of the CLI or a closed terminal (SIGINT, SIGTERM, SIGHUP, SIGQUIT)
// leaves nothing behind: not the running program's process group, not a
// descendant that left it (setsid), not a temporary file or directory.

namespace flushcheck::cli {

/// Blocks SIGINT, SIGTERM, SIGHUP and SIGQUIT in this thread (and so in every thread
/// started after it: call it first in main) and starts the one thread that
/// takes them: it closes the temporary paths' list (a thread that makes one
/// from then on waits for the end), kills the running child's group and
/// every process this one has adopted (the CLI is a child subreaper),
/// removes the temporary paths, and then dies of the signal, as the CLI
/// would have.
void guard_interrupts();

/// The process group of the run in progress (0: none), for that thread;
/// once an interrupt is being handled, a group remembered is killed at once.
void remember_child(int pid);

/// CODE, the CLI's exit status; but once an interrupt is being handled,
/// never returns: the CLI dies of the signal, not with a code of a run the
/// interrupt ended.
int unless_interrupted(int code);

}  // namespace flushcheck::cli
