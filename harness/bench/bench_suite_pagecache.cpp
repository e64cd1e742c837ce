// The `pagecache` suite (SEED_CLAIMS E): a file read sequentially by block
// size warm (resident), cold (after POSIX_FADV_DONTNEED) and with O_DIRECT,
// and written through the page cache and with O_DIRECT, with mincore
// residency before and after (targets/bench/bench_pagecache.c, on the
// harness's file sink).
#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>

#include "bench_suites.hpp"
#include "file_system.hpp"
#include "temporary.hpp"

namespace flushcheck::detail {
namespace {

constexpr long k_kib = 1024;
constexpr long k_mib = 1024 * 1024;

bench_case file_case(const bench_context& ctx, const std::string& dir, const std::string& mode,
                     long block) {
  long size = ctx.sizes.scale(32 * k_mib, 4 * k_mib);
  bench_case c;
  c.row.series = dir + " " + mode;
  c.row.name = dir + " " + mode + ", " + size_name(block) + " blocks";
  c.row.sink = "file";
  c.row.x = static_cast<double>(block);
  c.row.bytes = size;
  c.row.ops = size / block;
  c.argv = {bench_program(ctx.options.default_set, "bench_pagecache"), dir, mode,
            std::to_string(size), std::to_string(block)};
  c.count_writes = dir == "write";  // a read's writes are its untimed set-up
  return c;
}

/// The file system of DIR ("ext4", "tmpfs", ...; "" when it cannot tell).
std::string file_system_at(const std::string& dir) {
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  std::string fs = fd >= 0 ? file_system_of(fd) : "";
  if (fd >= 0) ::close(fd);
  return fs;
}

/// tmpfs keeps its files in the page cache: DONTNEED drops nothing there and
/// its O_DIRECT (Linux 6.6 on) goes through the cache, so the cold and
/// direct rows would measure the cache (as properties_page_cache.cpp says).
constexpr const char* k_tmpfs =
    "the file sink is on tmpfs, which keeps its files in the page cache: no cold read, and its "
    "O_DIRECT goes through the cache (set TMPDIR to a disk's directory)";

double value(const bench_row* r, const char* key) {
  return r && r->measured() && r->values.count(key) ? r->values.at(key) : -1;
}

std::string count(double v) { return std::to_string(static_cast<long long>(v)); }

/// KEY's largest (MOST) or smallest value over the repetitions.
double extreme(const bench_row& r, const std::string& key, bool most) {
  std::string k = key + (most ? ".max" : ".min");
  return r.values.count(k) ? r.values.at(k) : value(&r, key.c_str());
}

/// Residency before and after row R, in words, and whether it matched
/// WANT_BEFORE / WANT_AFTER (-1: the file's page count).
std::pair<bool, std::string> row_residency(const bench_row& r, double want_before,
                                           double want_after) {
  double pages = value(&r, "pages");
  // every repetition: the extremes where the repetitions differed (bench_row::values)
  double before = extreme(r, "resident_before", true);
  double after = want_after < 0 ? extreme(r, "resident_after", false)  // all in: the fewest
                                : extreme(r, "resident_after", true);
  bool ok =
      (want_before < 0 || before == want_before) && after == (want_after < 0 ? pages : want_after);
  return {ok, size_name(static_cast<long>(r.x)) + ": " + count(before) + " -> " + count(after) +
                  " of " + count(pages) + " pages; "};
}

/// Residency before and after each measured row of mode MODE, in words, and whether
/// every one matched WANT_BEFORE / WANT_AFTER (-1: the file's page count).
std::pair<bool, std::string> residency(const bench_suite& s, const std::string& series,
                                       double want_before, double want_after) {
  bool holds = false;
  std::string seen;
  for (const auto& r : s.rows) {
    if (r.series != series || !r.measured()) continue;
    auto [ok, words] = row_residency(r, want_before, want_after);
    holds = (seen.empty() || holds) && ok;
    seen += words;
  }
  return {holds, seen.empty() ? "not measured" : seen};
}

/// CLAIM, or not checked when its rows were not measured (tmpfs, O_DIRECT refused).
bench_claim unless_unmeasured(bool measured, bench_claim c) {
  return measured ? c : not_checked(c.seed, c.kind, "its rows were not measured (see the notes)");
}

/// What DONTNEED and O_DIRECT leave in the page cache.
void add_residency_claims(bench_suite& s) {
  auto [cold, cold_seen] = residency(s, "read cold", 0, -1);
  s.claims.push_back(
      unless_unmeasured(cold_seen != "not measured",
                        claim("after POSIX_FADV_DONTNEED nothing of the file is in the page cache; "
                              "a read brings it all in, so a second read touches no disk (E)",
                              "mechanism", cold, cold_seen)));
  auto [direct, direct_seen] = residency(s, "read direct", 0, 0);
  s.claims.push_back(unless_unmeasured(
      direct_seen != "not measured",
      claim("O_DIRECT bypasses the page cache (E)", "mechanism", direct, direct_seen)));
}

/// Warm, cold and O_DIRECT reads side by side, in 1 MiB blocks.
void add_throughput_claims(bench_suite& s) {
  double warm = throughput_of(s, "read warm, 1 MiB blocks");
  double cold_t = throughput_of(s, "read cold, 1 MiB blocks");
  double direct_t = throughput_of(s, "read direct, 1 MiB blocks");
  s.claims.push_back(unless_unmeasured(
      warm > 0 && cold_t > 0,
      claim("a warm read is ~4.3x faster than a cold one (E)", "ordering", warm > cold_t,
            "warm / cold = " + significant(cold_t > 0 ? warm / cold_t : 0) + "x (1 MiB)")));
  s.claims.push_back(unless_unmeasured(
      direct_t > 0 && cold_t > 0,
      claim("O_DIRECT is not faster for ordinary reads: 5.5 GB/s vs 9.2 GB/s cold (E)", "ordering",
            direct_t <= cold_t,
            "O_DIRECT / cold = " + significant(cold_t > 0 ? direct_t / cold_t : 0) + "x (1 MiB)")));
}

void add_claims(bench_suite& s) {
  add_residency_claims(s);
  add_throughput_claims(s);
}

void add_plots(bench_suite& s) {
  auto mbs = [](const bench_row& r) { return r.throughput() / 1e6; };
  bench_plot read = log_log_plot("reading a file: throughput by block size", "block size (bytes)",
                                 "throughput (MB/s)");
  for (const char* m : {"warm", "cold", "direct"})
    read.series.push_back(series_of(s, std::string("read ") + m, mbs));
  bench_plot write = log_log_plot("writing a file: throughput by block size", "block size (bytes)",
                                  "throughput (MB/s)");
  for (const char* m : {"buffered", "direct"})
    write.series.push_back(series_of(s, std::string("write ") + m, mbs));
  s.plots = {read, write};
}

/// The pagecache suite before its rows: its name and what it says of itself.
bench_suite described_pagecache_suite() {
  bench_suite s;
  s.name = "pagecache";
  s.title = "a file read and written by block size: warm, cold, O_DIRECT";
  s.seed = "SEED_CLAIMS E (page cache and O_DIRECT)";
  s.baseline = "read warm, 1 MiB blocks";
  s.placement = "unpinned";
  return s;
}

/// The row of DIR MODE in BLOCK blocks: measured, or skipped where the
/// file system FS would measure the cache instead (tmpfs).
bench_row measure_unless_cache_only(const bench_context& ctx, const std::string& fs,
                                    const char* dir, const char* mode, long block) {
  auto c = file_case(ctx, dir, mode, block);
  bool cache_only = fs == "tmpfs" && std::string(mode) != "warm" && std::string(mode) != "buffered";
  if (!cache_only) return ctx.measure(c);
  c.row.skipped = k_tmpfs;
  return c.row;
}

/// Every row: each way of reading and writing, in each block size, on the
/// file system FS.
void add_rows(const bench_context& ctx, const std::string& fs, bench_suite& s) {
  for (long block : {4 * k_kib, 64 * k_kib, k_mib}) {
    for (const char* m : {"warm", "cold", "direct"})
      s.rows.push_back(measure_unless_cache_only(ctx, fs, "read", m, block));
    for (const char* m : {"buffered", "direct"})
      s.rows.push_back(measure_unless_cache_only(ctx, fs, "write", m, block));
  }
}

/// A note for each 1 MiB row skipped (not failed), and why.
void add_skipped_notes(bench_suite& s) {
  for (const auto& r : s.rows)
    if (!r.measured() && !r.failed && r.name.find("1 MiB") != std::string::npos)
      s.notes.push_back(r.name + ": " + r.skipped);
}

}  // namespace

bench_suite pagecache_suite(const bench_context& ctx) {
  bench_suite s = described_pagecache_suite();
  std::string fs = file_system_at(temp_dir());
  s.notes.push_back("the file is the harness's file sink, in " + temp_dir() + " (" +
                    (fs.empty() ? "unknown" : fs) + ")");
  add_rows(ctx, fs, s);
  add_skipped_notes(s);
  set_ratios(s);
  add_claims(s);
  add_plots(s);
  return s;
}

}  // namespace flushcheck::detail
