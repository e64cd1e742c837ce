// glibc 2.36's libio reduced to what decides write calls and what a failed
// call does: _IO_new_file_xsputn, _IO_new_file_overflow, new_do_write,
// _IO_new_file_write and _IO_new_file_sync (libio/fileops.c),
// _IO_default_xsputn (genops.c), _IO_file_doallocate (filedoalloc.c),
// _IO_setvbuf (iosetvbuf.c); printf as glibc 2.37 rewrote it
// (stdio-common/printf_buffer_to_file.c, commit e88b9f0e5c); fwrite's
// return after a failed flush as 2.42 changed it (libio/iofwrite.c, commit
// 596a61cf6b, BZ #29459).
#include <algorithm>

#include "model_file.hpp"
#include "profile.hpp"
#include "script.hpp"

namespace flushcheck::detail {
namespace {

/// PRINTF_BUFFER_SIZE_TO_FILE_STAGE (glibc 2.37, include/printf_buffer.h)
constexpr std::size_t printf_stage = 128;

class glibc_file final : public c_file {
 public:
  glibc_file(bool unbuffered, bool tty, std::size_t blksize, glibc_release_rules rules,
             write_call call)
      : unbuf_(unbuffered), tty_(tty), rules_(rules), blksize_(blksize), call_(std::move(call)) {}

  /// _IO_new_file_xsputn: fill the buffer (line buffered: up to the last
  /// newline when all of it fits), flush it, then the rest. A failed flush
  /// ends it: what it had put in the buffer went with the buffer, the rest
  /// is not taken.
  std::size_t sputn(std::string_view s) override {
    const std::size_t n = s.size();
    if (n == 0) return 0;
    const auto [count, must_flush] = first_fill(s);
    buf_.append(s.substr(0, count));
    s.remove_prefix(count);
    if (s.empty() && !must_flush) return n;
    if (!overflow_eof()) return s.empty() ? eof : n - s.size();
    return n - s.size() + write_rest(s);
  }

  /// glibc 2.36 and earlier: _IO_sputn of it all. 2.37 and later
  /// (__printf_buffer_to_file_switch and _flush_to_file): straight into the
  /// FILE's buffer while it has room (fully buffered, putting), a full
  /// buffer out by __overflow with the next byte; else through a 128-byte
  /// stage, one _IO_sputn per stage. So a line-buffered or unbuffered stream
  /// takes a long printf 128 bytes at a time.
  bool printf(std::string_view s) override {
    if (!rules_.staged_printf) return sputn(s) == s.size();
    while (!s.empty()) {
      if (const std::size_t room = std::min(write_space(), s.size()); room > 0) {
        buf_.append(s.substr(0, room));
        s.remove_prefix(room);
        if (s.empty()) break;
        if (!overflow(s.front())) return false;  // the one-byte stage
        s.remove_prefix(1);
        continue;
      }
      const std::size_t n = std::min(printf_stage, s.size());
      if (sputn(s.substr(0, n)) != n) return false;
      s.remove_prefix(n);
    }
    return true;
  }

  /// _IO_fwrite from 2.42: an EOF from _IO_sputn (the flush failed) is
  /// short, whatever the kernel took of this call's bytes.
  bool fwrite(std::string_view data) override {
    if (!rules_.fwrite_reports_failed_flush) return c_file::fwrite(data);
    return sputn(data) == data.size();
  }

  bool putc(char c) override {
    if (write_space() == 0) return overflow(c);
    buf_ += c;
    return true;
  }

  bool fflush() override { return !putting_ || write_buffer(); }

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
    set_buffer(size);
  }

  std::string_view pending() const override { return buf_; }

 private:
  /// How much of S _IO_new_file_xsputn puts into the buffer before any flush.
  struct fill {
    std::size_t count;
    bool must_flush;  ///< line buffered and all of S fits: the buffer goes out after
  };

  /// Line buffered (and putting): what fits, or when all of S fits, up to its
  /// last newline, then a flush. Else what fits of the free space.
  fill first_fill(std::string_view s) const {
    const std::size_t n = s.size();
    bool must_flush = false;
    std::size_t count = write_space();
    if (line_ && putting_) {
      count = cap_ - buf_.size();
      const auto nl = s.rfind('\n');
      if (count >= n && nl != std::string_view::npos) {
        count = nl + 1;
        must_flush = true;
      }
    }
    return {std::min(count, n), must_flush};
  }

  /// _IO_default_setbuf: sync, then the new buffer, write pointers reset.
  void set_buffer(std::size_t size) {
    fflush();
    unbuf_ = size == 0;
    cap_ = size == 0 ? 1 : size;  // _shortbuf
    has_buf_ = true;
    putting_ = false;
  }

  /// _IO_write_end - _IO_write_ptr: 0 until a write set the stream to
  /// putting, and always 0 when line buffered or unbuffered.
  std::size_t write_space() const {
    if (!putting_ || line_ || unbuf_) return 0;
    return cap_ - buf_.size();
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

  /// new_do_write over _IO_new_file_write: calls until all is written or
  /// one fails. A short write is followed by a call for the rest; a failure
  /// (EINTR and EAGAIN too) ends the loop. Returns the bytes written.
  std::size_t new_do_write(std::string_view s) {
    std::size_t done = 0;
    while (done < s.size()) {
      const long r = call_(s.substr(done));
      if (r <= 0) break;  // never 0 here: a short write takes at least one byte
      done += static_cast<std::size_t>(r);
    }
    return done;
  }

  /// _IO_do_write of the buffer. new_do_write resets the buffer's pointers
  /// whatever the call returned: a failed flush drops what it held.
  bool write_buffer() {
    if (buf_.empty()) return true;
    const std::string out = std::move(buf_);
    buf_.clear();
    return new_do_write(out) == out.size();
  }

  bool overflow_eof() {
    start_putting();
    return write_buffer();
  }

  /// _IO_new_file_overflow(C): a full buffer goes out first (C is not
  /// stored if that fails); then C, and the buffer when unbuffered or at a
  /// newline when line buffered.
  bool overflow(char c) {
    start_putting();
    if (buf_.size() == cap_ && !write_buffer()) return false;
    buf_ += c;
    if (unbuf_ || (line_ && c == '\n')) return write_buffer();
    return true;
  }

  /// After the buffer went out: whole blocks straight to write(2) (all of S
  /// when the buffer is under 128 bytes), the rest by _IO_default_xsputn.
  /// Returns the bytes taken.
  std::size_t write_rest(std::string_view s) {
    const std::size_t block = cap_;
    const std::size_t direct = s.size() - (block >= 128 ? s.size() % block : 0);
    if (direct > 0) {
      const std::size_t done = new_do_write(s.substr(0, direct));
      if (done < direct) return done;
      s.remove_prefix(direct);
    }
    return direct + default_xsputn(s);
  }

  /// _IO_default_xsputn: what fits, then one overflow per byte; stops at
  /// the first failed overflow.
  std::size_t default_xsputn(std::string_view s) {
    std::size_t i = 0;
    while (i < s.size()) {
      const std::size_t space = std::min(write_space(), s.size() - i);
      buf_.append(s.substr(i, space));
      i += space;
      if (i == s.size() || !overflow(s[i])) break;
      ++i;
    }
    return i;
  }

  bool unbuf_;
  bool tty_;
  glibc_release_rules rules_;
  std::size_t blksize_;
  write_call call_;
  bool line_ = false;
  bool has_buf_ = false;
  bool putting_ = false;
  std::size_t cap_ = 0;
  std::string buf_;
};

}  // namespace

glibc_release_rules glibc_release_rules::of(int major, int minor) {
  const auto from = [&](int min) { return major > 2 || (major == 2 && minor >= min); };
  return {from(37), from(42)};
}

std::unique_ptr<c_file> make_glibc_file(bool unbuffered, bool tty, std::size_t blksize,
                                        glibc_release_rules rules, write_call call) {
  return std::make_unique<glibc_file>(unbuffered, tty, blksize, rules, std::move(call));
}

}  // namespace flushcheck::detail
