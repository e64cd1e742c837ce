// musl 1.2's stdio reduced to what decides write calls and what a failed
// call does: __fwritex, __overflow, __towrite, fflush, setvbuf, vfprintf
// (src/stdio/), __stdio_write (one writev of the buffer and the new bytes,
// again for what a short write left) and __stdout_write (the tty test at
// stdout's first write).
#include "model_file.hpp"
#include "profile.hpp"
#include "script.hpp"

namespace flushcheck::detail {
namespace {

constexpr std::size_t musl_unget = 8;  // UNGET, taken from a setvbuf buffer

class musl_file final : public c_file {
 public:
  musl_file(bool is_stdout, bool tty, write_call call)
      : buf_size_(is_stdout ? musl_bufsiz : 0),
        lbf_(is_stdout ? '\n' : -1),
        stdout_first_(is_stdout),
        tty_(tty),
        call_(std::move(call)) {}

  /// __fwritex: more than fits goes out with the buffer in one writev;
  /// line buffered, the bytes up to the last newline do. After a failed
  /// write the rest is not taken.
  std::size_t sputn(std::string_view s) override {
    if (!wend_) towrite();
    if (s.size() > buf_size_ - buf_.size()) return write(s);
    std::size_t i = 0;
    const auto nl = s.rfind('\n');
    if (lbf_ >= 0 && nl != std::string_view::npos) {
      i = nl + 1;
      const std::size_t n = write(s.substr(0, i));
      if (n < i) return n;
      s.remove_prefix(i);
    }
    buf_.append(s);
    return s.size() + i;
  }

  /// putc_unlocked, then __overflow.
  bool putc(char c) override {
    const bool newline = static_cast<unsigned char>(c) == lbf_;
    if (!newline && wend_ && buf_.size() < buf_size_) {
      buf_ += c;
      return true;
    }
    if (!wend_) towrite();
    if (buf_.size() < buf_size_ && !newline) {
      buf_ += c;
      return true;
    }
    return write(std::string_view(&c, 1)) == 1;
  }

  /// vfprintf: fails when a write during it failed (F_ERR, cleared at its
  /// start and restored at its end). On an unbuffered FILE it uses an
  /// 80-byte buffer of its own and ends with f->write(f, 0, 0), a call
  /// even with nothing to write.
  bool printf(std::string_view s) override {
    const bool old_err = err_;
    err_ = false;
    if (buf_size_ != 0) {
      sputn(s);
    } else {
      buf_size_ = 80;
      wend_ = false;
      sputn(s);
      write({});
      buf_size_ = 0;
      wend_ = false;
    }
    const bool ok = !err_;
    err_ = err_ || old_err;
    return ok;
  }

  /// fflush: the buffer in one writev; EOF when it failed. Leaves write mode.
  bool fflush() override {
    bool ok = true;
    if (!buf_.empty()) {
      write({});
      ok = wend_;  // __stdio_write cleared wpos and wend on failure
    }
    wend_ = false;
    return ok;
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

  std::string_view pending() const override { return buf_; }

 private:
  void towrite() {
    wend_ = true;
    buf_.clear();
  }

  /// f->write(f, S, len). Returns the bytes of S written: all, or on
  /// failure those past the buffer's (the buffer is dropped, F_ERR set).
  std::size_t write(std::string_view s) {
    if (stdout_first_) {
      stdout_first_ = false;
      if (!svb_ && !tty_) lbf_ = -1;
    }
    const std::size_t held = buf_.size();
    std::string out = std::move(buf_);
    buf_.clear();
    out.append(s);
    std::size_t done = 0;
    for (;;) {
      const long r = call_(std::string_view(out).substr(done));
      if (r < 0 || (r == 0 && done < out.size())) {
        wend_ = false;
        err_ = true;
        return done > held ? done - held : 0;
      }
      done += static_cast<std::size_t>(r);
      if (done == out.size()) {
        wend_ = true;
        return s.size();
      }
    }
  }

  std::size_t buf_size_;
  int lbf_;
  bool stdout_first_;
  bool tty_;
  write_call call_;
  bool svb_ = false;
  bool wend_ = false;
  bool err_ = false;  ///< F_ERR
  std::string buf_;
};

}  // namespace

std::unique_ptr<c_file> make_musl_file(bool is_stdout, bool tty, write_call call) {
  return std::make_unique<musl_file>(is_stdout, tty, std::move(call));
}

}  // namespace flushcheck::detail
