// Cuts derived from one traced run (write_cuts.hpp).
#include "write_cuts.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace flushcheck {

namespace {

/// The THIN evenly spaced ones of V (the first and the last in when THIN > 1).
std::vector<std::size_t> thinned(const std::vector<std::size_t>& v, std::size_t thin) {
  std::vector<std::size_t> out;
  if (thin == 1) out.push_back(v[v.size() / 2]);
  for (std::size_t j = 0; thin > 1 && j < thin; ++j)
    out.push_back(v[j * (v.size() - 1) / (thin - 1)]);
  return out;
}

/// The most of V that fit, thinned evenly, in BUDGET writes (REACHED: the
/// write each reaches) and ROOM runs: a binary search on the count, for a
/// thinned sample's cost grows with it.
std::size_t most_that_fit(const std::vector<std::size_t>& v, const std::vector<long>& reached,
                          long budget, std::size_t room) {
  const auto cost = [&](const std::vector<std::size_t>& picked) {
    long sum = 0;
    for (std::size_t i : picked) sum += reached[i];
    return sum;
  };
  std::size_t fit = 0, most = std::min(v.size(), room);
  while (fit < most) {
    const std::size_t k = (fit + most + 1) / 2;
    if (cost(thinned(v, k)) <= budget)
      fit = k;
    else
      most = k - 1;
  }
  return fit;
}

}  // namespace

std::string why_trace_not_derivable(const trace_summary& t) {
  if (t.processes > 1)
    return "the uncut run had " + std::to_string(t.processes) +
           " processes and threads: what a cut leaves depends on how they interleave";
  if (t.events_dropped > 0)
    return "the trace's event log dropped " + std::to_string(t.events_dropped) + " calls";
  return "";
}

std::string why_writes_do_not_add_up(const std::vector<const trace_event*>& writes,
                                     std::uint64_t got, const std::string& what) {
  std::uint64_t sum = 0;
  for (const trace_event* e : writes) {
    if (e->call != traced_call::write && e->call != traced_call::writev)
      return what + " include " + to_string(e->call) + " (only write and writev are derived)";
    sum += static_cast<std::uint64_t>(e->bytes_written());
  }
  if (sum == got) return "";
  return what + " add up to " + std::to_string(sum) + " bytes and the reader got " +
         std::to_string(got) + " (a failed or short write, or a terminal's newline translation)";
}

std::vector<std::uint64_t> write_ends(const std::vector<const trace_event*>& writes) {
  std::vector<std::uint64_t> ends{0};
  for (const trace_event* e : writes)
    ends.push_back(ends.back() + static_cast<std::uint64_t>(e->bytes_written()));
  return ends;
}

std::vector<std::size_t> cuts_to_verify(const std::vector<long>& reached,
                                        const std::vector<int>& verdict, long budget,
                                        std::size_t max) {
  const std::size_t n = reached.size(), room = max > 2 ? max - 2 : 0;
  std::vector<std::size_t> changes, spaced, out;
  for (std::size_t i = 1; i + 1 < n; ++i)
    if (verdict[i] != verdict[i - 1])
      changes.push_back(i);
    else if (i % 64 == 0)
      spaced.push_back(i);
  for (std::size_t i : changes)  // each change that fits, the cheaper (earlier) first
    if (out.size() < room && reached[i] <= budget) {
      out.push_back(i);
      budget -= reached[i];
    }
  for (std::size_t i : thinned(spaced, most_that_fit(spaced, reached, budget, room - out.size())))
    out.push_back(i);
  if (n > 0) out.push_back(0);  // the first and the last, whatever MAX
  if (n > 1) out.push_back(n - 1);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace flushcheck
