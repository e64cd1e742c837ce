#pragma once
/// A script of the target language (docs/script.md) as the harness sees it:
/// the ops parsed by the targets' own parser, so the harness and the targets
/// cannot disagree on what a script means.
#include <string>
#include <string_view>
#include <vector>

#include "script.h"

namespace flushcheck {

struct script {
  std::vector<fc_op> ops;

  /// Throws usage_error with the parser's one-line reason.
  static script parse(std::string_view text);
  /// The script as text, one op per ';', parse's inverse.
  std::string text() const;
};

/// One op as text: "line 3 err", "setvbuf full 64 out", "marker m1".
std::string op_text(const fc_op& op);

/// The op's written bytes go to a stream (write, line, putc, printf, fputs,
/// newline, endl).
bool is_output_op(const fc_op& op);

/// The op ends the program (exit, _exit, quick_exit, abort, return, crash,
/// throw, raise of a terminating signal).
bool is_ending_op(const fc_op& op);

/// An op on the stream's file descriptor, under stdio: fsync, reopen,
/// syswrite, fadvise, resident (targets/script/fd_ops.h).
bool is_fd_op(const fc_op& op);

}  // namespace flushcheck
