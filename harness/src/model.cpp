// The reference model: ports of glibc's libio (2.36, libio/fileops.c,
// genops.c, iosetvbuf.c) and musl's stdio (1.2, src/stdio/__fwritex.c,
// __overflow.c, __stdio_write.c, __stdout_write.c, setvbuf.c, vfprintf.c)
// reduced to what decides write calls, plus the C++ streams of [ostream]
// over them. docs/model.md says what each part rests on.
#include "flushcheck/model.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <bitset>
#include <functional>
#include <memory>
#include <mutex>

#include "flushcheck/error.hpp"
#include "flushcheck/escape.hpp"
#include "flushcheck/signals.hpp"

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

bool sink_shows_data(sink_kind s) noexcept { return s != sink_kind::null && s != sink_kind::full; }

std::size_t sink_blksize(sink_kind s) {
  // A fresh sink per call: the answer is the kernel's, and it is cached by
  // the model, not here.
  sink k = sink::open(s);
  struct stat st {};
  if (::fstat(k.child_fd(), &st) != 0) throw_errno("fstat of a " + std::string(to_string(s)));
  return static_cast<std::size_t>(st.st_blksize);
}

namespace {

constexpr std::size_t glibc_bufsiz = 8192;  // BUFSIZ
constexpr std::size_t musl_bufsiz = 1024;   // BUFSIZ
constexpr std::size_t musl_unget = 8;       // UNGET, taken from a setvbuf buffer

bool is_tty(sink_kind s) { return s == sink_kind::pty || s == sink_kind::pty_cooked; }

/// Where a FILE's write calls go: emit(k) is one write-family call of the
/// next k bytes of its channel (k may be 0: musl's empty writev).
using emitter = std::function<void(std::size_t)>;

/// A C FILE reduced to what decides write calls.
class c_file {
 public:
  virtual ~c_file() = default;
  virtual void fwrite(std::string_view data) = 0;
  virtual void putc(char c) = 0;
  virtual void printf(std::string_view data) { fwrite(data); }
  virtual void fflush() = 0;
  virtual void setvbuf(int mode, std::size_t size) = 0;
};

/// glibc 2.36 libio: _IO_new_file_xsputn, _IO_new_file_overflow,
/// _IO_default_xsputn, _IO_file_doallocate, _IO_setvbuf.
class glibc_file final : public c_file {
 public:
  glibc_file(bool unbuffered, bool tty, std::size_t blksize, emitter emit)
      : unbuf_(unbuffered), tty_(tty), blksize_(blksize), emit_(std::move(emit)) {}

  void fwrite(std::string_view s) override {
    std::size_t to_do = s.size();
    std::size_t count = 0;
    bool must_flush = false;
    if (line_ && putting_) {
      count = cap_ - pending_;
      if (count >= s.size()) {
        auto nl = s.rfind('\n');
        if (nl != std::string_view::npos) {
          count = nl + 1;
          must_flush = true;
        }
      }
    } else {
      count = write_space();
    }
    if (count > 0) {
      count = std::min(count, to_do);
      pending_ += count;
      s.remove_prefix(count);
      to_do -= count;
    }
    if (to_do + (must_flush ? 1 : 0) > 0) {
      overflow_eof();
      const std::size_t block = cap_;
      const std::size_t direct = to_do - (block >= 128 ? to_do % block : 0);
      if (direct > 0) {
        emit_(direct);
        s.remove_prefix(direct);
        to_do -= direct;
      }
      if (to_do > 0) default_xsputn(s);
    }
  }

  void putc(char c) override {
    if (write_space() == 0)
      overflow(c);
    else
      ++pending_;
  }

  void fflush() override {
    if (putting_ && pending_ > 0) write_pending();
  }

  void setvbuf(int mode, std::size_t size) override {
    switch (mode) {
      case FC_BUF_FULL:
        line_ = unbuf_ = false;
        if (size == 0) {
          if (!has_buf_) {
            doallocate();
            line_ = false;
          }
          return;
        }
        break;
      case FC_BUF_LINE:
        unbuf_ = false;
        line_ = true;
        if (size == 0) return;
        break;
      default:
        line_ = false;
        unbuf_ = true;
        size = 0;
    }
    // _IO_default_setbuf: sync, then the new buffer, write pointers reset.
    fflush();
    if (size == 0) {
      unbuf_ = true;
      cap_ = 1;  // _shortbuf
    } else {
      unbuf_ = false;
      cap_ = size;
    }
    has_buf_ = true;
    putting_ = false;
  }

 private:
  /// _IO_write_end - _IO_write_ptr: 0 until a write set the stream to
  /// putting, and always 0 when line buffered or unbuffered.
  std::size_t write_space() const {
    if (!putting_ || line_ || unbuf_) return 0;
    return cap_ - pending_;
  }

  void doallocate() {
    if (has_buf_) return;
    has_buf_ = true;
    if (unbuf_) {  // _IO_doallocbuf: an unbuffered stream gets _shortbuf
      cap_ = 1;
      return;
    }
    cap_ = blksize_ > 0 && blksize_ < glibc_bufsiz ? blksize_ : glibc_bufsiz;
    if (tty_) line_ = true;
  }

  void start_putting() {
    if (!putting_ || !has_buf_) {
      doallocate();
      putting_ = true;
    }
  }

  void write_pending() {
    const std::size_t k = pending_;
    pending_ = 0;
    if (k > 0) emit_(k);
  }

  void overflow_eof() {
    start_putting();
    write_pending();
  }

  void overflow(char c) {
    start_putting();
    if (pending_ == cap_) write_pending();
    ++pending_;
    if (unbuf_ || (line_ && c == '\n')) write_pending();
  }

  void default_xsputn(std::string_view s) {
    while (!s.empty()) {
      std::size_t space = std::min(write_space(), s.size());
      pending_ += space;
      s.remove_prefix(space);
      if (s.empty()) break;
      overflow(s.front());
      s.remove_prefix(1);
    }
  }

  bool unbuf_;
  bool tty_;
  std::size_t blksize_;
  emitter emit_;
  bool line_ = false;
  bool has_buf_ = false;
  bool putting_ = false;
  std::size_t cap_ = 0;
  std::size_t pending_ = 0;
};

/// musl 1.2: __fwritex, __overflow, __stdio_write (one writev of the
/// buffer and the new bytes), __stdout_write (the tty test at the first
/// write), setvbuf (UNGET bytes of a given buffer are not used).
class musl_file final : public c_file {
 public:
  musl_file(bool is_stdout, bool tty, emitter emit)
      : buf_size_(is_stdout ? musl_bufsiz : 0),
        lbf_(is_stdout ? '\n' : -1),
        stdout_first_(is_stdout),
        tty_(tty),
        emit_(std::move(emit)) {}

  void fwrite(std::string_view s) override {
    if (!wend_) towrite();
    if (s.size() > buf_size_ - pending_) {
      write(s.size());
      return;
    }
    if (lbf_ >= 0) {
      auto nl = s.rfind('\n');
      if (nl != std::string_view::npos) {
        write(nl + 1);
        s.remove_prefix(nl + 1);
      }
    }
    pending_ += s.size();
  }

  void putc(char c) override {
    if (static_cast<unsigned char>(c) != lbf_ && wend_ && pending_ < buf_size_) {
      ++pending_;
      return;
    }
    if (!wend_) towrite();
    if (pending_ < buf_size_ && static_cast<unsigned char>(c) != lbf_) {
      ++pending_;
      return;
    }
    write(1);
  }

  void printf(std::string_view s) override {
    if (buf_size_ != 0) {
      fwrite(s);
      return;
    }
    // vfprintf on an unbuffered FILE: an 80-byte buffer of its own, then
    // f->write(f, 0, 0), which makes a call even with nothing to write.
    const std::size_t saved = buf_size_;
    buf_size_ = 80;
    wend_ = false;
    fwrite(s);
    write(0);
    buf_size_ = saved;
    wend_ = false;
  }

  void fflush() override {
    if (pending_ > 0) write(0);
  }

  void setvbuf(int mode, std::size_t size) override {
    lbf_ = -1;
    if (mode == FC_BUF_NONE) {
      buf_size_ = 0;
    } else {
      if (size >= musl_unget) buf_size_ = size - musl_unget;
      if (mode == FC_BUF_LINE && buf_size_ != 0) lbf_ = '\n';
    }
    svb_ = true;
  }

 private:
  void towrite() {
    wend_ = true;
    pending_ = 0;
  }

  /// f->write(f, s, len): one writev of the buffer and len new bytes.
  void write(std::size_t len) {
    if (stdout_first_) {
      stdout_first_ = false;
      if (!svb_ && !tty_) lbf_ = -1;
    }
    const std::size_t k = pending_ + len;
    pending_ = 0;
    wend_ = true;
    emit_(k);
  }

  std::size_t buf_size_;
  int lbf_;
  bool stdout_first_;
  bool tty_;
  emitter emit_;
  bool svb_ = false;
  bool wend_ = false;
  std::size_t pending_ = 0;
};

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
    const sink_kind err_sink = setup.stderr_sink.value_or(setup.stdout_sink);
    out_ = make_file(true, setup.stdout_sink, channel::c_out);
    err_ = make_file(false, err_sink, channel::c_err);
  }

  prediction run(const kill_plan& cut) {
    cut_ = cut;
    validate();
    prediction p;
    try {
      for (op_ = 0; op_ < static_cast<int>(script_.ops.size()); ++op_) {
        const fc_op& op = script_.ops[op_];
        if (op.kind == FC_MARKER) {
          ++markers_;
          if (cut_.when == kill_plan::when_kind::marker && markers_ == cut_.n) throw cut_reached{};
        }
        if (end_op(op, p)) {
          finish(p);
          return p;
        }
        step(op);
      }
      op_ = static_cast<int>(script_.ops.size());
      exit_flush();
      p.status = wait_status::exited(0);
      p.exit_code_known = !fails_writes();
      finish(p);
    } catch (const cut_reached&) {
      p.kill_delivered = true;
      p.status = wait_status::signaled(cut_.signal);
      finish(p);
    }
    return p;
  }

 private:
  struct cut_reached {};

  std::unique_ptr<c_file> make_file(bool is_stdout, sink_kind k, channel ch) {
    emitter e = [this, ch](std::size_t n) { emit(ch, n); };
    if (setup_.profile.libc == libc_impl::musl)
      return std::make_unique<musl_file>(is_stdout, is_tty(k), e);
    return std::make_unique<glibc_file>(!is_stdout, is_tty(k), blksize(k), e);
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
    return setup_.stdout_sink == sink_kind::full ||
           setup_.stderr_sink.value_or(setup_.stdout_sink) == sink_kind::full;
  }

  void validate() {
    std::array<bool, 2> wrote{};
    for (std::size_t i = 0; i < script_.ops.size(); ++i) {
      const auto& op = script_.ops[i];
      if (op.kind == FC_CLOSE) throw usage_error("the model does not cover 'close'");
      if (op.kind == FC_SYNC && i != 0)
        throw usage_error("the model covers sync_with_stdio only as the first op");
      if (op.kind == FC_SETVBUF && wrote[op.stream == FC_ERR])
        throw usage_error("setvbuf after output on that stream is undefined (ISO C 7.21.5.3)");
      if (is_output_op(op) || op.kind == FC_FLUSH) {
        wrote[0] = wrote[0] || op.stream != FC_ERR;  // C++ streams reach both
        wrote[1] = wrote[1] || op.stream != FC_OUT;
      }
    }
  }

  // -- calls ---------------------------------------------------------------

  void emit(channel ch, std::size_t n) {
    if (cut_.needs_tracer() && dest_of(ch) == 0) {
      ++dest0_calls_;
      if (cut_.when == kill_plan::when_kind::write && dest0_calls_ == cut_.n) throw cut_reached{};
    }
    const auto c = static_cast<std::size_t>(ch);
    calls_.push_back({ch, delivered_[c], delivered_[c] + n, op_});
    delivered_[c] += n;
    if (cut_.when == kill_plan::when_kind::after_write && dest_of(ch) == 0 &&
        dest0_calls_ == cut_.n)
      throw cut_reached{};
  }

  // -- ops -----------------------------------------------------------------

  std::string payload(std::size_t n, bool newline) const {
    std::string s(n, fc_payload_char(op_));
    if (newline) s += '\n';
    return s;
  }

  void give(channel ch, const std::string& bytes) { meant_[static_cast<std::size_t>(ch)] += bytes; }

  bool cxx() const { return setup_.language == lang::cxx; }
  bool loose() const { return cxx() && !synced_ && setup_.profile.cxxlib == cxx_impl::libstdcxx; }

  /// The op ends the program: record the status and what flushes first.
  bool end_op(const fc_op& op, prediction& p) {
    switch (op.kind) {
      case FC_EXIT:
      case FC_RETURN:
        exit_flush();
        p.status = wait_status::exited(static_cast<int>(op.n));
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
      // reach the FILE as one byte; put is what tells putc from fwrite.
      case FC_NEWLINE: output(op, "\n", cxx()); break;
      case FC_PUTC: output(op, payload(op.n, false), true); break;
      case FC_ENDL:
        output(op, "\n", true);
        cxx_flush(op.stream);
        break;
      case FC_PRINTF:
      case FC_FPUTS: c_output(op.kind, op.stream, payload(op.n, false)); break;
      case FC_FLUSH: flush_op(op); break;
      case FC_SETVBUF: (op.stream == FC_ERR ? err_ : out_)->setvbuf(op.mode, op.n); break;
      case FC_SYNC: synced_ = op.n != 0; break;
      case FC_TIE:
        if (op.stream == FC_IN) cin_tied_ = op.n != 0;
        if (op.stream == FC_ERR) cerr_tied_ = op.n != 0;
        if (op.stream == FC_LOG) clog_tied_ = op.n != 0;
        break;
      case FC_UNITBUF: unitbuf_[stream_index(op.stream)] = op.n != 0; break;
      case FC_IGNORE:  // signal() refuses SIGKILL and SIGSTOP (EINVAL)
        if (op.n != SIGKILL && op.n != SIGSTOP) ignored_[static_cast<std::size_t>(op.n)] = true;
        break;
      case FC_READ:
      case FC_GETLINE:
        if (cxx() && cin_tied_) cout_flush();
        break;
      default: break;  // marker, sleep, a raise of an ignored signal
    }
  }

  static int stream_index(fc_stream s) { return s == FC_ERR ? 1 : s == FC_LOG ? 2 : 0; }

  /// C stdio output of one op (C, or printf/fputs from C++).
  void c_output(fc_op_kind kind, fc_stream s, const std::string& bytes) {
    const channel ch = s == FC_ERR ? channel::c_err : channel::c_out;
    give(ch, bytes);
    c_file& f = s == FC_ERR ? *err_ : *out_;
    if (kind == FC_PRINTF)
      f.printf(bytes);
    else
      f.fwrite(bytes);
  }

  /// write/line/newline/putc/endl's newline: C stdio in C, an ostream in C++.
  void output(const fc_op& op, const std::string& bytes, bool per_char) {
    if (!cxx()) {
      const channel ch = op.stream == FC_ERR ? channel::c_err : channel::c_out;
      give(ch, bytes);
      c_file& f = op.stream == FC_ERR ? *err_ : *out_;
      if (per_char)
        for (char c : bytes) f.putc(c);
      else
        f.fwrite(bytes);
      return;
    }
    // C++: each put() and each write() is one unformatted output function:
    // sentry (flushes tie()), the bytes, then unitbuf's flush ([ostream]).
    const auto pieces = per_char ? bytes.size() : std::size_t{1};
    for (std::size_t i = 0; i < pieces; ++i) {
      sentry(op.stream);
      std::string piece = per_char ? bytes.substr(i, 1) : bytes;
      if (loose()) {
        give(cxx_channel(op.stream), piece);
        loose_[loose_index(op.stream)].output(piece.size());
      } else {
        // stdio_sync_filebuf (libstdc++) / __stdoutbuf (libc++): xsputn is
        // fwrite; overflow is putc in libstdc++ but a one-byte fwrite in
        // libc++, which differs where glibc's first fwrite into a small
        // setvbuf buffer goes straight to write(2).
        const channel ch = op.stream == FC_OUT ? channel::c_out : channel::c_err;
        give(ch, piece);
        c_file& f = op.stream == FC_OUT ? *out_ : *err_;
        if (per_char && setup_.profile.cxxlib == cxx_impl::libstdcxx)
          f.putc(piece[0]);
        else
          f.fwrite(piece);
      }
      if (unitbuf_[stream_index(op.stream)]) pubsync(op.stream);
    }
  }

  /// libstdc++'s own buffers after sync_with_stdio(false): cout's, and
  /// cerr's, which clog shares.
  static int loose_index(fc_stream s) { return s == FC_OUT ? 0 : 1; }
  static channel cxx_channel(fc_stream s) {
    return s == FC_OUT ? channel::cxx_out : channel::cxx_err;
  }

  void sentry(fc_stream s) {
    if ((s == FC_ERR && cerr_tied_) || (s == FC_LOG && clog_tied_)) cout_flush();
  }

  void pubsync(fc_stream s) {
    if (loose()) {
      loose_[loose_index(s)].flush();
      return;
    }
    (s == FC_OUT ? *out_ : *err_).fflush();
  }

  /// ostream::flush(): a sentry, then pubsync (LWG 581).
  void cxx_flush(fc_stream s) {
    sentry(s);
    pubsync(s);
  }
  void cout_flush() { cxx_flush(FC_OUT); }

  void flush_op(const fc_op& op) {
    if (!cxx()) {
      if (op.stream == FC_ALL) {
        all_c_flush();
      } else {
        (op.stream == FC_ERR ? *err_ : *out_).fflush();
      }
      return;
    }
    if (op.stream == FC_ALL) {  // iostream_script: cout, cerr, clog, fflush(NULL)
      cxx_flush(FC_OUT);
      cxx_flush(FC_ERR);
      cxx_flush(FC_LOG);
      all_c_flush();
      return;
    }
    cxx_flush(op.stream);
  }

  /// fflush(NULL) and exit's flush: glibc walks _IO_list_all (stderr,
  /// stdout); musl flushes stdout, then stderr.
  void all_c_flush() {
    if (setup_.profile.libc == libc_impl::musl) {
      out_->fflush();
      err_->fflush();
    } else {
      err_->fflush();
      out_->fflush();
    }
  }

  /// exit(): the C++ runtime's ios_base::Init destructor flushes cout, cerr
  /// and clog; then stdio flushes every FILE.
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
    p.meant = full_meant();
    p.calls = calls_;
    for (std::size_t c = 0; c < channel_count; ++c) p.bounds[c] = {delivered_[c], delivered_[c]};
    std::array<long, 2> exact_calls{};
    for (const auto& call : calls_) {
      const int d = dest_of(call.ch);
      ++exact_calls[d];
      p.data[d] +=
          p.meant[static_cast<std::size_t>(call.ch)].substr(call.from, call.to - call.from);
    }
    // write:N stops the N-th call at its entry: the tracer saw it, no byte moved.
    if (p.kill_delivered && cut_.when == kill_plan::when_kind::write) ++exact_calls[0];
    for (int d = 0; d < 2; ++d) p.writes[d] = {exact_calls[d], exact_calls[d]};
    for (int i = 0; i < 2; ++i) {
      const auto& b = loose_[i];
      if (b.ops == 0 && b.given == 0) continue;
      const auto ch = static_cast<std::size_t>(cxx_channel(i == 0 ? FC_OUT : FC_ERR));
      p.bounds[ch] = {b.flushed, b.given};
      p.writes[dest_of(static_cast<channel>(ch))].first += b.flushed > 0 ? 1 : 0;
      p.writes[dest_of(static_cast<channel>(ch))].second += b.calls_hi;
      p.exact = false;
    }
    if (!p.exact)
      p.notes.push_back(
          "libstdc++ after sync_with_stdio(false): the model does not port stdio_filebuf's "
          "flushes, so its streams' MAY is all they were given and their calls are a range");
    if (fails_writes()) {
      const long ops = static_cast<long>(script_.ops.size()) + 1;
      for (int d = 0; d < 2; ++d)
        if (dest_sink(d) == sink_kind::full) p.writes[d].first = 0;
      for (int d = 0; d < 2; ++d) p.writes[d].second += ops;  // + the target's error reports
      p.notes.push_back(
          "/dev/full: every write fails; a failed write can end a putc loop and musl's printf "
          "writes nothing after an error, so the calls are a range and each op may report once "
          "on stderr");
      p.exit_code_known = false;
    }
    if (p.runtime_message) {
      // The terminate handler writes through C's stderr: with a buffered
      // stderr that may push out (or strand) what was pending there.
      auto& e = p.bounds[static_cast<std::size_t>(channel::c_err)];
      e.may = meant_[static_cast<std::size_t>(channel::c_err)].size();
      if (e.may != e.must) p.exact = false;
      p.writes[merged() ? 0 : 1].second += 16;
    }
    if (merged()) p.writes[1] = {0, 0};
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
  std::array<std::size_t, channel_count> delivered_{};
  std::array<loose_buffer, 2> loose_{};
  std::vector<model_call> calls_;
  int op_ = 0;
  long markers_ = 0;
  long dest0_calls_ = 0;
  bool synced_ = true;
  bool cin_tied_ = true;
  std::bitset<65> ignored_;  // "ignore SIG": a later "raise SIG" does nothing
  bool cerr_tied_ = true;
  bool clog_tied_ = false;
  std::array<bool, 3> unitbuf_{false, true, false};
  bool finishing_ = false;
};

}  // namespace

std::string prediction::describe() const {
  std::string out;
  for (std::size_t c = 0; c < channel_count; ++c) {
    if (meant[c].empty()) continue;
    const auto& b = bounds[c];
    out += std::string(to_string(static_cast<channel>(c))) + ": MUST " +
           printable(meant[c].substr(0, b.must), 240) + " (" + std::to_string(b.must) +
           " bytes), MAY " +
           (b.may == b.must
                ? std::string("the same")
                : printable(meant[c].substr(0, b.may), 240) + " (" + std::to_string(b.may) + ")") +
           ", of " + std::to_string(meant[c].size()) + " given\n";
  }
  out += "write calls: stdout's destination " + std::to_string(writes[0].first) +
         (writes[0].second != writes[0].first ? ".." + std::to_string(writes[0].second) : "") +
         ", stderr's " + std::to_string(writes[1].first) +
         (writes[1].second != writes[1].first ? ".." + std::to_string(writes[1].second) : "") +
         "\n";
  for (const auto& n : notes) out += "note: " + n + "\n";
  return out;
}

prediction predict(const model_setup& setup, const script& s, const kill_plan& cut) {
  simulation sim(setup, s);
  return sim.run(cut);
}

}  // namespace flushcheck
