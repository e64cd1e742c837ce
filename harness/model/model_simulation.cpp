// The ops of a script, driven in order, and C stdio's side of them.
#include "model_simulation.hpp"

#include <csignal>

namespace flushcheck::detail {

int stream_index(fc_stream s) { return s == FC_ERR ? 1 : s == FC_LOG ? 2 : 0; }
channel c_channel(fc_stream s) { return s == FC_ERR ? channel::c_err : channel::c_out; }
channel cxx_channel(fc_stream s) { return s == FC_OUT ? channel::cxx_out : channel::cxx_err; }

simulation::simulation(const model_setup& setup, const script& s, const kill_plan& cut)
    : setup_(setup), script_(s), cut_(cut), kernel_(setup, cut) {
  out_ = make_file(true, channel::c_out);
  err_ = make_file(false, channel::c_err);
}

std::unique_ptr<c_file> simulation::make_file(bool is_stdout, channel ch) {
  write_call call = [this, ch](std::string_view bytes) {
    return kernel_.call(ch, bytes, op_, false);
  };
  const bool tty = is_tty(dest_sink(setup_, is_stdout ? 0 : 1));
  if (setup_.profile.libc == libc_impl::musl)
    return make_musl_file(is_stdout, tty, std::move(call));
  const auto& release = setup_.profile.libc_release;
  return make_glibc_file(!is_stdout, tty, setup_.st_blksize[is_stdout ? 0 : 1],
                         glibc_release_rules::of(release.major, release.minor), std::move(call));
}

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
  for (op_ = 0; op_ < static_cast<int>(script_.ops.size()); ++op_) {
    const fc_op& op = script_.ops[op_];
    if (op.kind == FC_MARKER) at_marker();
    if (end_op(op, p)) return;
    step(op);
  }
  op_ = static_cast<int>(script_.ops.size());
  // The targets return 1 when they reported an error, then exit flushes.
  p.status = wait_status::exited(reports_ > 0 ? 1 : 0);
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
      if (!is_ending_op(op) || kernel_.ignored(op.n)) return false;
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
    case FC_NEWLINE: output(op, "\n", cxx() && !libstdcxx_before(12)); break;
    case FC_PUTC: output(op, payload(op.n, false), true); break;
    case FC_ENDL: endl(op.stream); break;
    case FC_PRINTF:
    case FC_FPUTS: c_call(op, payload(op.n, false)); break;
    case FC_FLUSH: cxx() ? cxx_flush_op(op.stream) : c_flush_op(op.stream); break;
    case FC_SETVBUF: file(op.stream).setvbuf(op.mode, static_cast<std::size_t>(op.n)); break;
    default: setting(op);
  }
}

/// The ops that change a setting, and stdin's reads.
void simulation::setting(const fc_op& op) {
  switch (op.kind) {
    case FC_SYNC: cxx_.synced = op.n != 0; break;
    case FC_TIE: set_tie(op); break;
    case FC_UNITBUF: cxx_.unitbuf[stream_index(op.stream)] = op.n != 0; break;
    case FC_CLEAR: cxx_.clear = op.n != 0; break;
    case FC_IGNORE: kernel_.ignore(op.n); break;
    case FC_READ:
    case FC_GETLINE:  // istream's sentry flushes tie() (cin is good: the target clears it)
      if (cxx() && cxx_.cin_tied) cxx_flush(FC_OUT);
      break;
    default: break;  // marker, sleep, a raise of an ignored signal
  }
}

/// "tie in|err|log on|off": cin, cerr or clog tied to cout, or not.
void simulation::set_tie(const fc_op& op) {
  if (op.stream == FC_IN) cxx_.cin_tied = op.n != 0;
  if (op.stream == FC_ERR) cxx_.cerr_tied = op.n != 0;
  if (op.stream == FC_LOG) cxx_.clog_tied = op.n != 0;
}

std::string simulation::payload(std::size_t n, bool newline) const {
  std::string s(n, fc_payload_char(op_));
  if (newline) s += '\n';
  return s;
}

void simulation::give(channel ch, const std::string& bytes) {
  meant_[static_cast<std::size_t>(ch)] += bytes;
}

/// The targets' error report: one write(2) to fd 2, never retried.
void simulation::report() {
  ++reports_;
  kernel_.call(channel::c_err, "target error report", op_, true);
}

// -- C stdio ------------------------------------------------------------------

/// printf("%s") or fputs (from C or C++): reported when it fails.
void simulation::c_call(const fc_op& op, const std::string& bytes) {
  const fc_stream s = op.kind == FC_PRINTF ? FC_OUT : op.stream;
  give(c_channel(s), bytes);
  const bool ok = op.kind == FC_PRINTF ? file(s).printf(bytes) : file(s).fputs(bytes);
  if (!ok) report();
}

/// fwrite of the bytes, or a putc loop that stops at the first EOF:
/// reported once when it fails (targets/script/stdio_script.c).
void simulation::c_output(const fc_op& op, const std::string& bytes, bool per_char) {
  give(c_channel(op.stream), bytes);
  c_file& f = file(op.stream);
  bool ok = true;
  if (per_char) {
    for (std::size_t i = 0; ok && i < bytes.size(); ++i) ok = f.putc(bytes[i]);
  } else if (!bytes.empty()) {
    ok = f.fwrite(bytes);
  }
  if (!ok) report();
}

void simulation::c_flush_op(fc_stream s) {
  const bool ok = s == FC_ALL ? all_c_flush() : file(s).fflush();
  if (!ok) report();
}

/// fflush(NULL) and exit's flush: glibc walks _IO_list_all (stderr,
/// stdout); musl flushes stdout, then stderr. Each is flushed whatever
/// the other did.
bool simulation::all_c_flush() {
  const bool musl = setup_.profile.libc == libc_impl::musl;
  const bool first = (musl ? out_ : err_)->fflush();
  const bool second = (musl ? err_ : out_)->fflush();
  return first && second;
}

}  // namespace flushcheck::detail
