// The `stdio` suite (SEED_CLAIMS A and B): putc and 1-byte fwrite through
// _IONBF, _IOLBF and _IOFBF on a file, a pipe and /dev/null, and a setvbuf
// buffer-size sweep, per toolchain set (targets/bench/bench_stdio.c).
#include "bench_suites.hpp"

#include <cstdint>

namespace flushcheck::detail {
namespace {

const long k_sweep[] = {1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576};

struct stdio_spec {
  std::string mode;  ///< default, none, line, full
  long size;         ///< setvbuf's SIZE; 0: the library's buffer
  std::string op;    ///< putc, fwrite1
  sink_kind sink;
};

std::string row_name(const stdio_spec& s, const std::string& toolchain) {
  std::string mode = s.mode + (s.size > 0 ? " " + size_name(s.size) : "");
  return s.op + " " + mode + " " + std::string(to_string(s.sink)) + " [" + toolchain + "]";
}

bench_case stdio_case(const target_set& set, const stdio_spec& s, long n) {
  bench_case c;
  c.row.name = row_name(s, set.name);
  c.row.toolchain = set.name;
  c.row.sink = to_string(s.sink);
  c.row.bytes = c.row.ops = n;
  c.argv = {bench_program(set, "bench_stdio"), s.mode, std::to_string(s.size), s.op,
            std::to_string(n)};
  c.sink = s.sink;
  return c;
}

/// Every row of one toolchain set.
void add_set(const bench_context& ctx, const target_set& set, bench_suite& out) {
  long n = ctx.sizes.scale(200000, 20000);
  for (sink_kind sink : {sink_kind::file, sink_kind::pipe, sink_kind::null})
    for (const char* mode : {"default", "none", "line"})
      out.rows.push_back(ctx.measure(stdio_case(set, {mode, 0, "putc", sink}, n)));
  for (const char* mode : {"default", "none"})
    out.rows.push_back(ctx.measure(stdio_case(set, {mode, 0, "fwrite1", sink_kind::file}, n)));
  for (long size : k_sweep) {
    auto c = stdio_case(set, {"full", size, "putc", sink_kind::file}, n);
    c.row.series = set.name;
    c.row.x = static_cast<double>(size);
    out.rows.push_back(ctx.measure(c));
  }
}

double ms(const bench_row& r) { return r.median() * 1e3; }
double calls(const bench_row& r) { return static_cast<double>(r.write_calls); }

std::int64_t ceil_div(std::int64_t n, std::int64_t d) { return (n + d - 1) / d; }

/// The write calls of N putc into a SIZE-byte buffer the program gave
/// setvbuf. glibc writes the whole buffer each time. musl keeps UNGET (8)
/// bytes of it for ungetc and writes the rest with the byte that did not fit
/// (src/stdio/setvbuf.c, __overflow.c): SIZE - 7 a call; under 8 bytes it keeps
/// its own BUFSIZ (1024) buffer, 1025 a call.
std::int64_t expected_writes(libc_impl libc, std::int64_t n, std::int64_t size) {
  if (libc != libc_impl::musl) return ceil_div(n, size);
  return size >= 8 ? ceil_div(n, size - 7) : ceil_div(n, 1025);
}

libc_impl libc_of(const bench_context& ctx, const std::string& toolchain) {
  for (const auto& set : ctx.options.toolchains)
    if (set.name == toolchain) return set.profile.libc;
  return libc_impl::unknown;
}

/// The sweep's rows against expected_writes: the mismatches, and how many
/// rows were checked.
std::pair<std::string, int> sweep_mismatches(const bench_context& ctx, const bench_suite& s) {
  std::string out;
  int checked = 0;
  for (const auto& r : s.rows) {
    if (r.series.empty() || !r.measured()) continue;
    ++checked;
    auto want = expected_writes(libc_of(ctx, r.toolchain), r.ops, static_cast<std::int64_t>(r.x));
    if (r.write_calls != want)
      out +=
          r.name + ": " + std::to_string(r.write_calls) + " (not " + std::to_string(want) + "); ";
  }
  return {out, checked};
}

/// "_IONBF: one write per putc", over every toolchain set.
bench_claim unbuffered_claim(const bench_suite& s) {
  std::string seen;
  bool holds = true;
  for (const auto& r : s.rows)
    if (r.name.rfind("putc none file", 0) == 0 && r.measured()) {
      holds = holds && r.write_calls == r.ops;
      seen += r.toolchain + ": " + std::to_string(r.write_calls) + " write() for " +
              std::to_string(r.ops) + " putc; ";
    }
  return claim("_IONBF makes every putc a write(): 10,000,000 putc, ~10,000,000 write() (A)",
               "mechanism", holds && !seen.empty(), seen);
}

/// The slower row's median over the faster one's, as "Nx".
double slower(const bench_suite& s, const std::string& slow, const std::string& fast) {
  return time_ratio(measured_row(s, slow), measured_row(s, fast));
}

/// "_IOFBF with an S-byte buffer: ceil(N / S) write()", each sweep row as
/// its C library computes it.
bench_claim sweep_claim(const bench_context& ctx, const bench_suite& s) {
  auto [bad, checked] = sweep_mismatches(ctx, s);
  return claim(
      "_IOFBF with an S-byte buffer: ceil(N / S) write(): 4 KiB ~2,442, 64 KiB ~153, 1 MiB ~10 "
      "for 10,000,000 putc (A); that is glibc's arithmetic, musl's is ceil(N / (S - 7)), its own "
      "1 KiB buffer under 8 bytes (musl src/stdio/setvbuf.c, __overflow.c)",
      "mechanism", bad.empty() && checked > 0,
      bad.empty() ? std::to_string(checked) + " sweep rows, each as its C library computes" : bad);
}

void add_claims(const bench_context& ctx, bench_suite& s, const std::string& t) {
  s.claims.push_back(unbuffered_claim(s));
  s.claims.push_back(sweep_claim(ctx, s));
  double a = slower(s, "putc none file [" + t + "]", "putc full 4 KiB file [" + t + "]");
  s.claims.push_back(claim("unbuffered putc is ~116x slower than a 4 KiB buffer (A)", "ordering",
                           a >= 10, significant(a) + "x [" + t + "]"));
  double b = slower(s, "fwrite1 none file [" + t + "]", "fwrite1 default file [" + t + "]");
  s.claims.push_back(claim("1-byte fwrite: unbuffered ~23x slower than buffered (B)", "ordering",
                           b >= 5, significant(b) + "x [" + t + "]"));
  double c = slower(s, "putc full 4 KiB file [" + t + "]", "putc full 1 MiB file [" + t + "]");
  s.claims.push_back(claim("past 4 KiB a bigger buffer adds little: ~12% at 1 MiB (A)", "ordering",
                           c > 0 && c <= 1.5,
                           "4 KiB takes " + significant(c) + "x the time of 1 MiB [" + t + "]"));
}

/// The sweep's time and write() calls by buffer size, a line per toolchain set.
void add_plots(const bench_context& ctx, bench_suite& s) {
  bench_plot time = log_log_plot("putc into a file: time by setvbuf buffer size",
                                 "buffer size (bytes)", "median time (ms)");
  bench_plot writes = log_log_plot("putc into a file: write() calls by setvbuf buffer size",
                                   "buffer size (bytes)", "write() calls");
  for (const auto& set : ctx.options.toolchains) {
    time.series.push_back(series_of(s, set.name, ms));
    writes.series.push_back(series_of(s, set.name, calls));
  }
  s.plots = {time, writes};
}

}  // namespace

bench_suite stdio_suite(const bench_context& ctx) {
  bench_suite s;
  s.name = "stdio";
  s.title = "putc and 1-byte fwrite by buffering mode, sink and setvbuf size";
  s.seed = "SEED_CLAIMS A (C stdio buffering) and B (1-byte fwrite)";
  const std::string t = ctx.options.toolchains.front().name;
  s.baseline = "putc default file [" + t + "]";
  s.placement = "unpinned: the program and the harness's reader go where the scheduler puts them";
  for (const auto& set : ctx.options.toolchains) add_set(ctx, set, s);
  set_ratios(s);
  add_claims(ctx, s, t);
  add_plots(ctx, s);
  return s;
}

}  // namespace flushcheck::detail
