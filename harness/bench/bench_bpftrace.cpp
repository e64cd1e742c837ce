// bpftrace as the tracer suite's yardstick: started on a pipe, waited for
// until its BEGIN probe says that every probe is attached, stopped by its
// own exit() when the harness makes a call that a probe of the script
// waits for, after which its END probe prints its map, "@[PID]: COUNT" per
// line, then a line that says the counts are whole. Its exit comes after
// (it detaches its probes): the counts do not wait for it.
//
// Not SIGINT: bpftrace 0.17 (Debian 12) can lose it. Its poll loop
// (src/bpftrace.cpp, BPFtrace::poll_perf_events, v0.17.0) ends only when
// epoll_wait fails with EINTR or times out after an exit(); a SIGINT whose
// handler runs while the loop is outside epoll_wait sets exitsig_recv, which
// the loop never reads, and bpftrace polls on. Two sessions at once, each
// SIGINTed after a dd: 2 of 56 never ended here (wchan do_epoll_wait, no
// signal pending, polling on 45 s later; an strace attach ends it). Upstream checks exitsig_recv in
// the loop since 67d4bd7c7 (v0.19.0); Debian 13 ships 0.27.
#include "bench_bpftrace.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <regex>

#include "clean_environment.hpp"
#include "error.hpp"
#include "retry_eintr.hpp"
#include "spawn.hpp"

namespace flushcheck::detail {
namespace {

const char* const k_bpftrace = "/usr/bin/bpftrace";
/// What its END probe prints after the counts.
const char* const k_counted = "flushcheck: counted\\n";
constexpr std::size_t k_max_output = 1 << 20;

/// The fd that finish() closes, which no process has open (close fails
/// with EBADF): the script's exit() waits for the harness's close of it.
constexpr long k_exit_fd = 1000000000;

/// The script; COMM goes into a bpftrace string literal, so it may hold
/// neither a quote nor a backslash.
std::string script(const std::string& comm) {
  if (comm.find_first_of("\"\\") != std::string::npos)
    throw harness_error({EINVAL, std::generic_category()},
                        "bpftrace: a program name with a quote or a backslash: " + comm);
  return "BEGIN { printf(\"flushcheck: attached\\n\"); }\n"
         "tracepoint:syscalls:sys_enter_write /comm == \"" +
         comm + "\"/ { @[pid] = count(); }\n" +
         "tracepoint:syscalls:sys_enter_close /pid == " + std::to_string(::getpid()) +
         " && args->fd == " + std::to_string(k_exit_fd) + "/ { exit(); }\n" +
         "END { print(@); clear(@); printf(\"" + k_counted + "\"); }\n";
}

/// bpftrace counting COMM's writes, its stdin on IN, stdout and stderr on OUT.
child_process spawn_bpftrace(const std::string& comm, int in, int out) {
  // -B line: its output reaches the pipe a line at a time, not at its exit.
  return spawn({{k_bpftrace, "-B", "line", "-e", script(comm.substr(0, 15))},
                clean_environment(),
                in,
                out,
                out});
}

/// Why bpftrace did not attach: not within 60 s, or it ended first (CLOSED),
/// saying why in the last line of TEXT, what it printed.
[[noreturn]] void throw_not_attached(const std::string& text, bool closed) {
  std::string said = text;  // its last line says why
  while (!said.empty() && said.back() == '\n') said.pop_back();
  said = said.substr(said.rfind('\n') == std::string::npos ? 0 : said.rfind('\n') + 1);
  if (!closed)
    throw harness_error({ETIMEDOUT, std::generic_category()},
                        "bpftrace did not attach within 60 s");
  throw harness_error(
      std::make_error_code(std::errc::operation_canceled),
      "bpftrace ended before it attached (its last line: " + said.substr(0, 300) + ")");
}

/// The "@[PID]: COUNT" lines of TEXT: each pid's count.
std::map<pid_t, long> counts_in(const std::string& text) {
  std::map<pid_t, long> counts;
  static const std::regex line(R"(@\[(\d+)\]: (\d+))");
  for (std::sregex_iterator m(text.begin(), text.end(), line), end; m != end; ++m)
    counts[static_cast<pid_t>(std::stol((*m)[1]))] = std::stol((*m)[2]);
  return counts;
}

}  // namespace

std::string bpftrace_unavailable_reason() {
  if (::access(k_bpftrace, X_OK) != 0) return "bpftrace is not installed (Debian package bpftrace)";
  return "";
}

bpftrace_session::bpftrace_session(const std::string& comm) {
  int p[2];
  if (::pipe2(p, O_CLOEXEC) != 0) throw_errno("bpftrace: pipe");
  out_.reset(p[0]);
  unique_fd write_end(p[1]);
  unique_fd null(::open("/dev/null", O_RDWR | O_CLOEXEC));
  child_ = spawn_bpftrace(comm, null.get(), write_end.get());
  write_end.reset();
  if (read_until("flushcheck: attached\n", 60000)) return;
  throw_not_attached(text_, closed_);
}

bool bpftrace_session::read_some(std::chrono::steady_clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      deadline - std::chrono::steady_clock::now());
  pollfd pfd{out_.get(), POLLIN, 0};
  if (left.count() <= 0 || ::poll(&pfd, 1, static_cast<int>(left.count())) <= 0) return false;
  char buf[4096];
  const ssize_t n = retry_eintr([&] { return ::read(out_.get(), buf, sizeof buf); });
  if (n <= 0) {
    closed_ = true;
    return false;
  }
  if (text_.size() < k_max_output) text_.append(buf, static_cast<std::size_t>(n));
  return true;
}

bool bpftrace_session::read_until(const std::string& text, int timeout_ms) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  while (text_.find(text) == std::string::npos)
    if (!read_some(deadline)) return false;
  return true;
}

std::map<pid_t, long> bpftrace_session::finish() {
  ::close(static_cast<int>(k_exit_fd));  // EBADF; the script's exit() follows
  const std::size_t from = text_.size();
  const bool counted = read_until("flushcheck: counted\n", 30000);
  // Its exit, after: detaching its probes took over 30 s beside a full
  // ctest once; the counts are whole already, so it is given 10 s, then killed.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (read_some(deadline)) {
  }
  if (!closed_) child_.signal_group(SIGKILL);
  child_.reap();
  if (!counted)
    throw harness_error({ETIMEDOUT, std::generic_category()},
                        closed_ ? "bpftrace ended without printing its counts"
                                : "bpftrace printed no counts within 30 s of its exit()");
  return counts_in(text_.substr(from));
}

}  // namespace flushcheck::detail
