#pragma once
/// The reference buffering model (docs/model.md). For a script, a
/// destination for each stream, an implementation profile and a cut, it says
/// which bytes MUST be at each reader, which MAY be, and how many
/// write-family calls each destination may have seen.
///
/// The model runs the script against ports of the buffering code of each
/// profile (glibc's libio, musl's stdio, the C++ streams over stdio). Where a
/// profile is exact the model predicts every write call; where it is not
/// (libstdc++'s own filebufs after sync_with_stdio(false), a destination that
/// fails every write) it widens MAY and the call range instead of guessing,
/// and says so in `notes`. It knows what each profile does when a write
/// fails or is short (an injected fault, /dev/full), and refuses the few
/// combinations it does not port.
#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "fault_plan.hpp"
#include "kill_plan.hpp"
#include "profile.hpp"
#include "script.hpp"
#include "sink_kind.hpp"
#include "wait_status.hpp"

namespace flushcheck {

/// A buffer the program writes into: C's stdout and stderr FILEs, and the
/// C++ streams' own buffers (only after sync_with_stdio(false) on
/// libstdc++; otherwise cout writes into C's stdout and cerr/clog into stderr).
/// After sync_with_stdio(false) libstdc++ gives clog cerr's buffer (its
/// ios_init.cc: clog.rdbuf(&buf_cerr)), so cxx_err holds what both were given.
enum class channel { c_out, c_err, cxx_out, cxx_err };
inline constexpr std::size_t channel_count = 4;
const char* to_string(channel c) noexcept;
/// 1 for the stdout channels, 2 for the stderr ones.
int fd_of(channel c) noexcept;

struct model_setup {
  lang language = lang::c;
  impl_profile profile;
  sink_kind stdout_sink = sink_kind::pipe;
  std::optional<sink_kind> stderr_sink = sink_kind::pipe;  ///< nullopt: 2>&1
  std::string input;  ///< stdin's contents (a pipe; empty: /dev/null)
  /// --fault plans on stdout's and stderr's destinations (not files; short
  /// writes only where no error report goes).
  std::vector<fault_plan> faults;
  /// st_blksize of stdout's and stderr's destinations (with 2>&1, stdout's
  /// twice), as fstat says: glibc sizes each stream's buffer from it,
  /// capped at BUFSIZ (libio/filedoalloc.c). 0 is what glibc does when
  /// fstat gives none: BUFSIZ. The model reads no file: a caller that runs
  /// the script asks the kernel (sink.hpp's st_blksize_of).
  std::array<std::size_t, 2> st_blksize{};
};

/// One write-family call: it delivered bytes [from, to) of its channel's
/// `stream`, or (REPORT) it was a target's error report on fd 2.
struct model_call {
  channel ch = channel::c_out;
  std::size_t from = 0;
  std::size_t to = 0;
  int op = 0;                 ///< the op that made it (ops.size(): at exit)
  std::size_t requested = 0;  ///< bytes asked for
  long result = 0;            ///< what the kernel returned: bytes taken, or -1
  bool report = false;
};

/// Prefix lengths of a channel's `stream`.
struct byte_bounds {
  std::size_t must = 0;  ///< this many bytes are at the reader
  std::size_t may = 0;   ///< at most this many are
};

/// Destination 0 is stdout's sink, 1 stderr's (unused when merged).
struct prediction {
  std::array<std::string, channel_count> meant;  ///< all a channel was given, whole script
  std::array<std::string, channel_count> given;  ///< all it was given by the cut, buffered or not
  /// At the cut, per channel: the bytes it wrote, then those that may
  /// still follow (a widened channel's). A failed write leaves a hole: the
  /// stream is not always a prefix of `meant`.
  std::array<std::string, channel_count> stream;
  std::array<byte_bounds, channel_count> bounds;  ///< at the cut, of `stream`
  /// Every call is known: each reader gets exactly `data`.
  bool exact = true;
  std::array<std::string, 2> data;
  /// Write-family calls per destination, inclusive.
  std::array<std::pair<long, long>, 2> writes{};
  bool kill_delivered = false;  ///< the cut point was reached
  wait_status status = wait_status::exited(0);
  bool exit_code_known = true;  ///< false: the target may exit 1 on an I/O error
  int reports = 0;              ///< the target's one-line error reports (one write(2) each to fd 2)
  /// The C++ runtime prints to stderr after this (uncaught exception).
  bool runtime_message = false;
  std::vector<model_call> calls;   ///< the exact calls up to the cut, in order
  std::vector<std::string> notes;  ///< where the model widened, and why

  /// MUST and MAY of each channel that was given bytes, for people.
  std::string describe() const;
};

/// Throws usage_error for what the model does not cover (close, a setvbuf
/// after output, a profile it has no port for).
prediction predict(const model_setup& setup, const script& s, const kill_plan& cut);

}  // namespace flushcheck
