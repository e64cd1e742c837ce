#include "model_kernel.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>

namespace flushcheck::detail {

bool merged(const model_setup& s) { return !s.stderr_sink.has_value(); }

int dest_of(const model_setup& s, channel c) { return fd_of(c) == 1 || merged(s) ? 0 : 1; }

sink_kind dest_sink(const model_setup& s, int d) {
  return d == 0 ? s.stdout_sink : s.stderr_sink.value_or(s.stdout_sink);
}

bool reaches(const model_setup& s, const fault_plan& f, int d) {
  return f.where == fault_plan::target::stdout_sink ? d == 0 : d == dest_of(s, channel::c_err);
}

bool faults_reach(const model_setup& s, int d) {
  return std::any_of(s.faults.begin(), s.faults.end(),
                     [&](const fault_plan& f) { return reaches(s, f, d); });
}

void model_kernel::ignore(long sig) {
  if (sig != SIGKILL && sig != SIGSTOP) ignored_[static_cast<std::size_t>(sig)] = true;
}

/// What the kernel does with the NTH call of N bytes to destination D:
/// the first fault plan that selects the call decides, as in the tracer
/// (a short write still reaches the sink); /dev/full fails every call that
/// has bytes (an empty writev returns 0 before the driver:
/// fs/read_write.c, do_iter_write).
model_kernel::result model_kernel::answer(int d, long nth, std::size_t n) const {
  for (const auto& f : setup_.faults) {
    if (!reaches(setup_, f, d) || !f.selects(nth)) continue;
    if (f.error != 0) return {-1, f.error == EPIPE};
    n = std::min(n, static_cast<std::size_t>(f.short_bytes));
    break;
  }
  if (dest_sink(setup_, d) == sink_kind::full && n > 0) return {-1};
  return {static_cast<long>(n)};
}

long model_kernel::call(channel ch, std::string_view bytes, int op, bool report) {
  const int d = dest_of(setup_, ch);
  const long nth = ++calls_on_[d];
  const bool cut_here = d == 0 && nth == cut_.n;
  if (cut_here && cut_.when == kill_plan::when_kind::write)
    throw ended{wait_status::signaled(cut_.signal), true};
  const result r = answer(d, nth, bytes.size());
  record(ch, bytes, r.bytes, op, report);
  signals_after(r.sigpipe, cut_here && cut_.when == kill_plan::when_kind::after_write);
  return r.bytes;
}

/// After a call: the SIGPIPE it raised (when not ignored) and the cut after
/// it (CUT_AFTER) end the program, whichever the kernel delivers first.
void model_kernel::signals_after(bool sigpipe, bool cut_after) const {
  // Both pending at once: SIGKILL ends the process first, else the lower
  // number (SIGPIPE, 13) is delivered first (kernel/signal.c, next_signal).
  const bool cut_first = cut_.signal == SIGKILL || cut_.signal < SIGPIPE;
  if (sigpipe && !ignored(SIGPIPE))
    throw ended{wait_status::signaled(cut_after && cut_first ? cut_.signal : SIGPIPE), cut_after};
  if (cut_after) throw ended{wait_status::signaled(cut_.signal), true};
}

void model_kernel::record(channel ch, std::string_view bytes, long taken, int op, bool report) {
  auto& got = delivered_[static_cast<std::size_t>(ch)];
  const std::size_t from = got.size();
  if (!report && taken > 0) got.append(bytes.substr(0, static_cast<std::size_t>(taken)));
  calls_.push_back({ch, from, got.size(), op, bytes.size(), taken, report});
}

}  // namespace flushcheck::detail
