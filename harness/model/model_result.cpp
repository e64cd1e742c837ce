// The prediction made of a simulation's run: the calls and bytes it
// recorded, widened where the model does not port what happened.
#include "model_simulation.hpp"

namespace flushcheck::detail {

void simulation::finish(prediction& p) {
  p.given = fx_.meant;
  p.meant = full_meant();
  p.calls = fx_.kernel.calls();
  p.reports = fx_.reports;
  for (std::size_t c = 0; c < channel_count; ++c) {
    p.stream[c] = fx_.kernel.delivered(static_cast<channel>(c));
    p.bounds[c] = {p.stream[c].size(), p.stream[c].size()};
  }
  count_calls(p);
  widen_loose(p);
  if (p.runtime_message) widen_terminate(p);
  if (merged(setup_)) p.writes[1] = {0, 0};
}

/// Every call is known: each destination gets exactly the bytes of its calls.
void simulation::count_calls(prediction& p) const {
  std::array<long, 2> n{};
  for (const auto& call : fx_.kernel.calls()) {
    const int d = dest_of(setup_, call.ch);
    ++n[d];
    if (!call.report)
      p.data[d] +=
          p.stream[static_cast<std::size_t>(call.ch)].substr(call.from, call.to - call.from);
  }
  // write:N stops the N-th call at its entry: it never runs, and the
  // tracer counts it apart (trace_summary::stopped), not here.
  for (int d = 0; d < 2; ++d) p.writes[d] = {n[d], n[d]};
}

/// libstdc++ after sync_with_stdio(false): its streams' MAY is all they
/// were given, MUST what their flushes pushed, their calls a range.
void simulation::widen_loose(prediction& p) const {
  for (int i = 0; i < 2; ++i) widen_loose_buffer(p, i);
  if (p.exact) return;
  p.notes.push_back(
      "libstdc++ after sync_with_stdio(false): the model does not port stdio_filebuf's "
      "flushes, so its streams' MAY is all they were given and their calls are a range");
  widen_loose_full(p);
}

/// Loose buffer I (cout's, cerr's), if it was used: its channel's MAY is all
/// it was given, MUST what its flushes pushed, its calls a range.
void simulation::widen_loose_buffer(prediction& p, int i) const {
  const auto& b = streams_.loose_buffer_of(i);
  if (b.ops == 0 && b.given == 0) return;
  const auto ch = cxx_channel(i == 0 ? FC_OUT : FC_ERR);
  const auto c = static_cast<std::size_t>(ch);
  p.stream[c] = fx_.meant[c];
  p.bounds[c] = {b.flushed, b.given};
  p.writes[dest_of(setup_, ch)].first += b.flushed > 0 ? 1 : 0;
  p.writes[dest_of(setup_, ch)].second += b.calls_hi;
  p.exact = false;
}

/// A destination on /dev/full: the loose buffers' failed writes are not
/// ported, so it may see no call, each op may add an error report, and the
/// exit code is unknown.
void simulation::widen_loose_full(prediction& p) const {
  const bool fails =
      dest_sink(setup_, 0) == sink_kind::full || dest_sink(setup_, 1) == sink_kind::full;
  if (!fails) return;
  const long ops = static_cast<long>(script_.ops.size()) + 1;
  for (int d = 0; d < 2; ++d) {
    if (dest_sink(setup_, d) == sink_kind::full) p.writes[d].first = 0;
    p.writes[d].second += ops;  // + the target's error reports
  }
  p.notes.push_back(
      "/dev/full with libstdc++'s own stream buffers: what their failed writes do is not "
      "ported, so the calls are a range and each op may report once on stderr");
  p.exit_code_known = false;
}

/// The terminate handler writes through C's stderr: with a buffered
/// stderr that may push out (or strand) what was pending there.
void simulation::widen_terminate(prediction& p) const {
  const auto c = static_cast<std::size_t>(channel::c_err);
  p.stream[c] += stdio_.err().pending();
  p.bounds[c].may = p.stream[c].size();
  if (p.bounds[c].may != p.bounds[c].must) p.exact = false;
  p.writes[merged(setup_) ? 0 : 1].second += 16;
}

/// Everything each channel is given if the script runs to its end (what
/// the program meant to write): the same script, uncut.
std::array<std::string, channel_count> simulation::full_meant() const {
  simulation whole(setup_, script_, kill_plan{});
  prediction unused;
  try {
    whole.run_ops(unused);
  } catch (const ended&) {  // SIGPIPE: the program meant no more
  }
  return whole.fx_.meant;
}

}  // namespace flushcheck::detail
