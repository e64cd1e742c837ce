// iostream_script: interprets a flushcheck script with C++ iostreams
// (docs/script.md). out/err/log are cout/cerr/clog; printf and fputs go
// through C stdio, so scripts can mix the two.
#include <unistd.h>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <stdexcept>
#include <string>

#include "fd_ops.h"
#include "flushcheck/marker.h"
#include "script.h"

namespace {

std::ostream& stream_of(fc_stream s) {
  if (s == FC_ERR) return std::cerr;
  if (s == FC_LOG) return std::clog;
  return std::cout;
}

std::FILE* c_stream_of(fc_stream s) { return s == FC_ERR ? stderr : stdout; }

// "clear off": a stream that went bad stays bad, as in a program that never
// calls clear(); later output to it is refused by its sentry.
bool g_clear = true;

// Reports a stream that went bad during op INDEX, and clears it so later ops
// run (unless "clear off").
void check(int index, const fc_op& op, std::ostream& os, const char* call) {
  if (os) return;
  fc_report(index, &op, call, errno != 0 ? errno : EIO);
  if (g_clear) os.clear();
}

// putc: the N bytes of BUF in N calls of ostream::put, until OS goes bad.
void put_each(int index, const fc_op& op, std::ostream& os, const char* buf, std::streamsize n) {
  for (std::streamsize i = 0; i < n && os; ++i) os.put(buf[i]);
  check(index, op, os, "ostream::put");
}

// BUF, its WANT bytes (the payload and any newline; putc has none), on OS or
// C's stream by the op's own call.
void put_payload(int index, const fc_op& op, std::ostream& os, const char* buf,
                 std::streamsize want) {
  switch (op.kind) {
    case FC_PRINTF:
      if (std::printf("%s", buf) < 0) fc_report(index, &op, "printf", errno);
      break;
    case FC_FPUTS:
      if (std::fputs(buf, c_stream_of(op.stream)) == EOF) fc_report(index, &op, "fputs", errno);
      break;
    case FC_PUTC: put_each(index, op, os, buf, want); break;
    default: os.write(buf, want); check(index, op, os, "ostream::write");
  }
}

void put_bytes(int index, const fc_op& op, long n, bool newline) {
  char* buf = fc_payload(index, n, newline ? 1 : 0);
  const std::streamsize want = n + (newline ? 1 : 0);
  std::ostream& os = stream_of(op.stream);
  errno = 0;
  put_payload(index, op, os, buf, want);
  std::free(buf);
}

void flush(int index, const fc_op& op) {
  errno = 0;
  if (op.stream != FC_ALL) {
    stream_of(op.stream).flush();
    check(index, op, stream_of(op.stream), "ostream::flush");
    return;
  }
  for (fc_stream s : {FC_OUT, FC_ERR, FC_LOG}) {
    stream_of(s).flush();
    check(index, op, stream_of(s), "ostream::flush");
  }
  if (std::fflush(nullptr) == EOF) fc_report(index, &op, "fflush", errno);
}

void do_setvbuf(int index, const fc_op& op) {
  static const int modes[] = {_IOFBF, _IOLBF, _IONBF};
  // The buffer must outlive the stream: it is never freed.
  char* buf = op.n > 0 && op.mode != FC_BUF_NONE ? static_cast<char*>(std::malloc(op.n)) : nullptr;
  errno = 0;
  if (std::setvbuf(c_stream_of(op.stream), buf, modes[op.mode], op.n) != 0)
    fc_report(index, &op, "setvbuf", errno != 0 ? errno : EINVAL);
}

void do_read(int index, const fc_op& op) {
  if (op.kind == FC_GETLINE) {
    std::string line;
    std::getline(std::cin, line);
  } else {
    std::string buf(op.n, '\0');
    std::cin.read(buf.data(), op.n);
  }
  if (std::cin.bad()) fc_report(index, &op, "istream::read", errno != 0 ? errno : EIO);
  std::cin.clear();
}

void tie(const fc_op& op) {
  std::ostream* to = op.n ? &std::cout : nullptr;
  if (op.stream == FC_IN)
    std::cin.tie(to);
  else
    stream_of(op.stream).tie(to);
}

void put_newline(int index, const fc_op& op) {
  stream_of(op.stream) << '\n';
  check(index, op, stream_of(op.stream), "operator<<");
}

void put_endl(int index, const fc_op& op) {
  errno = 0;
#ifdef FC_BUG_ENDL_NO_FLUSH  // injected bug (tests only): endl without its flush
  stream_of(op.stream) << '\n';
  return;
#endif
  stream_of(op.stream) << std::endl;
  check(index, op, stream_of(op.stream), "std::endl");
}

void set_unitbuf(const fc_op& op) {
  if (op.n)
    stream_of(op.stream) << std::unitbuf;
  else
    stream_of(op.stream) << std::nounitbuf;
}

void do_close(int index, const fc_op& op) {
  errno = 0;
  if (std::fclose(c_stream_of(op.stream)) == EOF) fc_report(index, &op, "fclose", errno);
}

// Runs op INDEX; returns true when the op is "return from main" (code in rc).
bool run_op(int index, const fc_op& op, int& rc) {
  switch (op.kind) {
    case FC_WRITE:
    case FC_PUTC:
    case FC_PRINTF:
    case FC_FPUTS: put_bytes(index, op, op.n, false); break;
    case FC_LINE: put_bytes(index, op, op.n, true); break;
    case FC_NEWLINE: put_newline(index, op); break;
    case FC_ENDL: put_endl(index, op); break;
    case FC_FLUSH: flush(index, op); break;
    case FC_SETVBUF: do_setvbuf(index, op); break;
    case FC_SYNC: std::ios::sync_with_stdio(op.n != 0); break;
    case FC_TIE: tie(op); break;
    case FC_UNITBUF: set_unitbuf(op); break;
    case FC_READ:
    case FC_GETLINE: do_read(index, op); break;
    case FC_MARKER: flushcheck_marker(op.label); break;
    case FC_SLEEP: fc_sleep_ms(op.n); break;
    case FC_CLOSE: do_close(index, op); break;
    case FC_EXIT: std::exit(static_cast<int>(op.n));
    case FC_UEXIT: _exit(static_cast<int>(op.n));
    case FC_QUICK_EXIT: std::quick_exit(static_cast<int>(op.n));
    case FC_ABORT: std::abort();
    case FC_RETURN: rc = static_cast<int>(op.n); return true;
    case FC_RAISE: std::raise(static_cast<int>(op.n)); break;
    case FC_IGNORE: std::signal(static_cast<int>(op.n), SIG_IGN); break;
    case FC_CLEAR: g_clear = op.n != 0; break;
    case FC_FORK: fc_fork(index, &op); break;
    case FC_THREADS: break;  // run_ops starts them
    case FC_BARRIER: fc_barrier(); break;
    case FC_CRASH: fc_crash(); break;
    case FC_THROW: throw std::runtime_error("iostream_script: uncaught by design");
    default:
      if (!fc_run_fd_op(index, &op)) fc_run_c_stream_op(index, &op);
  }
  return false;
}

fc_script g_script{};

void run_rest(int from);

// Runs ops FROM.. to the end; true when one returned from main (code in rc).
// "threads N" starts N-1 threads that run the ops after it too.
bool run_ops(int from, int& rc) {
  for (int i = from; i < g_script.count; ++i) {
    const fc_op& op = g_script.ops[i];
    if (op.kind == FC_THREADS) {
      fc_start_threads(i, &op, run_rest);
      continue;
    }
    if (run_op(i, op, rc)) return true;
  }
  return false;
}

// A thread's part: "return" ends the thread, not the program.
void run_rest(int from) {
  int rc = 0;
  run_ops(from, rc);
}

// --version's second line: "cxxlib=libstdc++ 12 (20220819)".
void print_cxxlib() {
#if defined(_LIBCPP_VERSION) && _LIBCPP_VERSION >= 160000  // MMmmpp from LLVM 16 on
  std::printf("cxxlib=libc++ %d.%d.%d\n", _LIBCPP_VERSION / 10000, _LIBCPP_VERSION / 100 % 100,
              _LIBCPP_VERSION % 100);
#elif defined(_LIBCPP_VERSION)  // MM000 up to LLVM 15: the major release only
  std::printf("cxxlib=libc++ %d\n", _LIBCPP_VERSION / 1000);
#elif defined(__GLIBCXX__)      // the GCC release, and the date of its libstdc++
  std::printf("cxxlib=libstdc++ %d (%d)\n", _GLIBCXX_RELEASE, __GLIBCXX__);
#else
  std::printf("cxxlib=unknown\n");
#endif
}

// Runs SCRIPT from its first op; main's exit code.
int run_script(const fc_script& script) {
  int rc = 0;
  flushcheck_marker_init();
#ifdef FC_BUG_CERR_UNTIED  // injected bug (tests only): cerr no longer flushes cout
  std::cerr.tie(nullptr);
#endif
  g_script = script;
  const bool returned = run_ops(0, rc);
  fc_join_threads();
  if (returned) return rc;
  return fc_io_error ? FC_EXIT_IO_ERROR : 0;
}

}  // namespace

int main(int argc, char** argv) {
  fc_script script{};
  int rc = 0;
  fc_program_name = "iostream_script";
  if ((rc = fc_load(argc, argv, &script)) < 0) {  // --version
    fc_print_libc();
    print_cxxlib();
    return 0;
  }
  if (rc != 0) return rc;
  return run_script(script);
}
