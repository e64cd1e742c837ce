// The ops of a script, driven in order through the program's streams.
#include "model_simulation.hpp"

#include <csignal>

namespace flushcheck::detail {

simulation::simulation(const model_setup& setup, const script& s, const kill_plan& cut)
    : setup_(setup),
      script_(s),
      cut_(cut),
      fx_(setup, cut),
      stdio_(setup, fx_),
      streams_(setup, stdio_, fx_) {}

prediction simulation::run() {
  prediction p;
  try {
    run_ops(p);
  } catch (const ended& e) {
    p.kill_delivered = e.cut;
    p.status = e.status;
  }
  finish(p);
  return p;
}

void simulation::run_ops(prediction& p) {
  for (fx_.op = 0; fx_.op < static_cast<int>(script_.ops.size()); ++fx_.op) {
    const fc_op& op = script_.ops[static_cast<std::size_t>(fx_.op)];
    if (op.kind == FC_MARKER) at_marker();
    if (end_op(op, p)) return;
    step(op);
  }
  fx_.op = static_cast<int>(script_.ops.size());
  // The targets return 1 when they reported an error, then exit flushes.
  p.status = wait_status::exited(fx_.reports > 0 ? 1 : 0);
  exit_flush();
}

/// A marker op: the cut at the N-th marker ends the program there.
void simulation::at_marker() {
  ++markers_;
  if (cut_.when == kill_plan::when_kind::marker && markers_ == cut_.n)
    throw ended{wait_status::signaled(cut_.signal), true};
}

/// The op ends the program: record the status and what flushes first.
bool simulation::end_op(const fc_op& op, prediction& p) {
  switch (op.kind) {
    case FC_EXIT:
    case FC_RETURN:
      p.status = wait_status::exited(static_cast<int>(op.n));
      exit_flush();
      return true;
    case FC_UEXIT:
    case FC_QUICK_EXIT: p.status = wait_status::exited(static_cast<int>(op.n)); return true;
    case FC_ABORT: p.status = wait_status::signaled(SIGABRT); return true;
    case FC_CRASH: p.status = wait_status::signaled(SIGSEGV); return true;
    case FC_THROW:
      p.status = wait_status::signaled(SIGABRT);
      p.runtime_message = true;
      return true;
    case FC_RAISE:
      if (!is_ending_op(op) || fx_.kernel.ignored(op.n)) return false;
      p.status = wait_status::signaled(static_cast<int>(op.n));
      return true;
    default: return false;
  }
}

void simulation::step(const fc_op& op) {
  switch (op.kind) {
    case FC_WRITE: output(op, payload(op.n, false), false); break;
    case FC_LINE: output(op, payload(op.n, true), false); break;
    // C: fwrite("\n"). C++: os << '\n', which libstdc++ 12 turns into put()
    // when width() is 0 (<ostream>); libc++ inserts it with sputn. Both
    // reach the FILE as one byte; put is what tells putc from fwrite. Up
    // to libstdc++ 11 (<ostream>) it is __ostream_insert: fwrite.
    case FC_NEWLINE: output(op, "\n", cxx() && streams_.newline_per_char()); break;
    case FC_PUTC: output(op, payload(op.n, false), true); break;
    case FC_ENDL: streams_.endl(op.stream); break;
    case FC_PRINTF:
    case FC_FPUTS: stdio_.call(op, payload(op.n, false)); break;
    case FC_FLUSH: flush_op(op.stream); break;
    case FC_SETVBUF: stdio_.file(op.stream).setvbuf(op.mode, static_cast<std::size_t>(op.n)); break;
    default: setting(op);
  }
}

/// The ops that change a setting, and stdin's reads.
void simulation::setting(const fc_op& op) {
  if (streams_.setting(op)) return;
  switch (op.kind) {
    case FC_IGNORE: fx_.kernel.ignore(op.n); break;
    case FC_READ:
    case FC_GETLINE:
      if (cxx()) streams_.read();
      break;
    default: break;  // marker, sleep, a raise of an ignored signal
  }
}

/// write/line/newline/putc: C stdio in C, an ostream in C++.
void simulation::output(const fc_op& op, const std::string& bytes, bool per_char) {
  cxx() ? streams_.output(op, bytes, per_char) : stdio_.output(op, bytes, per_char);
}

void simulation::flush_op(fc_stream s) { cxx() ? streams_.flush_op(s) : stdio_.flush_op(s); }

/// exit(): in C++, the streams first (ios_base::Init's destructor); then
/// stdio flushes every FILE. Nothing is reported.
void simulation::exit_flush() {
  if (cxx()) streams_.exit_flush();
  stdio_.flush_all();
}

std::string simulation::payload(std::size_t n, bool newline) const {
  std::string s(n, fc_payload_char(fx_.op));
  if (newline) s += '\n';
  return s;
}

}  // namespace flushcheck::detail
