#include "script.hpp"

#include <csignal>
#include <cstdlib>
#include <memory>

#include "error.hpp"
#include "signals.hpp"

namespace flushcheck {

script script::parse(std::string_view text) {
  fc_script parsed{};
  char err[256] = {0};
  std::string src(text);
  if (fc_parse(src.c_str(), &parsed, err, sizeof err) != 0) {
    std::free(parsed.ops);
    throw usage_error(std::string("bad script: ") + err);
  }
  std::unique_ptr<fc_op, decltype(&std::free)> owned(parsed.ops, &std::free);
  return script{std::vector<fc_op>(parsed.ops, parsed.ops + parsed.count)};
}

std::string script::text() const {
  std::string out;
  for (const auto& op : ops) {
    if (!out.empty()) out += "; ";
    out += op_text(op);
  }
  return out;
}

namespace {

const char* stream_name(fc_stream s) {
  switch (s) {
    case FC_OUT: return "out";
    case FC_ERR: return "err";
    case FC_LOG: return "log";
    case FC_IN: return "in";
    case FC_ALL: return "all";
  }
  return "out";
}

const char* mode_name(int mode) {
  return mode == FC_BUF_LINE ? "line" : mode == FC_BUF_NONE ? "none" : "full";
}

const char* open_mode_name(int mode) {
  return mode == FC_OPEN_APPEND ? "append" : mode == FC_OPEN_DIRECT ? "direct" : "plain";
}

const char* advice_name(int advice) {
  static const char* const names[] = {"normal",   "sequential", "random",
                                      "willneed", "dontneed",   "noreuse"};
  return advice >= 0 && advice <= FC_ADV_NOREUSE ? names[advice] : "normal";
}

}  // namespace

std::string op_text(const fc_op& op) {
  const std::string n = std::to_string(op.n);
  const std::string s = stream_name(op.stream);
  const std::string on = op.n != 0 ? "on" : "off";
  switch (op.kind) {
    case FC_WRITE: return "write " + n + " " + s;
    case FC_LINE: return "line " + n + " " + s;
    case FC_PUTC: return "putc " + n + " " + s;
    case FC_PRINTF: return "printf " + n;
    case FC_FPUTS: return "fputs " + n + " " + s;
    case FC_NEWLINE: return "newline " + s;
    case FC_ENDL: return "endl " + s;
    case FC_FLUSH: return "flush " + s;
    case FC_SETVBUF: return std::string("setvbuf ") + mode_name(op.mode) + " " + n + " " + s;
    case FC_SYNC: return "sync_with_stdio " + on;
    case FC_TIE: return "tie " + s + " " + on;
    case FC_UNITBUF: return "unitbuf " + on + " " + s;
    case FC_READ: return "read " + n;
    case FC_GETLINE: return "getline";
    case FC_MARKER: return std::string("marker ") + op.label;
    case FC_SLEEP: return "sleep " + n;
    case FC_CLOSE: return "close " + s;
    case FC_EXIT: return "exit " + n;
    case FC_UEXIT: return "_exit " + n;
    case FC_QUICK_EXIT: return "quick_exit " + n;
    case FC_ABORT: return "abort";
    case FC_RETURN: return "return " + n;
    case FC_RAISE: return "raise " + signal_name(static_cast<int>(op.n));
    case FC_CRASH: return "crash";
    case FC_THROW: return "throw";
    case FC_IGNORE: return "ignore " + signal_name(static_cast<int>(op.n));
    case FC_CLEAR: return "clear " + on;
    case FC_FORK: return "fork " + n;
    case FC_THREADS: return "threads " + n;
    case FC_BARRIER: return "barrier";
    case FC_FSYNC: return "fsync " + s;
    case FC_REOPEN: return std::string("reopen ") + open_mode_name(op.mode) + " " + s;
    case FC_SYSWRITE: return "syswrite " + n + " " + std::to_string(op.offset) + " " + s;
    case FC_FADVISE: return std::string("fadvise ") + advice_name(op.mode) + " " + s;
    case FC_RESIDENT: return "resident " + s;
    case FC_LOCK: return "lock " + s;
    case FC_UNLOCK: return "unlock " + s;
    case FC_PUTC_UNLOCKED: return "putc_unlocked " + n + " " + s;
  }
  return "?";
}

bool is_output_op(const fc_op& op) {
  switch (op.kind) {
    case FC_WRITE:
    case FC_LINE:
    case FC_PUTC:
    case FC_PUTC_UNLOCKED:
    case FC_PRINTF:
    case FC_FPUTS:
    case FC_NEWLINE:
    case FC_ENDL: return true;
    default: return false;
  }
}

bool is_fd_op(const fc_op& op) { return fc_is_fd_op(op.kind) != 0; }

bool is_ending_op(const fc_op& op) {
  switch (op.kind) {
    case FC_EXIT:
    case FC_UEXIT:
    case FC_QUICK_EXIT:
    case FC_ABORT:
    case FC_RETURN:
    case FC_CRASH:
    case FC_THROW: return true;
    case FC_RAISE:
      return op.n == SIGTERM || op.n == SIGINT || op.n == SIGHUP || op.n == SIGKILL ||
             op.n == SIGABRT || op.n == SIGSEGV || op.n == SIGUSR1 || op.n == SIGUSR2;
    default: return false;
  }
}

}  // namespace flushcheck
