#include "call_ledger.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <utility>

namespace flushcheck::detail {

std::size_t call_ledger::log(std::int64_t t_us, pid_t p, const decoded_call& c, int d) {
  if (events_.size() >= max_events) {
    ++events_dropped_;
    return dropped;
  }
  events_.push_back({t_us, p, c.call, c.fd, c.bytes, d});
  return events_.size() - 1;
}

void call_ledger::count(pid_t p, const decoded_call& c, int d, std::size_t event) {
  const auto i = static_cast<std::size_t>(c.call);
  ++totals_[i];
  if (d < 0) return;
  auto& dest = fds_[d];
  ++dest.calls[i];
  if (!is_write_family(c.call)) return;
  ++dest.write_calls;
  if (info(c.call).bytes == byte_count::result)
    results_[p] = {d, event};
  else
    count_bytes(dest, c.bytes);
  if (timed_ && timed_(dest) && event != dropped) timed_calls_[p] = event;
}

void call_ledger::count_bytes(destination_counters& d, std::int64_t bytes) {
  d.bytes += bytes;
  const int bucket = bytes <= 1 ? 0 : std::bit_width(static_cast<std::uint64_t>(bytes)) - 1;
  ++d.size_histogram[static_cast<std::size_t>(std::min(bucket, 31))];
}

void call_ledger::stop(std::int64_t t_us, pid_t p, const decoded_call& c, int d,
                       std::size_t event) {
  stopped_ = {c, d, event};
  if (event != dropped) events_[event].stopped = true;
  stopped_event_ = trace_event{t_us, p, c.call, c.fd, c.bytes, d};
  stopped_event_->stopped = true;
}

void call_ledger::rerun(pid_t p) {
  if (!stopped_) return;
  const auto s = *std::exchange(stopped_, std::nullopt);
  if (s.event != dropped) events_[s.event].stopped = false;
  stopped_event_.reset();
  count(p, s.call, s.dest, s.event);
}

void call_ledger::at_exit(pid_t p, std::int64_t t_us, long result) {
  if (auto it = results_.find(p); it != results_.end()) {
    const std::int64_t n = std::max(result, 0L);
    count_bytes(fds_[it->second.dest], n);
    if (it->second.event != dropped) events_[it->second.event].bytes = n;
    results_.erase(it);
  }
  if (auto it = timed_calls_.find(p); it != timed_calls_.end()) {
    events_[it->second].returned_us = t_us;
    events_[it->second].result = result;
    timed_calls_.erase(it);
  }
}

void call_ledger::forget(pid_t p) {
  results_.erase(p);
  timed_calls_.erase(p);
}

void call_ledger::fill(trace_summary& s) {
  s.events = std::move(events_);
  s.events_dropped = events_dropped_;
  s.totals = totals_;
  s.stopped = std::move(stopped_event_);
}

}  // namespace flushcheck::detail
