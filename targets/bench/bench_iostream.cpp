// bench_iostream: times N lines of "123456789\n" written through a C++
// stream, each op ending its lines its own way, then the flush that ends them:
//   bench_iostream [--ofstream] [--unsync] [--unitbuf] [--untie] OP N [EVERY]
// The stream is std::cout, or with --ofstream a std::ofstream opened (default
// mode) on /proc/self/fd/1: the same sink as stdout, with its own filebuf.
// --unsync: std::ios::sync_with_stdio(false) before any stream is used;
// --unitbuf: stream << std::unitbuf; --untie: std::cin.tie(nullptr).
// OP: endl (<< std::endl), nl (<< '\n'), nl_flush (as nl, plus flush() after
// every EVERY-th line; EVERY > 0 only here), fprintf (std::fprintf(stdout,
// "%s\n", ...), then fflush), tied (cin.get() one byte of stdin before each
// line: stdin must hold N bytes). N > 0.
// The measured part is the loop plus the final flush. Writes one line to fd 2
// with one write(2): "bench ns=T bytes=B". Exit 0; 1 with the failed call on
// fd 2; 64 for bad arguments. Standard library + POSIX only: it is built
// against every C++ library of the matrix.
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string_view>

#include "bench_line.h"

namespace {

enum class op { endl, nl, nl_flush, fprintf, tied };

struct args {
  bool ofstream = false, unsync = false, unitbuf = false, untie = false;
  op what = op::nl;
  long long n = 0;
  long long every = 0;  // nl_flush only
};

constexpr long long k_line_len = 10;  // "123456789\n"

int usage(const char* why) {
  return bench_usage(
      "bench_iostream [--ofstream] [--unsync] [--unitbuf] [--untie] "
      "endl|nl|nl_flush|fprintf|tied N [EVERY]",
      why);
}

bool parse_flag(std::string_view s, args& a) {
  if (s == "--ofstream") return a.ofstream = true;
  if (s == "--unsync") return a.unsync = true;
  if (s == "--unitbuf") return a.unitbuf = true;
  if (s == "--untie") return a.untie = true;
  return false;
}

bool parse_op(std::string_view s, op& what) {
  static constexpr std::string_view names[] = {"endl", "nl", "nl_flush", "fprintf", "tied"};
  for (int i = 0; i < 5; ++i) {
    if (s != names[i]) continue;
    what = static_cast<op>(i);
    return true;
  }
  return false;
}

int parse_args(int argc, char** argv, args& a) {
  int i = 1;
  for (; i < argc && std::string_view(argv[i]).starts_with("--"); ++i)
    if (!parse_flag(argv[i], a)) return usage("unknown option");
  if (i >= argc || !parse_op(argv[i], a.what)) return usage("OP missing or unknown");
  if (++i >= argc || (a.n = bench_count(argv[i], 1, INT64_MAX / k_line_len)) < 0)
    return usage("N: a whole number > 0");
  ++i;
  if (a.what == op::nl_flush) {
    if (i >= argc || (a.every = bench_count(argv[i], 1, INT64_MAX)) < 0)
      return usage("nl_flush needs EVERY: a whole number > 0");
    ++i;
  }
  return i == argc ? 0 : usage("too many arguments");
}

int errno_or_eio() { return errno != 0 ? errno : EIO; }

// tied: cin.get() found no byte where the harness should have given one.
int stdin_ended(long long got, long long n) {
  if (std::cin.bad()) return bench_fail("reading stdin (std::cin.get)", errno_or_eio());
  return bench_error("stdin ended after %lld of the %lld bytes tied needs\n", got, n);
}

// The loops of run, one per op, each over the A.n lines.
void endl_lines(const args& a, std::ostream& os) {
  for (long long i = 0; i < a.n; ++i) os << "123456789" << std::endl;
}

void nl_lines(const args& a, std::ostream& os) {
  for (long long i = 0; i < a.n; ++i) os << "123456789" << '\n';
}

void nl_flush_lines(const args& a, std::ostream& os) {
  for (long long i = 1; i <= a.n; ++i) {
    os << "123456789" << '\n';
    if (i % a.every == 0) os.flush();
  }
}

// fprintf's lines through C stdio, then its fflush; 0, or the exit status of
// the failure (reported).
int fprintf_lines(const args& a) {
  for (long long i = 0; i < a.n; ++i)
    if (std::fprintf(stdout, "%s\n", "123456789") < 0) return bench_fail("fprintf", errno_or_eio());
  if (std::fflush(stdout) != 0) return bench_fail("fflush", errno_or_eio());
  return 0;
}

// tied's lines, each after one byte of stdin; 0, or the exit status of the
// failure (reported).
int tied_lines(const args& a, std::ostream& os) {
  for (long long i = 0; i < a.n; ++i) {
    if (std::cin.get() == std::char_traits<char>::eof()) return stdin_ended(i, a.n);
    os << "123456789" << '\n';
  }
  return 0;
}

// The loop of A.what on OS and the final flush; 0, or the exit status of the
// failure (reported). A stream gone bad is left to the caller.
int run(const args& a, std::ostream& os) {
  int rc = 0;
  switch (a.what) {
    case op::endl: endl_lines(a, os); break;
    case op::nl: nl_lines(a, os); break;
    case op::nl_flush: nl_flush_lines(a, os); break;
    case op::fprintf: rc = fprintf_lines(a); break;
    case op::tied: rc = tied_lines(a, os); break;
  }
  if (rc != 0) return rc;
  os.flush();
  return 0;
}

// The stream of A: std::cout, or FILE opened on /proc/self/fd/1 with
// --ofstream (nullptr, reported, when it cannot be); --unitbuf and --untie
// applied.
std::ostream* open_stream(const args& a, std::ofstream& file) {
  std::ostream* os = &std::cout;
  if (a.ofstream) {
    errno = 0;
    file.open("/proc/self/fd/1");
    if (!file) {
      bench_fail("opening /proc/self/fd/1", errno_or_eio());
      return nullptr;
    }
    os = &file;
  }
  if (a.unitbuf) *os << std::unitbuf;
  if (a.untie) std::cin.tie(nullptr);
  return os;
}

// The measured part, run() on OS, timed into NS; 0, or the exit status of the
// failure (reported).
int timed_run(const args& a, std::ostream& os, std::int64_t& ns) {
  errno = 0;
  std::int64_t start = bench_now_ns();
  if (int rc = run(a, os); rc != 0) return rc;
  std::int64_t end = bench_now_ns();
  ns = end - start;
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  args a;
  bench_line_init("bench_iostream");
  if (int rc = parse_args(argc, argv, a); rc != 0) return rc;
  if (a.unsync) std::ios::sync_with_stdio(false);  // before any stream is used
  std::ofstream file;
  std::ostream* os = open_stream(a, file);
  if (os == nullptr) return 1;
  std::int64_t ns = 0;
  if (int rc = timed_run(a, *os, ns); rc != 0) return rc;
  if (!*os) return bench_fail("writing to the stream", errno_or_eio());
  bench_line("bench ns=%lld bytes=%lld\n", static_cast<long long>(ns), a.n * k_line_len);
  return 0;
}
