// The reference model: a script run against the C FILEs (the ports of
// glibc's libio and musl's stdio in model_glibc_file.cpp and
// model_musl_file.cpp), the C++ streams of [ostream] over them, and the
// kernel's side of each call (faults, /dev/full, the cut). docs/model.md
// says what each part rests on.
#include "model.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <bitset>
#include <cerrno>
#include <functional>
#include <memory>
#include <mutex>

#include "error.hpp"
#include "escape.hpp"
#include "model_file.hpp"
#include "signals.hpp"

namespace flushcheck {

const char* to_string(channel c) noexcept {
  switch (c) {
    case channel::c_out: return "stdout";
    case channel::c_err: return "stderr";
    case channel::cxx_out: return "cout";
    case channel::cxx_err: return "cerr+clog";
  }
  return "?";
}

int fd_of(channel c) noexcept { return c == channel::c_out || c == channel::cxx_out ? 1 : 2; }

std::size_t sink_blksize(sink_kind s) {
  // A fresh sink per call: the answer is the kernel's, and it is cached by
  // the model, not here.
  sink k = sink::open(s);
  struct stat st {};
  if (::fstat(k.child_fd(), &st) != 0) throw_errno("fstat of a " + std::string(to_string(s)));
  return static_cast<std::size_t>(st.st_blksize);
}

namespace {

using detail::c_file;

/// A C++ stream buffer whose flushes the model does not port (libstdc++'s
/// stdio_filebuf after sync_with_stdio(false)): what it was given may be at
/// the reader at any time; what a flush pushed must be.
struct loose_buffer {
  std::size_t given = 0;
  std::size_t flushed = 0;  ///< certainly delivered
  long calls_hi = 0;
  long ops = 0;
  void output(std::size_t n) {
    given += n;
    calls_hi += 2 + static_cast<long>(n / 1024);  // overflow + one writev per chunk
    ++ops;
  }
  void flush() {
    if (given > flushed) ++calls_hi;
    flushed = given;
  }
};

class simulation {
 public:
  simulation(const model_setup& setup, const script& s) : setup_(setup), script_(s) {
    const auto& p = setup.profile;
    if (p.libc != libc_impl::glibc && p.libc != libc_impl::musl)
      throw usage_error("the model has no port of libc '" + std::string(to_string(p.libc)) + "'");
    if (setup.language == lang::cxx && p.cxxlib != cxx_impl::libstdcxx &&
        p.cxxlib != cxx_impl::libcxx)
      throw usage_error("the model has no port of C++ library '" +
                        std::string(to_string(p.cxxlib)) + "'");
    out_ = make_file(true, setup.stdout_sink, channel::c_out);
    err_ = make_file(false, setup.stderr_sink.value_or(setup.stdout_sink), channel::c_err);
  }

  prediction run(const kill_plan& cut) {
    cut_ = cut;
    validate();
    prediction p;
    try {
      run_ops(p);
    } catch (const ended& e) {
      p.kill_delivered = e.cut;
      p.status = e.status;
    }
    finish(p);
    return p;
  }

 private:
  /// The program ended inside a call: the cut's signal, or SIGPIPE.
  struct ended {
    wait_status status;
    bool cut = false;
  };

  void run_ops(prediction& p) {
    for (op_ = 0; op_ < static_cast<int>(script_.ops.size()); ++op_) {
      const fc_op& op = script_.ops[op_];
      if (op.kind == FC_MARKER) {
        ++markers_;
        if (cut_.when == kill_plan::when_kind::marker && markers_ == cut_.n)
          throw ended{wait_status::signaled(cut_.signal), true};
      }
      if (end_op(op, p)) return;
      step(op);
    }
    op_ = static_cast<int>(script_.ops.size());
    // The targets return 1 when they reported an error, then exit flushes.
    p.status = wait_status::exited(reports_ > 0 ? 1 : 0);
    exit_flush();
  }

  std::unique_ptr<c_file> make_file(bool is_stdout, sink_kind k, channel ch) {
    detail::write_call call = [this, ch](std::string_view bytes) { return make_call(ch, bytes); };
    if (setup_.profile.libc == libc_impl::musl)
      return detail::make_musl_file(is_stdout, is_tty(k), std::move(call));
    const auto& release = setup_.profile.libc_release;
    return detail::make_glibc_file(!is_stdout, is_tty(k), blksize(k),
                                   detail::glibc_release_rules::of(release.major, release.minor),
                                   std::move(call));
  }

  /// st_blksize per sink kind, asked of the kernel once per process.
  static std::size_t blksize(sink_kind k) {
    static std::mutex m;
    static std::array<std::size_t, 8> cache{};
    std::lock_guard<std::mutex> lock(m);
    auto& b = cache.at(static_cast<std::size_t>(k));
    if (b == 0) b = sink_blksize(k);
    return b;
  }

  bool merged() const { return !setup_.stderr_sink.has_value(); }
  int dest_of(channel c) const { return fd_of(c) == 1 || merged() ? 0 : 1; }
  sink_kind dest_sink(int d) const {
    return d == 0 ? setup_.stdout_sink : setup_.stderr_sink.value_or(setup_.stdout_sink);
  }
  bool fails_writes() const {
    return dest_sink(0) == sink_kind::full || dest_sink(1) == sink_kind::full;
  }
  /// Whether plan F counts and faults the calls to destination D.
  bool reaches(const fault_plan& f, int d) const {
    return f.where == fault_plan::target::stdout_sink ? d == 0 : d == dest_of(channel::c_err);
  }
  bool faults_reach(int d) const {
    return std::any_of(setup_.faults.begin(), setup_.faults.end(),
                       [&](const fault_plan& f) { return reaches(f, d); });
  }

  void validate() const {
    std::array<bool, 2> wrote{};
    for (std::size_t i = 0; i < script_.ops.size(); ++i) {
      const auto& op = script_.ops[i];
      if (op.kind == FC_CLOSE) throw usage_error("the model does not cover 'close'");
      if (is_fd_op(op)) {  // under stdio; fsync's EINVAL on a pipe or a pty is not modelled
        const std::string text = op_text(op);
        throw usage_error("the model does not cover '" + text.substr(0, text.find(' ')) + "'");
      }
      if (op.kind == FC_FORK || op.kind == FC_THREADS)
        throw usage_error("the model does not cover 'fork' and 'threads'");
      if (fc_is_c_stream_op(op.kind))
        throw usage_error("the model does not cover 'lock', 'unlock' and 'putc_unlocked'");
      if (op.kind == FC_SYNC && i != 0)
        throw usage_error("the model covers sync_with_stdio only as the first op");
      if (op.kind == FC_SETVBUF && wrote[op.stream == FC_ERR])
        throw usage_error("setvbuf after output on that stream is undefined (ISO C 7.21.5.3)");
      if (is_output_op(op) || op.kind == FC_FLUSH) {
        wrote[0] = wrote[0] || op.stream != FC_ERR;  // C++ streams reach both
        wrote[1] = wrote[1] || op.stream != FC_OUT;
      }
    }
    validate_faults();
  }

  /// What the model does not port under faults, refused rather than guessed.
  void validate_faults() const {
    for (const auto& f : setup_.faults) {
      if (f.where == fault_plan::target::file)
        throw usage_error("the model covers faults on stdout's and stderr's destinations only");
      if (f.error == 0 && reaches(f, dest_of(channel::c_err)))
        throw usage_error(
            "the model covers short writes only where no error report goes: the targets "
            "report on stderr's destination with one write(2) of strerror's text");
    }
    if (setup_.faults.empty()) return;
    const auto has = [&](fc_op_kind k) {
      return std::any_of(script_.ops.begin(), script_.ops.end(),
                         [k](const fc_op& op) { return op.kind == k && !(k == FC_SYNC && op.n); });
    };
    if (setup_.language == lang::cxx && setup_.profile.cxxlib == cxx_impl::libstdcxx &&
        has(FC_SYNC))
      throw usage_error(
          "the model does not cover faults after sync_with_stdio(false) on libstdc++: its own "
          "stream buffers are not ported");
    if (has(FC_THROW) && faults_reach(dest_of(channel::c_err)))
      throw usage_error(
          "the model does not cover faults on stderr's destination with an uncaught "
          "exception: the terminate handler's writes are not ported");
  }

  // -- calls ---------------------------------------------------------------

  struct kernel_result {
    long bytes = 0;  ///< taken, or -1
    bool sigpipe = false;
  };

  /// What the kernel does with the NTH call of N bytes to destination D:
  /// the first fault plan that selects the call decides, as in the tracer
  /// (a short write still reaches the sink); /dev/full fails every call that
  /// has bytes (an empty writev returns 0 before the driver:
  /// fs/read_write.c, do_iter_write).
  kernel_result kernel(int d, long nth, std::size_t n) const {
    for (const auto& f : setup_.faults) {
      if (!reaches(f, d) || !f.selects(nth)) continue;
      if (f.error != 0) return {-1, f.error == EPIPE};
      n = std::min(n, static_cast<std::size_t>(f.short_bytes));
      break;
    }
    if (dest_sink(d) == sink_kind::full && n > 0) return {-1};
    return {static_cast<long>(n)};
  }

  /// One write-family call of channel CH's BYTES (REPORT: a target's error
  /// report): the cut at its entry, the kernel's result, the cut after it,
  /// SIGPIPE.
  long make_call(channel ch, std::string_view bytes, bool report = false) {
    const int d = dest_of(ch);
    const long nth = ++calls_on_[d];
    const bool cut_here = d == 0 && nth == cut_.n;
    if (cut_here && cut_.when == kill_plan::when_kind::write)
      throw ended{wait_status::signaled(cut_.signal), true};
    const kernel_result r = kernel(d, nth, bytes.size());
    record(ch, bytes, r.bytes, report);
    const bool cut_after = cut_here && cut_.when == kill_plan::when_kind::after_write;
    // Both pending at once: SIGKILL ends the process first, else the lower
    // number (SIGPIPE, 13) is delivered first (kernel/signal.c, next_signal).
    const bool cut_first = cut_.signal == SIGKILL || cut_.signal < SIGPIPE;
    if (r.sigpipe && !ignored_[SIGPIPE])
      throw ended{wait_status::signaled(cut_after && cut_first ? cut_.signal : SIGPIPE), cut_after};
    if (cut_after) throw ended{wait_status::signaled(cut_.signal), true};
    return r.bytes;
  }

  void record(channel ch, std::string_view bytes, long result, bool report) {
    auto& got = delivered_[static_cast<std::size_t>(ch)];
    const std::size_t from = got.size();
    if (!report && result > 0) got.append(bytes.substr(0, static_cast<std::size_t>(result)));
    calls_.push_back({ch, from, got.size(), op_, bytes.size(), result, report});
  }

  /// The targets' error report: one write(2) to fd 2, never retried.
  void report() {
    ++reports_;
    make_call(channel::c_err, "target error report", true);
  }

  // -- ops -----------------------------------------------------------------

  std::string payload(std::size_t n, bool newline) const {
    std::string s(n, fc_payload_char(op_));
    if (newline) s += '\n';
    return s;
  }

  void give(channel ch, const std::string& bytes) { meant_[static_cast<std::size_t>(ch)] += bytes; }

  bool cxx() const { return setup_.language == lang::cxx; }
  bool libcxx() const { return setup_.profile.cxxlib == cxx_impl::libcxx; }
  /// libstdc++ of a GCC release before MAJOR (a release the target said).
  bool libstdcxx_before(int major) const {
    const lib_version release = setup_.profile.cxx_release;
    return setup_.profile.cxxlib == cxx_impl::libstdcxx && release != lib_version{} &&
           release < lib_version{major, 0, 0};
  }
  bool loose() const { return cxx() && !synced_ && setup_.profile.cxxlib == cxx_impl::libstdcxx; }
  c_file& file(fc_stream s) { return s == FC_ERR ? *err_ : *out_; }
  static channel c_channel(fc_stream s) { return s == FC_ERR ? channel::c_err : channel::c_out; }

  /// The op ends the program: record the status and what flushes first.
  bool end_op(const fc_op& op, prediction& p) {
    switch (op.kind) {
      case FC_EXIT:
      case FC_RETURN:
        p.status = wait_status::exited(static_cast<int>(op.n));
        exit_flush();
        return true;
      case FC_UEXIT:
      case FC_QUICK_EXIT: p.status = wait_status::exited(static_cast<int>(op.n)); return true;
      case FC_ABORT: p.status = wait_status::signaled(SIGABRT); return true;
      case FC_CRASH: p.status = wait_status::signaled(SIGSEGV); return true;
      case FC_THROW:
        p.status = wait_status::signaled(SIGABRT);
        p.runtime_message = true;
        return true;
      case FC_RAISE:
        if (!is_ending_op(op) || ignored_[static_cast<std::size_t>(op.n)]) return false;
        p.status = wait_status::signaled(static_cast<int>(op.n));
        return true;
      default: return false;
    }
  }

  void step(const fc_op& op) {
    switch (op.kind) {
      case FC_WRITE: output(op, payload(op.n, false), false); break;
      case FC_LINE: output(op, payload(op.n, true), false); break;
      // C: fwrite("\n"). C++: os << '\n', which libstdc++ 12 turns into put()
      // when width() is 0 (<ostream>); libc++ inserts it with sputn. Both
      // reach the FILE as one byte; put is what tells putc from fwrite. Up
      // to libstdc++ 11 (<ostream>) it is __ostream_insert: fwrite.
      case FC_NEWLINE: output(op, "\n", cxx() && !libstdcxx_before(12)); break;
      case FC_PUTC: output(op, payload(op.n, false), true); break;
      case FC_ENDL: endl(op.stream); break;
      case FC_PRINTF:
      case FC_FPUTS: c_call(op, payload(op.n, false)); break;
      case FC_FLUSH: cxx() ? cxx_flush_op(op.stream) : c_flush_op(op.stream); break;
      case FC_SETVBUF: file(op.stream).setvbuf(op.mode, static_cast<std::size_t>(op.n)); break;
      default: setting(op);
    }
  }

  /// The ops that change a setting, and stdin's reads.
  void setting(const fc_op& op) {
    switch (op.kind) {
      case FC_SYNC: synced_ = op.n != 0; break;
      case FC_TIE:
        if (op.stream == FC_IN) cin_tied_ = op.n != 0;
        if (op.stream == FC_ERR) cerr_tied_ = op.n != 0;
        if (op.stream == FC_LOG) clog_tied_ = op.n != 0;
        break;
      case FC_UNITBUF: unitbuf_[stream_index(op.stream)] = op.n != 0; break;
      case FC_CLEAR: clear_ = op.n != 0; break;
      case FC_IGNORE:  // signal() refuses SIGKILL and SIGSTOP (EINVAL)
        if (op.n != SIGKILL && op.n != SIGSTOP) ignored_[static_cast<std::size_t>(op.n)] = true;
        break;
      case FC_READ:
      case FC_GETLINE:  // istream's sentry flushes tie() (cin is good: the target clears it)
        if (cxx() && cin_tied_) cxx_flush(FC_OUT);
        break;
      default: break;  // marker, sleep, a raise of an ignored signal
    }
  }

  static int stream_index(fc_stream s) { return s == FC_ERR ? 1 : s == FC_LOG ? 2 : 0; }

  // -- C stdio ---------------------------------------------------------------

  /// printf("%s") or fputs (from C or C++): reported when it fails.
  void c_call(const fc_op& op, const std::string& bytes) {
    const fc_stream s = op.kind == FC_PRINTF ? FC_OUT : op.stream;
    give(c_channel(s), bytes);
    const bool ok = op.kind == FC_PRINTF ? file(s).printf(bytes) : file(s).fputs(bytes);
    if (!ok) report();
  }

  /// fwrite of the bytes, or a putc loop that stops at the first EOF:
  /// reported once when it fails (targets/script/stdio_script.c).
  void c_output(const fc_op& op, const std::string& bytes, bool per_char) {
    give(c_channel(op.stream), bytes);
    c_file& f = file(op.stream);
    bool ok = true;
    if (per_char) {
      for (std::size_t i = 0; ok && i < bytes.size(); ++i) ok = f.putc(bytes[i]);
    } else if (!bytes.empty()) {
      ok = f.fwrite(bytes);
    }
    if (!ok) report();
  }

  void c_flush_op(fc_stream s) {
    const bool ok = s == FC_ALL ? all_c_flush() : file(s).fflush();
    if (!ok) report();
  }

  /// fflush(NULL) and exit's flush: glibc walks _IO_list_all (stderr,
  /// stdout); musl flushes stdout, then stderr. Each is flushed whatever
  /// the other did.
  bool all_c_flush() {
    const bool musl = setup_.profile.libc == libc_impl::musl;
    const bool first = (musl ? out_ : err_)->fflush();
    const bool second = (musl ? err_ : out_)->fflush();
    return first && second;
  }

  // -- C++ streams -----------------------------------------------------------

  bool good(fc_stream s) const { return good_[stream_index(s)]; }
  void set_bad(fc_stream s) {
    if (!loose()) good_[stream_index(s)] = false;
  }

  /// write/line/newline/putc: C stdio in C, an ostream in C++.
  void output(const fc_op& op, const std::string& bytes, bool per_char) {
    if (!cxx()) return c_output(op, bytes, per_char);
    unformatted(op.stream, bytes, per_char, op.kind == FC_PUTC);
    check(op.stream);
  }

  /// os << std::endl: put('\n'), then flush().
  void endl(fc_stream s) {
    unformatted(s, "\n", true, false);
    cxx_flush(s);
    check(s);
  }

  /// Each put() and each write() is one unformatted output function
  /// ([ostream.unformatted]): sentry, the bytes, ~sentry. PUT_LOOP: the
  /// target's putc loop, which runs while the stream is good.
  void unformatted(fc_stream s, const std::string& bytes, bool per_char, bool put_loop) {
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

  /// The stdio FILE under a synced C++ stream: clog writes to stderr.
  static fc_stream stdio_of(fc_stream s) { return s == FC_OUT ? FC_OUT : FC_ERR; }

  /// The bytes through the stream buffer. stdio_sync_filebuf (libstdc++)
  /// and __stdoutbuf (libc++): xsputn is fwrite; overflow is putc in
  /// libstdc++, a one-byte fwrite in libc++ (which glibc's fwrite reports
  /// as written even when its line flush failed).
  void put(fc_stream s, const std::string& piece, bool per_char) {
    if (loose()) {
      loose_[loose_index(s)].output(piece.size());
      return;
    }
    c_file& f = file(stdio_of(s));
    const bool ok = per_char && !libcxx() ? f.putc(piece[0]) : f.fwrite(piece);
    if (!ok) set_bad(s);
  }

  /// libstdc++'s own buffers after sync_with_stdio(false): cout's, and
  /// cerr's, which clog shares.
  static int loose_index(fc_stream s) { return s == FC_OUT ? 0 : 1; }
  static channel cxx_channel(fc_stream s) {
    return s == FC_OUT ? channel::cxx_out : channel::cxx_err;
  }

  /// sentry: only a good stream, whose tie() is flushed first.
  bool sentry(fc_stream s) {
    if (!good(s)) return false;
    if ((s == FC_ERR && cerr_tied_) || (s == FC_LOG && clog_tied_)) cxx_flush(FC_OUT);
    return true;
  }

  /// ~sentry: unitbuf syncs the buffer, in libstdc++ up to 15 whatever the
  /// stream's state, in libc++ and from libstdc++ 16 only when it is good
  /// (their <ostream>; libstdc++ 16's bits/ostream.h: LWG 4188).
  void end_sentry(fc_stream s) {
    const bool only_good = libcxx() || setup_.profile.cxx_release >= lib_version{16, 0, 0};
    if (!unitbuf_[stream_index(s)] || (only_good && !good(s))) return;
    if (!pubsync(s)) set_bad(s);
  }

  bool pubsync(fc_stream s) {
    if (loose()) {
      loose_[loose_index(s)].flush();
      return true;
    }
    return file(stdio_of(s)).fflush();
  }

  /// ostream::flush(): an unformatted output function (LWG 581) in libc++
  /// and from libstdc++ 12: a sentry, then pubsync. Up to libstdc++ 11 it
  /// is not one (DR 60, their bits/ostream.tcc): pubsync alone, whatever
  /// the state, with no tie() flushed and no ~sentry.
  void cxx_flush(fc_stream s) {
    if (libstdcxx_before(12)) {
      if (!pubsync(s)) set_bad(s);
      return;
    }
    if (sentry(s) && !pubsync(s)) set_bad(s);
    end_sentry(s);
  }

  void cxx_flush_op(fc_stream s) {
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
  void check(fc_stream s) {
    if (good(s)) return;
    report();
    if (clear_) good_[stream_index(s)] = true;
  }

  /// exit(): the C++ runtime's ios_base::Init destructor flushes cout, cerr
  /// and clog; then stdio flushes every FILE. Nothing is reported.
  void exit_flush() {
    if (cxx()) {
      cxx_flush(FC_OUT);
      cxx_flush(FC_ERR);
      cxx_flush(FC_LOG);
    }
    all_c_flush();
  }

  // -- result ----------------------------------------------------------------

  void finish(prediction& p) {
    p.given = meant_;
    p.meant = full_meant();
    p.calls = calls_;
    p.reports = reports_;
    for (std::size_t c = 0; c < channel_count; ++c) {
      p.stream[c] = delivered_[c];
      p.bounds[c] = {delivered_[c].size(), delivered_[c].size()};
    }
    count_calls(p);
    widen_loose(p);
    if (p.runtime_message) widen_terminate(p);
    if (merged()) p.writes[1] = {0, 0};
  }

  /// Every call is known: each destination gets exactly the bytes of its calls.
  void count_calls(prediction& p) const {
    std::array<long, 2> n{};
    for (const auto& call : calls_) {
      const int d = dest_of(call.ch);
      ++n[d];
      if (!call.report)
        p.data[d] +=
            p.stream[static_cast<std::size_t>(call.ch)].substr(call.from, call.to - call.from);
    }
    // write:N stops the N-th call at its entry: it never runs, and the
    // tracer counts it apart (trace_summary::stopped), not here.
    for (int d = 0; d < 2; ++d) p.writes[d] = {n[d], n[d]};
  }

  /// libstdc++ after sync_with_stdio(false): its streams' MAY is all they
  /// were given, MUST what their flushes pushed, their calls a range.
  void widen_loose(prediction& p) const {
    for (int i = 0; i < 2; ++i) {
      const auto& b = loose_[i];
      if (b.ops == 0 && b.given == 0) continue;
      const auto ch = cxx_channel(i == 0 ? FC_OUT : FC_ERR);
      const auto c = static_cast<std::size_t>(ch);
      p.stream[c] = meant_[c];
      p.bounds[c] = {b.flushed, b.given};
      p.writes[dest_of(ch)].first += b.flushed > 0 ? 1 : 0;
      p.writes[dest_of(ch)].second += b.calls_hi;
      p.exact = false;
    }
    if (p.exact) return;
    p.notes.push_back(
        "libstdc++ after sync_with_stdio(false): the model does not port stdio_filebuf's "
        "flushes, so its streams' MAY is all they were given and their calls are a range");
    if (!fails_writes()) return;
    const long ops = static_cast<long>(script_.ops.size()) + 1;
    for (int d = 0; d < 2; ++d) {
      if (dest_sink(d) == sink_kind::full) p.writes[d].first = 0;
      p.writes[d].second += ops;  // + the target's error reports
    }
    p.notes.push_back(
        "/dev/full with libstdc++'s own stream buffers: what their failed writes do is not "
        "ported, so the calls are a range and each op may report once on stderr");
    p.exit_code_known = false;
  }

  /// The terminate handler writes through C's stderr: with a buffered
  /// stderr that may push out (or strand) what was pending there.
  void widen_terminate(prediction& p) const {
    const auto c = static_cast<std::size_t>(channel::c_err);
    p.stream[c] += err_->pending();
    p.bounds[c].may = p.stream[c].size();
    if (p.bounds[c].may != p.bounds[c].must) p.exact = false;
    p.writes[merged() ? 0 : 1].second += 16;
  }

  /// Everything each channel is given if the script runs to its end (what
  /// the program meant to write), without cutting the simulation short.
  std::array<std::string, channel_count> full_meant() {
    std::array<std::string, channel_count> m = meant_;
    if (!finishing_) {
      simulation whole(setup_, script_);
      whole.finishing_ = true;
      whole.run(kill_plan{});
      m = whole.meant_;
    }
    return m;
  }

  const model_setup& setup_;
  const script& script_;
  kill_plan cut_;
  std::unique_ptr<c_file> out_;
  std::unique_ptr<c_file> err_;
  std::array<std::string, channel_count> meant_;
  std::array<std::string, channel_count> delivered_;
  std::array<loose_buffer, 2> loose_{};
  std::vector<model_call> calls_;
  std::array<long, 2> calls_on_{};  ///< write-family calls per destination so far
  int reports_ = 0;
  int op_ = 0;
  long markers_ = 0;
  bool synced_ = true;
  bool cin_tied_ = true;
  std::bitset<FC_MAX_SIGNAL + 1> ignored_;  // "ignore SIG": a later "raise SIG" does nothing
  bool cerr_tied_ = true;
  bool clog_tied_ = false;
  std::array<bool, 3> unitbuf_{false, true, false};
  std::array<bool, 3> good_{true, true, true};  ///< cout, cerr, clog: neither bad nor failed
  bool clear_ = true;  ///< the target clears a stream after reporting it ("clear off")
  bool finishing_ = false;
};

}  // namespace

std::string prediction::describe() const {
  std::string out;
  for (std::size_t c = 0; c < channel_count; ++c) {
    if (meant[c].empty()) continue;
    const auto& b = bounds[c];
    out += std::string(to_string(static_cast<channel>(c))) + ": MUST " +
           printable(stream[c].substr(0, b.must), 240) + " (" + std::to_string(b.must) +
           " bytes), MAY " +
           (b.may == b.must
                ? std::string("the same")
                : printable(stream[c].substr(0, b.may), 240) + " (" + std::to_string(b.may) + ")") +
           ", of " + std::to_string(meant[c].size()) + " given\n";
  }
  out += "write calls: stdout's destination " + std::to_string(writes[0].first) +
         (writes[0].second != writes[0].first ? ".." + std::to_string(writes[0].second) : "") +
         ", stderr's " + std::to_string(writes[1].first) +
         (writes[1].second != writes[1].first ? ".." + std::to_string(writes[1].second) : "") +
         "\n";
  long failed = 0;
  for (const auto& c : calls) failed += c.result < 0 || c.result < static_cast<long>(c.requested);
  if (failed > 0 || reports > 0)
    out += std::to_string(failed) + " failed or short, " + std::to_string(reports) +
           " error reports\n";
  for (const auto& n : notes) out += "note: " + n + "\n";
  return out;
}

prediction predict(const model_setup& setup, const script& s, const kill_plan& cut) {
  simulation sim(setup, s);
  return sim.run(cut);
}

}  // namespace flushcheck
