#include "timeline_lanes.hpp"

#include <algorithm>
#include <cstdint>

#include "number_format.hpp"
#include "sink_kind.hpp"
#include "spawn.hpp"

namespace flushcheck {
namespace {

std::string destination_name(const destination_counters& d) {
  if (d.role == stream_role::none) return d.what;
  return std::string(to_string(d.role)) + " (" + d.what + ")";
}

std::string write_title(const trace_event& e, std::int64_t number, const std::string& dest) {
  std::string s = std::string(to_string(e.call)) + " #" + std::to_string(number) + " to " + dest +
                  ": " + std::to_string(e.bytes) + " bytes, entered at " + format_ms(e.t_us);
  if (e.stopped) return s + "; stopped at its entry by the cut: it never ran";
  if (e.returned_us >= 0)
    s += "; returned " + std::to_string(e.result) + " after " + format_ms(e.returned_us - e.t_us);
  return s;
}

timeline_mark write_mark(const trace_event& e, std::int64_t number, const std::string& dest) {
  return {e.t_us, e.returned_us, e.bytes, e.stopped, write_title(e, number, dest)};
}

/// The marker protocol's socket (fd 3, docs/markers.md): what the harness
/// gave the program, not one of its outputs.
bool is_marker_socket(const destination_counters& d) {
  return d.role == stream_role::none && d.what.starts_with("socket:") &&
         std::find(d.fds.begin(), d.fds.end(), control_fd_number) != d.fds.end();
}

std::string lane_name(const destination_counters& d) {
  if (d.role != stream_role::none) return std::string(to_string(d.role));
  return is_marker_socket(d) ? "markers (fd 3)" : "other";
}

/// The destinations a write-family call went to (or the stopped one was going to).
bool written_to(const trace_summary& t, std::size_t i) {
  return t.destinations[i].write_calls > 0 || (t.stopped && t.stopped->dest == static_cast<int>(i));
}

/// E as the next mark of LANE: a call that ran is then no longer "not logged".
void add_mark(const trace_summary& t, timeline_lane& lane, const trace_event& e) {
  const auto number = static_cast<std::int64_t>(lane.marks.size()) + 1;
  lane.marks.push_back(
      write_mark(e, number, destination_name(t.destinations[static_cast<std::size_t>(e.dest)])));
  if (!e.stopped) --lane.not_logged;
}

/// The write lanes, and the lane of each destination (SIZE_MAX: none).
struct write_lane_set {
  std::vector<timeline_lane> lanes;
  std::vector<std::size_t> lane_of;

  /// E's lane, or nullptr if its destination has none.
  timeline_lane* lane(const trace_event& e) {
    const bool drawn = e.dest >= 0 && lane_of[static_cast<std::size_t>(e.dest)] != SIZE_MAX;
    return drawn ? &lanes[lane_of[static_cast<std::size_t>(e.dest)]] : nullptr;
  }
};

/// One empty lane per destination written to, in order of first use.
write_lane_set empty_write_lanes(const trace_summary& t) {
  write_lane_set set{{}, std::vector<std::size_t>(t.destinations.size(), SIZE_MAX)};
  for (std::size_t i = 0; i < t.destinations.size(); ++i) {
    if (!written_to(t, i)) continue;
    const auto& d = t.destinations[i];
    set.lane_of[i] = set.lanes.size();
    set.lanes.push_back({"write(2) → " + lane_name(d), lane_kind::write, d.role, d.what, {}, 0});
    set.lanes.back().not_logged = d.write_calls;
  }
  return set;
}

/// One lane per destination written to, in order of first use; the stopped
/// call in its lane, after the calls that ran.
std::vector<timeline_lane> write_lanes(const trace_summary& t) {
  write_lane_set set = empty_write_lanes(t);
  bool stopped_logged = false;
  for (auto e : t.events) {
    e.stopped = e.stopped && t.stopped;  // a handler that returned let it run after all
    if (timeline_lane* l = set.lane(e); l && is_write_family(e.call)) add_mark(t, *l, e);
    stopped_logged = stopped_logged || e.stopped;
  }
  if (t.stopped && !stopped_logged)
    if (timeline_lane* l = set.lane(*t.stopped)) add_mark(t, *l, *t.stopped);
  return std::move(set.lanes);
}

/// Chunk C, the Ith read of STREAM, TOTAL bytes read by its end.
timeline_mark read_mark(const chunk& c, std::size_t i, const std::string& stream,
                        std::uint64_t total) {
  return {c.t_us, -1, static_cast<std::int64_t>(c.bytes), false,
          "read #" + std::to_string(i + 1) + " of " + stream + ": " + std::to_string(c.bytes) +
              " bytes at " + format_ms(c.t_us) + "; " + std::to_string(total) +
              " bytes in all by then"};
}

timeline_lane reader_lane(const stream_observation& s, const std::string& stream) {
  timeline_lane lane{
      "reader ← " + stream, lane_kind::read, stream_role::none, std::string(s.sink.name()), {}, 0};
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < s.chunks.size(); ++i) {
    total += s.chunks[i].bytes;
    lane.marks.push_back(read_mark(s.chunks[i], i, stream, total));
  }
  const auto reads = static_cast<std::int64_t>(s.reads);
  lane.not_logged = reads > static_cast<std::int64_t>(s.chunks.size())
                        ? reads - static_cast<std::int64_t>(s.chunks.size())
                        : 0;
  return lane;
}

/// Is LANE the write lane of the sink of stdout (or stderr), alone or
/// shared (2>&1, or both on one /dev/null)?
bool writes_of(const timeline_lane& lane, bool err) {
  return lane.kind == lane_kind::write && has(lane.role, err ? stream_role::err : stream_role::out);
}

/// A lane for each stream's sink the program never wrote to: it is what a
/// cut shows (all still in a buffer), so it is drawn, empty.
void add_unwritten(std::vector<timeline_lane>& lanes, const observation& obs) {
  std::size_t at = 0;
  for (const bool err : {false, true}) {
    if (err && obs.err.sink.merged()) continue;  // 2>&1: one sink
    if (std::none_of(lanes.begin(), lanes.end(),
                     [&](const timeline_lane& l) { return writes_of(l, err); }))
      lanes.insert(lanes.begin() + static_cast<std::ptrdiff_t>(at),
                   {std::string("write(2) → ") + (err ? "stderr" : "stdout"),
                    lane_kind::write,
                    err ? stream_role::err : stream_role::out,
                    "no call",
                    {},
                    0});
    ++at;
  }
}

}  // namespace

bool has_reader(const stream_observation& s) {
  const auto kind = s.sink.sink();
  return kind && sink_shows_data(*kind);
}

std::vector<timeline_lane> timeline_lanes(const observation& obs) {
  std::vector<timeline_lane> lanes;
  if (obs.trace) {
    lanes = write_lanes(*obs.trace);
    add_unwritten(lanes, obs);
  }
  if (has_reader(obs.out))
    lanes.push_back(reader_lane(obs.out, obs.err.sink.merged() ? "stdout+stderr" : "stdout"));
  if (has_reader(obs.err)) lanes.push_back(reader_lane(obs.err, "stderr"));
  return lanes;
}

namespace {

/// What the reader lanes cannot show: a sink without a reader, a file's
/// reads.
void add_missing_readers(std::vector<std::string>& out, const observation& obs) {
  for (const auto* s : {&obs.out, &obs.err})
    if (s->sink.sink() && !has_reader(*s))
      out.push_back("no reader lane for " + std::string(s == &obs.out ? "stdout" : "stderr") +
                    ": its sink, " + std::string(s->sink.name()) + ", has no reader");
  for (const auto* s : {&obs.out, &obs.err})
    if (s->sink == destination(sink_kind::file))
      out.push_back(std::string(s == &obs.out ? "stdout" : "stderr") +
                    "'s file is read once, at the end: one chunk");
}

}  // namespace

std::vector<std::string> missing_lanes(const observation& obs) {
  std::vector<std::string> out;
  if (!obs.trace)
    out.push_back("no write(2) lanes: the run was not traced (run --trace draws each call)");
  else if (!obs.trace->writes_timed)
    out.push_back("writes drawn at their entry: how long each blocked needs run --timeline");
  add_missing_readers(out, obs);
  return out;
}

}  // namespace flushcheck
