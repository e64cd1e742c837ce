#pragma once
/// How the harness reads a sink: at once (a prompt reader, the default), or
/// as a reader that pushes back: not at all until a point, in small reads,
/// or not past N bytes. For pipes and ptys; a file sink is read after the run.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace flushcheck {

struct reader_policy {
  enum class kind {
    prompt,             ///< reads whatever arrives, at once
    paused,             ///< reads nothing until the program has ended (or the deadline)
    paused_until,       ///< as paused, or until the program reaches marker n
    chunk,              ///< reads at once, n bytes a read at most
    close_after,        ///< reads n bytes, then closes its end (the writer meets EPIPE)
    rate,               ///< reads at most n bytes a second, on average since its first look
    paused_then_close,  ///< reads nothing, and closes its end n ms after the run starts
  };
  kind what = kind::prompt;
  std::uint64_t n = 0;

  /// "prompt", "paused", "paused-until=marker:N", "chunk=N", "close-after=N",
  /// "rate=BYTES" (a second; K, M, G: powers of 1024), "paused-then-close=MS".
  /// Throws usage_error.
  static reader_policy parse(std::string_view text);
  /// The forms parse takes, a value to follow those ending in '=' or ':'.
  static const std::vector<std::string_view>& forms();
  /// parse's inverse.
  std::string text() const;
  /// Reads nothing until released: paused, paused-until, paused-then-close.
  bool pauses() const noexcept {
    return what == kind::paused || what == kind::paused_until || what == kind::paused_then_close;
  }
};

}  // namespace flushcheck
