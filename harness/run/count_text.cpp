#include <cstdint>
#include <vector>

#include "count_report.hpp"
#include "run_report.hpp"
#include "text_table.hpp"
#include "traced_call.hpp"

namespace flushcheck {
namespace {

/// calls, bytes, mean, syscall, fds, destination.
const std::vector<text_column> k_columns = {{.width = 10, .right = true},
                                            {.width = 14, .right = true, .gap = 0},
                                            {.width = 10, .right = true, .gap = 0},
                                            {.width = 16, .gap = 2},
                                            {.width = 8, .gap = 0},
                                            {.width = 0, .gap = 0}};

std::string row(const std::string& calls, const std::string& bytes, const std::string& mean,
                const std::string& call, const std::string& fds, const std::string& what) {
  return text_row("", k_columns, {calls, bytes, mean, call, fds, what}) + "\n";
}

std::string fd_list(const destination_counters& d) {
  std::string fds;
  for (int fd : d.fds) fds += (fds.empty() ? "" : ",") + std::to_string(fd);
  return fds;
}

/// D's rows, one per call it got; bytes are per destination: on each write row.
std::string destination_rows(const destination_counters& d, bool with_bytes, std::int64_t& shown) {
  const std::string what =
      d.what + (d.role == stream_role::none ? "" : " (" + std::string(to_string(d.role)) + ")");
  std::string out;
  for (std::size_t c = 0; c < traced_call_count; ++c) {
    if (d.calls[c] == 0) continue;
    const bool w = is_write_family(static_cast<traced_call>(c));
    out += row(std::to_string(d.calls[c]), w && with_bytes ? std::to_string(d.bytes) : "",
               w && d.write_calls && d.bytes ? std::to_string(d.bytes / d.write_calls) : "",
               to_string(static_cast<traced_call>(c)), fd_list(d), what);
    shown += d.calls[c];
  }
  return out;
}

/// "  N other calls on M destinations never written to (--all lists them)".
std::string folded_line(std::int64_t folded, std::int64_t folded_dests) {
  return pad(std::to_string(folded), 10, true) + "  other calls on " +
         std::to_string(folded_dests) + " destinations never written to (--all lists them)\n";
}

/// One row per destination and call; calls to destinations never written
/// (locale files closed at start-up, ...) fold into one line unless ALL.
std::string destinations(const count_report& r, std::int64_t& rows) {
  std::string out;
  std::int64_t folded = 0, folded_dests = 0;
  for (const auto& d : r.obs.trace->destinations) {
    if (r.all || d.write_calls != 0) {
      out += destination_rows(d, r.with_bytes, rows);
      continue;
    }
    for (auto n : d.calls) folded += n;
    ++folded_dests;
  }
  rows += folded;
  if (folded_dests > 0) out += folded_line(folded, folded_dests);
  return out;
}

}  // namespace

std::string to_text(const count_report& r) {
  const trace_summary& t = *r.obs.trace;
  std::int64_t rows = 0;
  std::string out = row("calls", "bytes", "mean", "syscall", "fds", "destination");
  out += destinations(r, rows);
  for (std::size_t c = 0; c < traced_call_count; ++c)
    if (t.totals[c] != 0)
      out += row(std::to_string(t.totals[c]), "", "", to_string(static_cast<traced_call>(c)), "*",
                 "all destinations");
  out += pad(std::to_string(rows), 10, true) + "  calls in the rows above; " +
         r.obs.status.describe() + "\n";
  return out + fault_lines(t);
}

}  // namespace flushcheck
