#pragma once
// The C FILEs of the reference model (docs/model.md): ports of glibc's libio
// and musl's stdio reduced to what decides write calls and what a failed or
// short call does to the bytes they hold. model.cpp drives them.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace flushcheck::detail {

/// One write-family call of BYTES (the oldest bytes the FILE has not written;
/// may be empty: musl's empty writev). Returns what the kernel returned:
/// how many bytes it took (all, or fewer: a short write) or -1 (it failed).
using write_call = std::function<long(std::string_view bytes)>;

/// A C FILE. Each call returns what the libc function returns to its
/// caller, which is what a program (and the targets' error reports) sees.
class c_file {
 public:
  /// glibc's _IO_sputn returns EOF for "all of it went into the buffer,
  /// but flushing the buffer failed" (libio/fileops.c, _IO_new_file_xsputn).
  static constexpr std::size_t eof = SIZE_MAX;

  virtual ~c_file() = default;
  /// The bytes the FILE took (_IO_sputn / __fwritex), or eof.
  virtual std::size_t sputn(std::string_view data) = 0;
  /// putc: false for EOF.
  virtual bool putc(char c) = 0;
  /// printf("%s", DATA): false for a negative return.
  virtual bool printf(std::string_view data) { return sputn(data) == data.size(); }
  /// fflush: false for EOF.
  virtual bool fflush() = 0;
  virtual void setvbuf(int mode, std::size_t size) = 0;
  /// The bytes it holds, not yet written.
  virtual std::string_view pending() const = 0;

  /// fwrite: up to glibc 2.41, iofwrite.c counts an EOF from _IO_sputn as
  /// all written ("the data is in the buffer"), though the failed flush
  /// dropped it (the glibc port overrides this from 2.42).
  virtual bool fwrite(std::string_view data) {
    const std::size_t n = sputn(data);
    return n == data.size() || n == eof;
  }
  /// fputs: all of it, or EOF.
  bool fputs(std::string_view data) { return sputn(data) == data.size(); }
};

/// What a glibc release changed in the ported code (docs/model.md).
struct glibc_release_rules {
  /// 2.37: printf through a 128-byte stage (stdio-common/printf_buffer_to_file.c).
  bool staged_printf = false;
  /// 2.42: fwrite returns short when the flush in it failed (BZ #29459).
  bool fwrite_reports_failed_flush = false;
  /// The rules of RELEASE ({} is unknown: 2.36's).
  static glibc_release_rules of(int major, int minor);
};

/// glibc: stdout (UNBUFFERED false) or stderr (true), on a tty or not,
/// with the sink's st_blksize, as the release of RULES behaves.
std::unique_ptr<c_file> make_glibc_file(bool unbuffered, bool tty, std::size_t blksize,
                                        glibc_release_rules rules, write_call call);
/// musl 1.2: stdout or stderr, on a tty or not.
std::unique_ptr<c_file> make_musl_file(bool is_stdout, bool tty, write_call call);

}  // namespace flushcheck::detail
