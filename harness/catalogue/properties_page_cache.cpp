// The page cache behind a regular file: what stays in memory after a write
// (mincore(2)), what posix_fadvise drops, and what a write that bypasses the
// cache (O_DIRECT) asks of its buffer. Mechanisms only: how fast each path
// is belongs to `flushcheck bench`.
#include <cstdio>
#include <optional>
#include <sstream>
#include <utility>

#include "checks.hpp"

namespace flushcheck::detail {
namespace {

const std::vector<sink_kind> file_only = {sink_kind::file};

/// What one `resident` op said: RESIDENT of PAGES pages in the page cache.
struct residency {
  long resident = -1;
  long pages = -1;
};

std::string text(const residency& r) {
  return std::to_string(r.resident) + " of " + std::to_string(r.pages) + " pages";
}

/// The `resident` ops' lines on stderr ("...': 3 of 16 pages resident"), in
/// script order.
std::vector<residency> residencies(const std::string& err) {
  std::vector<residency> out;
  std::istringstream in(err);
  for (std::string line; std::getline(in, line);) {
    residency r;
    int end = 0;  // the whole rest of the line must be the report
    const auto at = line.rfind("': ");
    const char* tail = at == std::string::npos ? "" : line.c_str() + at + 3;
    if (std::sscanf(tail, "%ld of %ld pages resident%n", &r.resident, &r.pages, &end) == 2 &&
        end > 0 && tail[end] == '\0')
      out.push_back(r);
  }
  return out;
}

/// A verdict that says the machine cannot check the claim: SHORT for the
/// table (`skipped`), WHY for people. Not a pass: nothing was checked.
verdict skipped(std::string short_reason, std::string why) {
  verdict v;
  v.pass = false;
  v.skipped = std::move(short_reason);
  v.observed = *v.skipped;
  v.explanation = std::move(why);
  return v;
}

/// When the sink's file system cannot show the page cache at work: a
/// verdict that says so, else none.
std::optional<verdict> without_page_cache(const observation& obs) {
  if (obs.out.fs == "tmpfs")
    return skipped("tmpfs",
                   "tmpfs keeps its files in the page cache: its O_DIRECT (Linux 6.6 on) goes "
                   "through it, and there is no disk to drop pages to; set TMPDIR to a "
                   "directory on a disk file system");
  const auto at = obs.err.data.find("'reopen direct': open: ");
  if (at == std::string::npos) return std::nullopt;
  return skipped(obs.out.fs + ": no O_DIRECT",
                 "the file system (" + obs.out.fs + ") refuses O_DIRECT: " +
                     obs.err.data.substr(at + 23, obs.err.data.find('\n', at) - at - 23));
}

/// The file systems whose O_DIRECT is known to refuse a misaligned buffer
/// or length (iomap direct I/O): elsewhere the rules differ (btrfs may fall
/// back to buffered I/O, NFS and FUSE pass it on), and the alignment row is
/// skipped.
std::optional<verdict> alignment_unknown(const observation& obs) {
  if (obs.out.fs == "ext4" || obs.out.fs == "xfs") return std::nullopt;
  return skipped(obs.out.fs + ": alignment rules not known",
                 "O_DIRECT's alignment is the file system's; this row checks ext4 and xfs, "
                 "which refuse a misaligned buffer or length with EINVAL; on " +
                     obs.out.fs + " it is not asserted");
}

/// Writes of 4096 bytes through O_DIRECT from buffers 1, 2, 4 .. 2048 bytes
/// past a page boundary (ops 2..13), one of 100 bytes (op 14), one from a
/// page boundary (op 15).
const int first_skew_op = 2, length_op = 14, aligned_op = 15;

std::string alignment_script() {
  std::string s = "reopen direct";
  for (int skew = 1; skew <= 2048; skew *= 2) s += "; syswrite 4096 " + std::to_string(skew);
  return s + "; syswrite 100; syswrite 4096; exit 0";
}

/// Did op OP (1-based) report a write(2) that failed with EINVAL?
bool refused(const observation& obs, int op) {
  const std::string& err = obs.err.data;
  const auto at = err.find("op " + std::to_string(op) + " '");
  if (at == std::string::npos) return false;
  const std::string line = err.substr(at, err.find('\n', at) - at);
  return line.find("': write: ") != std::string::npos && line.ends_with("(errno 22)");
}

/// The smallest skew past a page boundary the file system took, -1 if none.
long smallest_skew_taken(const observation& obs) {
  for (int op = first_skew_op, skew = 1; skew <= 2048; ++op, skew *= 2)
    if (!refused(obs, op)) return skew;
  return -1;
}

/// What O_DIRECT did with each write of alignment_script(), TAKEN the
/// smallest skew it took.
std::string alignment_outcome(const observation& obs, long taken) {
  return "buffers " +
         (taken < 0 ? "at every skew refused" : std::to_string(taken) + "-byte aligned taken") +
         ", 1-byte aligned " + (refused(obs, first_skew_op) ? "refused" : "taken") +
         "; a 100-byte length " + (refused(obs, length_op) ? "refused" : "taken") +
         "; a page-aligned write " + (refused(obs, aligned_op) ? "refused" : "taken");
}

verdict o_direct_needs_alignment(property_context& ctx) {
  auto obs = ctx.run(alignment_script());
  if (auto skip = without_page_cache(obs)) return *skip;
  if (auto skip = alignment_unknown(obs)) return *skip;
  verdict v;
  const long taken = smallest_skew_taken(obs);
  v.pass = refused(obs, first_skew_op) && refused(obs, length_op) && !refused(obs, aligned_op);
  v.observed = alignment_outcome(obs, taken);
  v.explanation = "O_DIRECT writes on " + obs.out.fs + ": " + v.observed +
                  (v.pass ? " (EINVAL, as write(2) says)" : "; stderr " + show(obs.err.data));
  v.figures = {{"memory_alignment", taken}};
  return v;
}

/// The verdict of o_direct_bypasses_page_cache from its run OBS and what its
/// `resident` ops said (R).
verdict bypass_verdict(const std::vector<residency>& r, const observation& obs) {
  verdict v;
  v.pass = r.size() == 2 && r[0].resident == 0 && r[0].pages == 16 && r[1].resident == 16 &&
           r[1].pages == 32;
  v.observed = r.size() == 2 ? "after 64 KiB through O_DIRECT " + text(r[0]) +
                                   " resident; after 64 KiB more, buffered, " + text(r[1])
                             : "stderr " + show(obs.err.data);
  v.explanation = "mincore of the file on " + obs.out.fs + ": " + v.observed +
                  " (want 0 of 16, then the buffered 16 of 32)";
  if (r.size() == 2)
    v.figures = {{"direct_resident", r[0].resident},
                 {"buffered_resident", r[1].resident - r[0].resident}};
  return v;
}

verdict o_direct_bypasses_page_cache(property_context& ctx) {
  auto obs = ctx.run(
      "reopen direct; syswrite 65536; resident; reopen append; syswrite 65536; resident; exit 0");
  if (auto skip = without_page_cache(obs)) return *skip;
  return bypass_verdict(residencies(obs.err.data), obs);
}

/// What mincore saw of the written file, then after fsync and DONTNEED (R,
/// from the `resident` ops); stderr ERR when they did not all report.
std::string dontneed_outcome(const std::vector<residency>& r, const std::string& err) {
  // Whether DONTNEED found the pages still dirty depends on how far the
  // writeback it starts has got: said in the explanation, kept out of
  // `observed` (which the matrix compares between sets).
  return r.size() == 3
             ? "written " + text(r[0]) + " resident; after fsync and DONTNEED " + text(r[2])
             : "stderr " + show(err);
}

/// The verdict of fadvise_dontneed_evicts_clean_pages from its run OBS and
/// what its `resident` ops said (R).
verdict dontneed_verdict(const std::vector<residency>& r, const observation& obs) {
  verdict v;
  v.pass = r.size() == 3 && r[0].resident == 16 && r[0].pages == 16 && r[2].resident == 0;
  v.observed = dontneed_outcome(r, obs.err.data);
  v.explanation = "mincore of a 64 KiB file on " + obs.out.fs + ": " + v.observed +
                  (r.size() == 3 ? " (DONTNEED before the fsync: " + text(r[1]) + ")" : "") +
                  " (want 16 of 16, then 0 once clean; dirty pages may stay)";
  if (r.size() == 3)
    v.figures = {{"written", r[0].resident},
                 {"dontneed_dirty", r[1].resident},
                 {"dontneed_clean", r[2].resident}};
  return v;
}

verdict fadvise_dontneed_evicts_clean_pages(property_context& ctx) {
  auto obs = ctx.run(
      "syswrite 65536; resident; fadvise dontneed; resident; fsync; fadvise dontneed; resident; "
      "exit 0");
  if (auto skip = without_page_cache(obs)) return *skip;
  return dontneed_verdict(residencies(obs.err.data), obs);
}

}  // namespace

const property k_page_cache_properties[] = {
    {.name = "file.o_direct_needs_alignment",
     .group = "file",
     .level = tier::required,
     .source = "write(2) (EINVAL: \"the file was opened with the O_DIRECT flag, "
               "and either the address specified in buf, the value specified in "
               "count, or the file offset is not suitably aligned\"); open(2) "
               "(O_DIRECT: the alignment is the file system's; statx "
               "STATX_DIOALIGN reports it)",
     .claim = "an O_DIRECT write from a buffer 1 byte past a page boundary, or of "
              "100 bytes, fails with EINVAL on ext4 and xfs (skipped elsewhere); a "
              "page-aligned one is taken (the smallest alignment taken is recorded)",
     .langs = c_only,
     .sinks = file_only,
     .check = o_direct_needs_alignment},
    {.name = "file.o_direct_bypasses_page_cache",
     .group = "file",
     .level = tier::documented,
     .source = "open(2) (O_DIRECT: \"Try to minimize cache effects of the I/O to and "
               "from this file\"; the I/O is done directly to and from user-space "
               "buffers); mincore(2)",
     .claim = "64 KiB written through O_DIRECT leave 0 of 16 pages in the page "
              "cache; 64 KiB more written buffered leave their 16 resident",
     .langs = c_only,
     .sinks = file_only,
     .check = o_direct_bypasses_page_cache},
    {.name = "file.fadvise_dontneed_evicts_clean_pages",
     .group = "file",
     .level = tier::documented,
     .source = "posix_fadvise(2) (Linux notes: POSIX_FADV_DONTNEED frees cached "
               "pages; \"Any unwritten dirty pages will not be freed\"; call fsync "
               "first); mincore(2)",
     .claim = "a file just written is resident (16 of 16 pages); after fsync, "
              "POSIX_FADV_DONTNEED leaves 0 resident (before it, dirty pages may "
              "stay: recorded)",
     .langs = c_only,
     .sinks = file_only,
     .check = fadvise_dontneed_evicts_clean_pages},
};

void add_page_cache_properties(std::vector<property>& out) { append(out, k_page_cache_properties); }

}  // namespace flushcheck::detail
