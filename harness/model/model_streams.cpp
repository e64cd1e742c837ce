// The C++ streams of [ostream] over C stdio: sentries, tie(), unitbuf,
// flush() and the stream states, as libstdc++ and libc++ implement them,
// release by release where they differ.
#include "model_simulation.hpp"

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
int loose_index(fc_stream s) { return s == FC_OUT ? 0 : 1; }

/// The stdio FILE under a synced C++ stream: clog writes to stderr.
fc_stream stdio_of(fc_stream s) { return s == FC_OUT ? FC_OUT : FC_ERR; }

}  // namespace

bool simulation::libcxx() const { return setup_.profile.cxxlib == cxx_impl::libcxx; }

/// libstdc++ of a GCC release before MAJOR (a release the target said).
bool simulation::libstdcxx_before(int major) const {
  const lib_version release = setup_.profile.cxx_release;
  return setup_.profile.cxxlib == cxx_impl::libstdcxx && release != lib_version{} &&
         release < lib_version{major, 0, 0};
}

bool simulation::loose() const {
  return cxx() && !cxx_.synced && setup_.profile.cxxlib == cxx_impl::libstdcxx;
}

bool simulation::good(fc_stream s) const { return cxx_.good[stream_index(s)]; }

void simulation::set_bad(fc_stream s) {
  if (!loose()) cxx_.good[stream_index(s)] = false;
}

/// write/line/newline/putc: C stdio in C, an ostream in C++.
void simulation::output(const fc_op& op, const std::string& bytes, bool per_char) {
  if (!cxx()) return c_output(op, bytes, per_char);
  unformatted(op.stream, bytes, per_char, op.kind == FC_PUTC);
  check(op.stream);
}

/// os << std::endl: put('\n'), then flush().
void simulation::endl(fc_stream s) {
  unformatted(s, "\n", true, false);
  cxx_flush(s);
  check(s);
}

/// Each put() and each write() is one unformatted output function
/// ([ostream.unformatted]): sentry, the bytes, ~sentry. PUT_LOOP: the
/// target's putc loop, which runs while the stream is good.
void simulation::unformatted(fc_stream s, const std::string& bytes, bool per_char, bool put_loop) {
  const auto pieces = per_char ? bytes.size() : std::size_t{1};
  for (std::size_t i = 0; i < pieces; ++i) {
    if (put_loop && !good(s)) break;
    const std::string piece = per_char ? bytes.substr(i, 1) : bytes;
    const bool ok = sentry(s);
    give(loose() ? cxx_channel(s) : c_channel(stdio_of(s)), piece);
    if (ok) put(s, piece, per_char);
    end_sentry(s);
  }
}

/// The bytes through the stream buffer. stdio_sync_filebuf (libstdc++)
/// and __stdoutbuf (libc++): xsputn is fwrite; overflow is putc in
/// libstdc++, a one-byte fwrite in libc++ (which glibc's fwrite reports
/// as written even when its line flush failed).
void simulation::put(fc_stream s, const std::string& piece, bool per_char) {
  if (loose()) {
    cxx_.loose[loose_index(s)].output(piece.size());
    return;
  }
  c_file& f = file(stdio_of(s));
  const bool ok = per_char && !libcxx() ? f.putc(piece[0]) : f.fwrite(piece);
  if (!ok) set_bad(s);
}

/// sentry: only a good stream, whose tie() is flushed first.
bool simulation::sentry(fc_stream s) {
  if (!good(s)) return false;
  if ((s == FC_ERR && cxx_.cerr_tied) || (s == FC_LOG && cxx_.clog_tied)) cxx_flush(FC_OUT);
  return true;
}

/// ~sentry: unitbuf syncs the buffer, in libstdc++ up to 15 whatever the
/// stream's state, in libc++ and from libstdc++ 16 only when it is good
/// (their <ostream>; libstdc++ 16's bits/ostream.h: LWG 4188).
void simulation::end_sentry(fc_stream s) {
  const bool only_good = libcxx() || setup_.profile.cxx_release >= lib_version{16, 0, 0};
  if (!cxx_.unitbuf[stream_index(s)] || (only_good && !good(s))) return;
  if (!pubsync(s)) set_bad(s);
}

bool simulation::pubsync(fc_stream s) {
  if (loose()) {
    cxx_.loose[loose_index(s)].flush();
    return true;
  }
  return file(stdio_of(s)).fflush();
}

/// ostream::flush(): an unformatted output function (LWG 581) in libc++
/// and from libstdc++ 12: a sentry, then pubsync. Up to libstdc++ 11 it
/// is not one (DR 60, their bits/ostream.tcc): pubsync alone, whatever
/// the state, with no tie() flushed and no ~sentry.
void simulation::cxx_flush(fc_stream s) {
  if (libstdcxx_before(12)) {
    if (!pubsync(s)) set_bad(s);
    return;
  }
  if (sentry(s) && !pubsync(s)) set_bad(s);
  end_sentry(s);
}

void simulation::cxx_flush_op(fc_stream s) {
  if (s != FC_ALL) {
    cxx_flush(s);
    check(s);
    return;
  }
  for (fc_stream each : {FC_OUT, FC_ERR, FC_LOG}) {  // iostream_script: then fflush(NULL)
    cxx_flush(each);
    check(each);
  }
  if (!all_c_flush()) report();
}

/// The target's check() after an op: a stream that is not good is
/// reported, then cleared unless "clear off".
void simulation::check(fc_stream s) {
  if (good(s)) return;
  report();
  if (cxx_.clear) cxx_.good[stream_index(s)] = true;
}

/// exit(): the C++ runtime's ios_base::Init destructor flushes cout, cerr
/// and clog; then stdio flushes every FILE. Nothing is reported.
void simulation::exit_flush() {
  if (cxx()) {
    cxx_flush(FC_OUT);
    cxx_flush(FC_ERR);
    cxx_flush(FC_LOG);
  }
  all_c_flush();
}

}  // namespace flushcheck::detail
