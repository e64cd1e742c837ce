#include "timeline.hpp"

#include <algorithm>
#include <cstdint>

namespace flushcheck::detail {
namespace {

/// A write-family call E on the sink of STREAM, shared or not.
bool is_write_on(const trace_summary& t, const trace_event& e, stream_role stream) {
  return is_write_family(e.call) && t.on(e, stream);
}

/// When the writes to the sink of a stream entered (in order) and returned
/// (sorted).
struct write_times {
  std::vector<std::int64_t> entries, returns;
};

write_times write_times_on(const trace_summary& t, stream_role role) {
  write_times w;
  for (const auto& e : t.events)
    if (is_write_on(t, e, role)) {
      w.entries.push_back(e.t_us);
      if (e.returned_us >= 0) w.returns.push_back(e.returned_us);
    }
  std::sort(w.returns.begin(), w.returns.end());  // entries are in order already
  return w;
}

/// The time of the last event the log kept, when it dropped some; else no
/// limit.
std::int64_t logged_until(const trace_summary& t) {
  return t.events_dropped > 0 && !t.events.empty() ? t.events.back().t_us : INT64_MAX;
}

/// How many of the SORTED times are at or before T.
std::int64_t count_until(const std::vector<std::int64_t>& sorted, std::int64_t t) {
  return std::upper_bound(sorted.begin(), sorted.end(), t) - sorted.begin();
}

/// A write that returned, the NUMBERth to stdout's sink, into W.
void add_returned(write_timing& w, const trace_event& e, std::int64_t number) {
  ++w.timed;
  std::int64_t blocked = e.returned_us - e.t_us;
  w.blocked_us += blocked;
  if (!w.longest || blocked > w.longest->blocked_us) w.longest = {number, e.t_us, blocked, e.bytes};
}

}  // namespace

std::vector<chunk_writes> writes_before_chunks(const trace_summary& t, stream_role role,
                                               const std::vector<chunk>& chunks) {
  const write_times w = write_times_on(t, role);
  // Past the event log's cap the counts are unknown (-1), not short.
  const std::int64_t until = logged_until(t);
  std::vector<chunk_writes> out;
  for (const auto& c : chunks) {
    if (c.t_us > until) {
      out.push_back({-1, -1});
      continue;
    }
    out.push_back({count_until(w.entries, c.t_us), count_until(w.returns, c.t_us)});
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
    add_returned(w, e, number);
  }
  return w;
}

}  // namespace flushcheck::detail
