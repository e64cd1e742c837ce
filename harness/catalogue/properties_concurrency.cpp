// Several writers at once: processes that share a sink (and, after fork,
// copies of the same stdio buffers).
#include <cstdint>

#include "checks.hpp"

namespace flushcheck::detail {
namespace {

/// How many times NEEDLE occurs in HAY (not overlapping).
std::size_t occurrences(const std::string& hay, const std::string& needle) {
  std::size_t n = 0;
  for (auto at = hay.find(needle); at != std::string::npos; at = hay.find(needle, at + 1)) ++n;
  return n;
}

/// A line buffered before fork() is in both processes' buffers; each
/// flushes its copy at exit. On a tty it went out at its newline. (The
/// first line goes first: musl writes stdout's first line at once.)
verdict fork_duplicates_unflushed_buffer(property_context& ctx) {
  auto obs = ctx.run("line 1; line 3; fork 2; exit 0");
  const std::size_t seen = occurrences(obs.out.data, payload(1, 3) + "\n");
  const std::size_t want = ctx.sink() == sink_kind::pty ? 1 : 2;
  verdict v = status_is(obs, wait_status::exited(0));
  v.pass = v.pass && seen == want;
  v.observed = "the line arrived " + std::to_string(seen) + (seen == 1 ? " time" : " times");
  v.explanation =
      "a line written before fork() and still buffered is written by both "
      "processes at exit (once on a tty, where it went out at its newline): " +
      v.observed + ", stdout " + show(obs.out.data);
  v.figures = {{"copies", static_cast<std::int64_t>(seen)}};
  return v;
}

/// THREADS threads each run OPS (";"-separated) COPIES times over; no
/// ending: main joins them, then returns (exit's flush).
std::string threaded(int threads, const std::string& ops, int copies) {
  std::string s = "threads " + std::to_string(threads);
  for (int i = 0; i < copies; ++i) s += "; " + ops;
  return s;
}

/// 4 threads, 25 lines of 100 bytes each, one fwrite (C) or one
/// ostream::write (C++) a line.
verdict threaded_lines(property_context& ctx, const char* call) {
  auto obs = ctx.run(threaded(4, "line 99", 25));
  const auto c = count_records(obs.out.data, {99});
  verdict v = status_is(obs, wait_status::exited(0));
  v.pass = v.pass && c.torn == 0 && c.whole == 100;
  v.observed = std::to_string(c.whole) + " whole, " + std::to_string(c.torn) + " torn";
  v.explanation =
      std::string("4 threads, 100 lines of 100 bytes, one ") + call + " each: " + v.observed;
  v.figures = {{"whole", static_cast<std::int64_t>(c.whole)},
               {"torn", static_cast<std::int64_t>(c.torn)}};
  return v;
}

verdict threads_fwrite_lines_whole(property_context& ctx) { return threaded_lines(ctx, "fwrite"); }

/// The sources of threads_cout_line_writes_whole: synced cout over a
/// locking stdio, in libstdc++ or libc++.
bool synced_cout_is_one_fwrite(const impl_profile& p) {
  return is_glibc_or_musl(p) && (p.cxxlib == cxx_impl::libstdcxx || p.cxxlib == cxx_impl::libcxx);
}

verdict threads_cout_line_writes_whole(property_context& ctx) {
  return threaded_lines(ctx, "cout.write");
}

/// Lines of 100 calls each (putc, cout.put, then the newline) from 8
/// threads, each pausing 1 ms halfway through a line: nothing makes a line
/// one unit. (Without the pause, lines of a few insertions tore in some
/// runs and not in others: the row would flap.)
verdict threads_piecewise_lines(property_context& ctx) {
  auto obs = ctx.run(threaded(8, "putc 50; sleep 1; putc 49; newline", 10));
  const auto c = count_records(obs.out.data, {50, 49});
  verdict v =
      record(c.torn > 0 ? "lines torn" : "none torn in this run",
             "8 threads, 80 lines of 99 one-byte calls and a newline: " + std::to_string(c.torn) +
                 " of " + std::to_string(c.whole + c.torn) + " torn");
  v.figures = {{"whole", static_cast<std::int64_t>(c.whole)},
               {"torn", static_cast<std::int64_t>(c.torn)}};
  return v;
}

/// 8 threads, 10 lines each of 50 and 49 putc_unlocked calls with a 1 ms
/// pause between the halves and a newline, inside flockfile/funlockfile
/// when LOCKED. Lines of 50 + 49 bytes of one letter each are whole.
struct unlocked_lines {
  record_count records;
  std::size_t bytes;
};

unlocked_lines run_unlocked_lines(property_context& ctx, bool locked) {
  const std::string line = "putc_unlocked 50; sleep 1; putc_unlocked 49; newline";
  auto obs = ctx.run(threaded(8, locked ? "lock out; " + line + "; unlock out" : line, 10));
  return {count_records(obs.out.data, {50, 49}), obs.out.bytes};
}

std::string describe(const unlocked_lines& u) {
  return std::to_string(u.records.whole) + " whole, " + std::to_string(u.records.torn) + " torn, " +
         std::to_string(u.bytes) + " of 8000 bytes";
}

verdict flockfile_keeps_a_line_whole(property_context& ctx) {
  const auto u = run_unlocked_lines(ctx, true);
  verdict v;
  v.pass = u.records.whole == 80 && u.records.torn == 0 && u.bytes == 8000;
  v.observed = describe(u);
  v.explanation =
      "8 threads, 80 lines of 99 putc_unlocked calls and a newline, each line "
      "between flockfile and funlockfile: " +
      v.observed;
  v.figures = {{"whole", static_cast<std::int64_t>(u.records.whole)},
               {"torn", static_cast<std::int64_t>(u.records.torn)}};
  return v;
}

/// Without the lock, the threads' calls go into the buffer in any order,
/// and its pointer is updated by several threads at once: bytes may be lost
/// or doubled too (the figures say; the cell says only whether lines tore).
verdict threads_unlocked_calls(property_context& ctx) {
  const auto u = run_unlocked_lines(ctx, false);
  verdict v = record(
      u.records.torn > 0 ? "lines torn" : "none torn in this run",
      "8 threads, 80 lines of 99 putc_unlocked calls and a newline, no lock: " + describe(u));
  v.figures = {{"whole", static_cast<std::int64_t>(u.records.whole)},
               {"torn", static_cast<std::int64_t>(u.records.torn)},
               {"bytes", static_cast<std::int64_t>(u.bytes)}};
  return v;
}

/// The rows of fork's copied buffers and of threads that share one FILE.
const property k_fork_and_thread_rows[] = {
    {.name = "concurrency.fork_duplicates_unflushed_buffer",
     .group = "concurrency",
     .level = tier::required,
     .source = "POSIX fork() (the child gets a copy of the parent's memory, its "
               "stdio buffers included); POSIX XSH 2.5.1 (flush a stream before "
               "another handle to the same file is used); ISO C 7.21.3p3 (when a "
               "fully or line buffered stream is written)",
     .claim = "a line still buffered at fork() arrives twice (pipe, file), once "
              "where it was already written (pty, line buffered)",
     .langs = both_langs,
     .sinks = all_sinks,
     .check = fork_duplicates_unflushed_buffer},
    {.name = "concurrency.threads_fwrite_lines_whole",
     .group = "concurrency",
     .level = tier::required,
     .source = "POSIX flockfile (every function on a FILE * but the _unlocked ones "
               "behaves as if it locked the stream); ISO C 7.21.2p7 (each stream "
               "has a lock; a function holds it for the whole call)",
     .claim = "lines written with one fwrite each from 4 threads arrive whole",
     .langs = c_only,
     .sinks = all_sinks,
     .check = threads_fwrite_lines_whole},
    {.name = "concurrency.threads_cout_line_writes_whole",
     .group = "concurrency",
     .level = tier::documented,
     .source = "C++ [iostreams.threadsafety] (no data race on a synchronized "
               "standard stream, characters may interleave); libstdc++ "
               "stdio_sync_filebuf::xsputn and libc++ __stdoutbuf::xsputn are one "
               "fwrite (locked)",
     .claim = "lines written with one cout.write each from 4 threads arrive whole "
              "(synced cout)",
     .langs = cxx_only,
     .sinks = all_sinks,
     .applies = synced_cout_is_one_fwrite,
     .check = threads_cout_line_writes_whole},
    {.name = "concurrency.threads_piecewise_lines",
     .group = "concurrency",
     .level = tier::observed,
     .source = "ISO C 7.21.2p7 (the lock is per call); C++ [iostreams.threadsafety] "
               "(interleaving between insertions is allowed)",
     .claim = "whether lines made of one call per byte (putc; cout.put, as in "
              "cout << a << b << '\\n' with one-byte insertions) from 8 threads "
              "arrive torn",
     .langs = both_langs,
     .sinks = all_sinks,
     .check = threads_piecewise_lines},
};

/// The rows of the FILE's lock: taken for a line, and not taken at all.
const property k_flockfile_rows[] = {
    {.name = "concurrency.flockfile_keeps_a_line_whole",
     .group = "concurrency",
     .level = tier::required,
     .source = "POSIX flockfile (\"can be used by a thread to delineate a sequence "
               "of I/O statements that are executed as a unit\"); POSIX "
               "getc_unlocked (the _unlocked functions are safe when the calling "
               "thread owns the (FILE *) object)",
     .claim = "lines of 99 putc_unlocked calls from 8 threads, each line between "
              "flockfile and funlockfile, arrive whole",
     .langs = c_only,
     .sinks = all_sinks,
     .check = flockfile_keeps_a_line_whole},
    {.name = "concurrency.threads_unlocked_calls",
     .group = "concurrency",
     .level = tier::observed,
     .source = "POSIX getc_unlocked (\"may safely be used in a multi-threaded program "
               "if and only if they are called while the invoking thread owns the "
               "(FILE *) object\"): without the lock nothing is promised",
     .claim = "what lines of putc_unlocked calls from 8 threads that do not take "
              "the lock look like (torn; bytes lost or doubled: the figures)",
     .langs = c_only,
     .sinks = all_sinks,
     .check = threads_unlocked_calls},
};

}  // namespace

void add_concurrency_properties(std::vector<property>& out) {
  append(out, k_fork_and_thread_rows);
  append(out, k_flockfile_rows);
}

}  // namespace flushcheck::detail
