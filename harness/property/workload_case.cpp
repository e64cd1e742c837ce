// A generated case, as it runs (workload_case.hpp).
#include "workload_case.hpp"

#include <algorithm>

namespace flushcheck {

std::string workload_op::text() const {
  switch (what) {
    case kind::log:
      return "log " + workload_levels()[static_cast<std::size_t>(level)] + " " +
             std::to_string(bytes);
    case kind::flush: return "flush";
    case kind::sleep: return "sleep " + std::to_string(ms);
  }
  return "";
}

void showValue(const workload_case& c, std::ostream& os) {
  os << "{ops: [";
  for (std::size_t i = 0; i < c.ops.size(); ++i) os << (i ? "; " : "") << c.ops[i].text();
  os << "], end: " << end_name(c.end) << ", sink: " << to_string(c.sink)
     << ", threads: " << c.threads << " at op " << c.threads_at << ", cut: " << to_string(c.cut)
     << ", fault: " << c.fault << ", at: " << c.at << ", marker at op " << c.marker_at << "}";
}

std::string case_plan::key() const {
  std::string k;
  for (const auto& op : workload) k += op + ";";
  return k + "|" + cut + "|" + fault.value_or("") + "|" + std::string(to_string(sink));
}

namespace {

/// The workload's last op for an end the program does itself.
std::string end_op(property_end e) {
  switch (e) {
    case property_end::exit: return "exit 0";
    case property_end::underscore_exit: return "_exit 0";
    case property_end::abort: return "abort";
    case property_end::throw_: return "throw";
    default: return "return 0";
  }
}

/// NAME with fnmatch(3)'s special characters escaped: it matches itself.
std::string glob_escaped(const std::string& name) {
  std::string out;
  for (char c : name) {
    if (c == '\\' || c == '*' || c == '?' || c == '[' || c == ']') out += '\\';
    out += c;
  }
  return out;
}

}  // namespace

std::string nth_write_to(const property_spec& spec, long n) {
  const std::string dest = spec.in.is_file()
                               ? "file:{logdir}/*" + glob_escaped(spec.in.file_name()) + "*:"
                           : spec.in.is_err() ? "stderr:"
                                              : "";
  return dest + "write:" + std::to_string(n);
}

namespace {

/// How people read an end the program does itself: each helper's word for
/// it where they differ (docs/workload.md): Node's `exit` only sets
/// process.exitCode, and what Node users call exit, process.exit(), is `_exit`.
std::string end_text(property_end e) {
  switch (e) {
    case property_end::exit: return "exit 0 (Node: process.exitCode = 0)";
    case property_end::underscore_exit:
      return "_exit 0 (Node: process.exit(0); Python: os._exit(0))";
    case property_end::throw_: return "throw (an uncaught exception)";
    default: return end_op(e);
  }
}

/// The cut, and how people read it.
void plan_cut(const property_spec& spec, const workload_case& c, case_plan& p) {
  const std::string sig = c.end == property_end::term ? "TERM" : "KILL";
  if (c.cut == kill_plan::when_kind::marker) {
    p.cut = sig + "@marker:1";
    p.end = "SIG" + sig + " at marker 1 (after " + std::to_string(p.logged) + " records logged)";
  } else if (c.cut == kill_plan::when_kind::write) {
    p.cut = sig + "@" + nth_write_to(spec, c.at + 1);
    p.end = "SIG" + sig + " at write " + std::to_string(c.at + 1) + " to " + spec.in.text();
  } else {
    p.cut = sig + "@time:" + std::to_string(c.at * 5);
    p.end = "SIG" + sig + " " + std::to_string(c.at * 5) + " ms after the start";
  }
}

/// The fault at a write to the records' destination.
void plan_fault(const property_spec& spec, const workload_case& c, case_plan& p) {
  const std::string what = c.fault == "short" ? "short:1" : c.fault;
  p.fault = what + "@" + nth_write_to(spec, c.at + 1);
  p.end =
      what + " at write " + std::to_string(c.at + 1) + " to " + spec.in.text() + ", then return 0";
}

/// Counts what the promise needs as op I (a log of record N-1 or a flush) passes.
void count(const workload_op& op, long n, case_plan& p) {
  if (op.what == workload_op::kind::flush) p.before_last_flush = n;
  if (op.what != workload_op::kind::log) return;
  for (int level = 0; level <= op.level; ++level) p.through_level[level] = n;
}

/// C's ops before STOP into P's workload, `threads K` before op SPLIT when
/// threaded, with the records they log and what the promise counts.
void plan_ops(const workload_case& c, std::size_t stop, std::size_t split, int k, case_plan& p) {
  for (std::size_t i = 0; i < stop; ++i) {
    if (p.threaded && i == split) p.workload.push_back("threads " + std::to_string(k));
    p.workload.push_back(c.ops[i].text());
    if (c.ops[i].what == workload_op::kind::log) ++p.logged;
    if (i < split) count(c.ops[i], p.logged, p);
  }
}

/// How C ends: the workload's last ops (after a MARKER_CUT's marker), and
/// the cut or the fault.
void plan_end(const property_spec& spec, const workload_case& c, bool marker_cut, case_plan& p) {
  if (marker_cut) p.workload.push_back("marker cut");
  p.workload.push_back(end_op(c.end));
  p.end = end_text(c.end);
  if (is_cut(c.end)) plan_cut(spec, c, p);
  if (c.end == property_end::fault) plan_fault(spec, c, p);
}

}  // namespace

case_plan plan_of(const property_spec& spec, const workload_case& c) {
  case_plan p;
  p.sink = c.sink;
  const bool marker_cut = is_cut(c.end) && c.cut == kill_plan::when_kind::marker;
  const std::size_t stop = marker_cut ? std::min(c.marker_at, c.ops.size()) : c.ops.size();
  const int k = std::min(c.threads, spec.threads);
  p.threaded = k >= 2 && !marker_cut && stop > 0;
  const std::size_t split = p.threaded ? std::min(c.threads_at, stop - 1) : stop;
  plan_ops(c, stop, split, k, p);
  p.logged_exactly = !is_cut(c.end) || marker_cut;
  p.ordinary = !is_cut(c.end) && c.end != property_end::fault;
  plan_end(spec, c, marker_cut, p);
  return p;
}

}  // namespace flushcheck
