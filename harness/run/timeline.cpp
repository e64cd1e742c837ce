#include "timeline.hpp"

#include <algorithm>
#include <cstdint>

namespace flushcheck::detail {
namespace {

/// A write-family call E on the sink of STREAM, shared or not.
bool is_write_on(const trace_summary& t, const trace_event& e, stream_role stream) {
  return is_write_family(e.call) && t.on(e, stream);
}

}  // namespace

std::vector<chunk_writes> writes_before_chunks(const trace_summary& t, stream_role role,
                                               const std::vector<chunk>& chunks) {
  std::vector<std::int64_t> entries, returns;
  for (const auto& e : t.events)
    if (is_write_on(t, e, role)) {
      entries.push_back(e.t_us);
      if (e.returned_us >= 0) returns.push_back(e.returned_us);
    }
  std::sort(returns.begin(), returns.end());  // entries are in order already
  // Past the event log's cap the counts are unknown (-1), not short.
  std::int64_t logged_until =
      t.events_dropped > 0 && !t.events.empty() ? t.events.back().t_us : INT64_MAX;
  std::vector<chunk_writes> out;
  for (const auto& c : chunks) {
    if (c.t_us > logged_until) {
      out.push_back({-1, -1});
      continue;
    }
    out.push_back({std::upper_bound(entries.begin(), entries.end(), c.t_us) - entries.begin(),
                   std::upper_bound(returns.begin(), returns.end(), c.t_us) - returns.begin()});
  }
  return out;
}

write_timing stdout_write_timing(const trace_summary& t) {
  write_timing w;
  if (!t.writes_timed) return w;
  std::int64_t number = 0;
  for (const auto& e : t.events) {
    if (!is_write_on(t, e, stream_role::out)) continue;
    ++number;
    if (e.returned_us < 0) {
      ++w.never_returned;
      continue;
    }
    ++w.timed;
    std::int64_t blocked = e.returned_us - e.t_us;
    w.blocked_us += blocked;
    if (!w.longest || blocked > w.longest->blocked_us)
      w.longest = {number, e.t_us, blocked, e.bytes};
  }
  return w;
}

}  // namespace flushcheck::detail
