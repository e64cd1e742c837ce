#pragma once
// The C++ streams of a simulated run (docs/model.md): cout, cerr and clog
// of [ostream] over C stdio's FILEs (model_stdio.hpp), with their ties,
// unitbuf, states and sync_with_stdio, as libstdc++ and libc++ implement
// them, release by release where they differ.
#include <array>
#include <cstddef>
#include <string>

#include "model.hpp"
#include "model_effects.hpp"
#include "model_stdio.hpp"
#include "script.h"

namespace flushcheck::detail {

/// A C++ stream buffer whose flushes the model does not port (libstdc++'s
/// stdio_filebuf after sync_with_stdio(false)): what it was given may be at
/// the reader at any time; what a flush pushed must be.
struct loose_buffer {
  std::size_t given = 0;
  std::size_t flushed = 0;  ///< certainly delivered
  long calls_hi = 0;
  long ops = 0;
  void output(std::size_t n);
  void flush();
};

/// The C++ streams' settings, as the script's ops leave them: the ties and
/// sync_with_stdio, unitbuf, and whether the target clears a bad stream.
struct cxx_settings {
  bool synced = true;  ///< sync_with_stdio
  bool cin_tied = true;
  bool cerr_tied = true;
  bool clog_tied = false;
  std::array<bool, 3> unitbuf{false, true, false};  ///< cout, cerr, clog
  bool clear = true;  ///< the target clears a stream after reporting it ("clear off")
};

class cxx_iostreams {
 public:
  /// The streams of SETUP's C++ library over STDIO; their reports go to FX.
  cxx_iostreams(const model_setup& setup, c_stdio& stdio, program_effects& fx)
      : setup_(setup), stdio_(stdio), fx_(fx) {}

  /// write/line/newline/putc on a stream, then the target's check.
  void output(const fc_op& op, const std::string& bytes, bool per_char);
  /// os << std::endl: put('\n'), then flush().
  void endl(fc_stream s);
  /// The target's flush op: one stream's flush(), or all three and fflush(NULL).
  void flush_op(fc_stream s);
  /// An op that sets sync_with_stdio, a tie, unitbuf or "clear": true if OP is one.
  bool setting(const fc_op& op);
  /// An istream read: its sentry flushes cin's tie() (cin is good: the target clears it).
  void read();
  /// exit(): the runtime's ios_base::Init destructor flushes cout, cerr and clog.
  void exit_flush();
  /// Whether os << '\n' goes out a byte at a time (per_char), as every
  /// release does but libstdc++ up to 11 (its __ostream_insert: fwrite).
  bool newline_per_char() const { return !libstdcxx_before(12); }
  /// libstdc++'s own buffer I after sync_with_stdio(false): cout's (0), cerr's (1).
  const loose_buffer& loose_buffer_of(int i) const { return loose_[static_cast<std::size_t>(i)]; }

 private:
  bool libcxx() const;
  bool libstdcxx_before(int major) const;
  bool loose() const;
  bool good(fc_stream s) const;
  void set_bad(fc_stream s);
  void unformatted(fc_stream s, const std::string& bytes, bool per_char, bool put_loop);
  void put(fc_stream s, const std::string& piece, bool per_char);
  bool sentry(fc_stream s);
  void end_sentry(fc_stream s);
  bool pubsync(fc_stream s);
  void flush(fc_stream s);
  void check(fc_stream s);

  const model_setup& setup_;
  c_stdio& stdio_;
  program_effects& fx_;
  cxx_settings set_;
  std::array<bool, 3> good_{true, true, true};  ///< neither bad nor failed: cout, cerr, clog
  std::array<loose_buffer, 2> loose_{};  ///< libstdc++'s own: cout's, cerr's (clog shares it)
};

/// Indexes of the C++ streams: cout, cerr, clog.
std::size_t stream_index(fc_stream s);
/// The channel of libstdc++'s own buffer of stream S (after sync_with_stdio(false)).
channel cxx_channel(fc_stream s);

}  // namespace flushcheck::detail
