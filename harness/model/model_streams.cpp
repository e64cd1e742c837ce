// The C++ streams of [ostream] over C stdio: sentries, tie(), unitbuf,
// flush() and the stream states, as libstdc++ and libc++ implement them,
// release by release where they differ.
#include "model_streams.hpp"

namespace flushcheck::detail {

void loose_buffer::output(std::size_t n) {
  given += n;
  calls_hi += 2 + static_cast<long>(n / 1024);  // overflow + one writev per chunk
  ++ops;
}

void loose_buffer::flush() {
  if (given > flushed) ++calls_hi;
  flushed = given;
}

namespace {

/// libstdc++'s own buffers after sync_with_stdio(false): cout's, and
/// cerr's, which clog shares.
std::size_t loose_index(fc_stream s) { return s == FC_OUT ? 0 : 1; }

/// The stdio FILE under a synced C++ stream: clog writes to stderr.
fc_stream stdio_of(fc_stream s) { return s == FC_OUT ? FC_OUT : FC_ERR; }

}  // namespace

bool cxx_iostreams::libcxx() const { return setup_.profile.cxxlib == cxx_impl::libcxx; }

/// libstdc++ of a GCC release before MAJOR (a release the target said).
bool cxx_iostreams::libstdcxx_before(int major) const {
  const lib_version release = setup_.profile.cxx_release;
  return setup_.profile.cxxlib == cxx_impl::libstdcxx && release != lib_version{} &&
         release < lib_version{major, 0, 0};
}

/// After sync_with_stdio(false), libstdc++'s streams have buffers of their own.
bool cxx_iostreams::loose() const {
  return !set_.synced && setup_.profile.cxxlib == cxx_impl::libstdcxx;
}

bool cxx_iostreams::good(fc_stream s) const { return good_[stream_index(s)]; }

void cxx_iostreams::set_bad(fc_stream s) {
  if (!loose()) good_[stream_index(s)] = false;
}

void cxx_iostreams::output(const fc_op& op, const std::string& bytes, bool per_char) {
  unformatted(op.stream, bytes, per_char, op.kind == FC_PUTC);
  check(op.stream);
}

void cxx_iostreams::endl(fc_stream s) {
  unformatted(s, "\n", true, false);
  flush(s);
  check(s);
}

/// Each put() and each write() is one unformatted output function
/// ([ostream.unformatted]): sentry, the bytes, ~sentry. PUT_LOOP: the
/// target's putc loop, which runs while the stream is good.
void cxx_iostreams::unformatted(fc_stream s, const std::string& bytes, bool per_char,
                                bool put_loop) {
  const auto pieces = per_char ? bytes.size() : std::size_t{1};
  for (std::size_t i = 0; i < pieces; ++i) {
    if (put_loop && !good(s)) break;
    const std::string piece = per_char ? bytes.substr(i, 1) : bytes;
    const bool ok = sentry(s);
    fx_.give(loose() ? cxx_channel(s) : c_channel(stdio_of(s)), piece);
    if (ok) put(s, piece, per_char);
    end_sentry(s);
  }
}

/// The bytes through the stream buffer. stdio_sync_filebuf (libstdc++)
/// and __stdoutbuf (libc++): xsputn is fwrite; overflow is putc in
/// libstdc++, a one-byte fwrite in libc++ (which glibc's fwrite reports
/// as written even when its line flush failed).
void cxx_iostreams::put(fc_stream s, const std::string& piece, bool per_char) {
  if (loose()) {
    loose_[loose_index(s)].output(piece.size());
    return;
  }
  c_file& f = stdio_.file(stdio_of(s));
  const bool ok = per_char && !libcxx() ? f.putc(piece[0]) : f.fwrite(piece);
  if (!ok) set_bad(s);
}

/// sentry: only a good stream, whose tie() is flushed first.
bool cxx_iostreams::sentry(fc_stream s) {
  if (!good(s)) return false;
  if ((s == FC_ERR && set_.cerr_tied) || (s == FC_LOG && set_.clog_tied)) flush(FC_OUT);
  return true;
}

/// ~sentry: unitbuf syncs the buffer, in libstdc++ up to 15 whatever the
/// stream's state, in libc++ and from libstdc++ 16 only when it is good
/// (their <ostream>; libstdc++ 16's bits/ostream.h: LWG 4188).
void cxx_iostreams::end_sentry(fc_stream s) {
  const bool only_good = libcxx() || setup_.profile.cxx_release >= lib_version{16, 0, 0};
  if (!set_.unitbuf[stream_index(s)] || (only_good && !good(s))) return;
  if (!pubsync(s)) set_bad(s);
}

bool cxx_iostreams::pubsync(fc_stream s) {
  if (loose()) {
    loose_[loose_index(s)].flush();
    return true;
  }
  return stdio_.file(stdio_of(s)).fflush();
}

/// ostream::flush(): an unformatted output function (LWG 581) in libc++
/// and from libstdc++ 12: a sentry, then pubsync. Up to libstdc++ 11 it
/// is not one (DR 60, their bits/ostream.tcc): pubsync alone, whatever
/// the state, with no tie() flushed and no ~sentry.
void cxx_iostreams::flush(fc_stream s) {
  if (libstdcxx_before(12)) {
    if (!pubsync(s)) set_bad(s);
    return;
  }
  if (sentry(s) && !pubsync(s)) set_bad(s);
  end_sentry(s);
}

void cxx_iostreams::flush_op(fc_stream s) {
  if (s != FC_ALL) {
    flush(s);
    check(s);
    return;
  }
  for (fc_stream each : {FC_OUT, FC_ERR, FC_LOG}) {  // iostream_script: then fflush(NULL)
    flush(each);
    check(each);
  }
  if (!stdio_.flush_all()) fx_.report();
}

bool cxx_iostreams::setting(const fc_op& op) {
  switch (op.kind) {
    case FC_SYNC: set_.synced = op.n != 0; return true;
    case FC_TIE:  // "tie in|err|log on|off": cin, cerr or clog tied to cout, or not
      if (op.stream == FC_IN) set_.cin_tied = op.n != 0;
      if (op.stream == FC_ERR) set_.cerr_tied = op.n != 0;
      if (op.stream == FC_LOG) set_.clog_tied = op.n != 0;
      return true;
    case FC_UNITBUF: set_.unitbuf[stream_index(op.stream)] = op.n != 0; return true;
    case FC_CLEAR: set_.clear = op.n != 0; return true;
    default: return false;
  }
}

void cxx_iostreams::read() {
  if (set_.cin_tied) flush(FC_OUT);
}

/// The target's check() after an op: a stream that is not good is
/// reported, then cleared unless "clear off".
void cxx_iostreams::check(fc_stream s) {
  if (good(s)) return;
  fx_.report();
  if (set_.clear) good_[stream_index(s)] = true;
}

/// Nothing is reported: the target's checks have run.
void cxx_iostreams::exit_flush() {
  flush(FC_OUT);
  flush(FC_ERR);
  flush(FC_LOG);
}

std::size_t stream_index(fc_stream s) { return s == FC_ERR ? 1 : s == FC_LOG ? 2 : 0; }
channel cxx_channel(fc_stream s) { return s == FC_OUT ? channel::cxx_out : channel::cxx_err; }

}  // namespace flushcheck::detail
