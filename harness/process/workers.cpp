#include "workers.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <exception>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "child.hpp"
#include "cpu_pin.hpp"
#include "error.hpp"
#include "retry_eintr.hpp"
#include "signals.hpp"
#include "temporary.hpp"
#include "unique_fd.hpp"
#include "wait_status.hpp"
#include "wire.hpp"

namespace flushcheck {

namespace {

/// The workers alive, for end_workers: forked and listed under one lock, so
/// that an interrupt finds each one listed or not yet forked.
struct registry {
  std::mutex lock;
  std::vector<pid_t> pids;
  bool closed = false;
};
registry& workers_alive() {
  static registry r;
  return r;
}

/// What the workers share (MAP_SHARED): the next task, and whether to stop.
struct shared_counter {
  std::atomic<long> next{0};
  std::atomic<bool> stop{false};
};
static_assert(std::atomic<long>::is_always_lock_free && std::atomic<bool>::is_always_lock_free);

/// How a task ended, in its frame.
enum class ending : std::int64_t { result, usage, spawn, harness };

/// A frame: its length, then the task's number, how it ended, an error's
/// code, and its result or message.
std::string frame(long i, ending how, int code, std::string_view payload) {
  std::string body =
      wire_writer().i64(i).i64(static_cast<std::int64_t>(how)).i64(code).text(payload).take();
  return wire_writer().text(body).take();
}

bool write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = retry_eintr([&] { return ::write(fd, bytes.data(), bytes.size()); });
    if (n <= 0) return false;
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

/// TASK(I) as a frame: its result, or the error it threw.
std::string run_task(long i, const std::function<std::string(long)>& task) {
  try {
    return frame(i, ending::result, 0, task(i));
  } catch (const usage_error& e) {
    return frame(i, ending::usage, 0, e.what());
  } catch (const spawn_error& e) {
    return frame(i, ending::spawn, 0, e.what());
  } catch (const std::system_error& e) {
    // Its code's message goes again at the end of what() when it is thrown again.
    std::string what = e.what();
    if (const std::string tail = ": " + e.code().message(); what.ends_with(tail))
      what.resize(what.size() - tail.size());
    return frame(i, ending::harness, e.code().value(), what);
  } catch (const std::exception& e) {
    return frame(i, ending::harness, 0, e.what());
  }
}

/// A worker's own interrupt thread: on a signal of interrupt_signals() (from
/// end_workers, or a terminal's Ctrl-C to the whole process group), its
/// run's processes and what they left, then its temporaries, then itself.
void guard_worker() {
  const sigset_t set = interrupt_signals();
  ::pthread_sigmask(SIG_BLOCK, &set, nullptr);
  std::thread([set] {
    int sig = 0;
    while (::sigwait(&set, &sig) != 0) {
    }
    close_temporary_files();
    kill_adopted_orphans();  // its children, owned or not, generation by generation
    remove_temporary_files();
    ::_exit(128 + sig);
  }).detach();
}

/// The CPU of worker W: the W-th of those this process may use, in turn.
int cpu_of_worker(int w) {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof set, &set) != 0) return -1;
  const int n = CPU_COUNT(&set);
  if (n <= 0) return -1;
  for (int cpu = 0, seen = 0; cpu < CPU_SETSIZE; ++cpu)
    if (CPU_ISSET(cpu, &set) && seen++ == w % n) return cpu;
  return -1;
}

/// A worker, in the forked process: takes tasks until none is left or the
/// parent says stop, each result a frame on OUT; never returns.
[[noreturn]] void work(int w, pid_t parent, shared_counter& shared, long count,
                       const std::function<std::string(long)>& task, int out) {
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(70);  // the parent died before the line above
  ::prctl(PR_SET_CHILD_SUBREAPER, 1);      // not inherited from the parent
  forget_temporary_files();                // the parent's are not this worker's to remove
  detail::prefer_cpu(cpu_of_worker(w));
  guard_worker();
  while (!shared.stop.load()) {
    const long i = shared.next.fetch_add(1);
    if (i >= count || !write_all(out, run_task(i, task))) break;
  }
  ::_exit(0);
}

/// One worker, seen from the parent: its pid, and the read end of its frames.
struct worker {
  pid_t pid = -1;
  unique_fd frames;
  std::string bytes;  ///< read, not yet a whole frame
};

/// A frame, read back.
struct result {
  ending how = ending::result;
  int code = 0;
  std::string payload;
};

/// RESULT's error, thrown as the worker caught it.
[[noreturn]] void rethrow(const result& r) {
  switch (r.how) {
    case ending::usage: throw usage_error(r.payload);
    case ending::spawn: throw spawn_error(r.payload);
    default: throw harness_error(std::error_code(r.code, std::generic_category()), r.payload);
  }
}

/// The workers of one run_in_workers call, from fork to reap.
class pool {
 public:
  pool(int jobs, long count, const std::function<std::string(long)>& task);
  ~pool();
  pool(const pool&) = delete;
  pool& operator=(const pool&) = delete;
  /// Hands each result to TAKE in order until it returns false or all are
  /// taken; throws a task's error in its turn, or a dead worker's.
  void deliver(const std::function<bool(long, std::string)>& take);

 private:
  void fork_worker(int w, const std::function<std::string(long)>& task);
  /// Reads what the workers wrote, until one frame or more came (false:
  /// every worker's frames have ended).
  bool read_some();
  /// Takes WORKER's whole frames into results_.
  void take_frames(worker& wk);
  /// Stops the workers, reads their frames to the end, and reaps them; the
  /// status of one that did not exit 0, else "".
  std::string finish() noexcept;

  long count_;
  shared_counter* shared_ = nullptr;
  std::vector<worker> workers_;
  std::map<long, result> results_;
  bool finished_ = false;
};

pool::pool(int jobs, long count, const std::function<std::string(long)>& task) : count_(count) {
  void* mem = ::mmap(nullptr, sizeof(shared_counter), PROT_READ | PROT_WRITE,
                     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED) throw_errno("mmap (the workers' counter)");
  shared_ = new (mem) shared_counter;
  try {
    const int n = static_cast<int>(std::min<long>(jobs, count));
    for (int w = 0; w < n; ++w) fork_worker(w, task);
  } catch (...) {
    finish();  // the workers forked so far end
    ::munmap(shared_, sizeof(shared_counter));
    throw;
  }
}

pool::~pool() {
  finish();
  ::munmap(shared_, sizeof(shared_counter));  // trivially destructible atomics
}

void pool::fork_worker(int w, const std::function<std::string(long)>& task) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) throw_errno("pipe (a worker's results)");
  unique_fd read_end(fds[0]), write_end(fds[1]);
  registry& r = workers_alive();
  std::unique_lock<std::mutex> hold(r.lock);
  if (r.closed) {   // interrupted: the interrupt thread ends the process
    hold.unlock();  // its next round of end_workers takes the lock
    for (;;) ::pause();
  }
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) throw_errno("fork (a worker)");
  if (pid == 0) work(w, parent, *shared_, count_, task, write_end.get());
  own_child(pid);  // a run here ends its orphans, never a worker
  r.pids.push_back(pid);
  workers_.push_back({pid, std::move(read_end), {}});
}

void pool::take_frames(worker& wk) {
  for (;;) {
    if (wk.bytes.size() < 8) return;
    const std::int64_t n = wire_reader(std::string_view(wk.bytes).substr(0, 8)).i64();
    if (n < 0 || n > (std::int64_t{1} << 30))
      throw_error(std::make_error_code(std::errc::bad_message), "a worker's result is too long");
    if (wk.bytes.size() < 8 + static_cast<std::size_t>(n)) return;
    wire_reader body(std::string_view(wk.bytes).substr(8, static_cast<std::size_t>(n)));
    const long i = static_cast<long>(body.i64());
    result r;
    r.how = static_cast<ending>(body.i64());
    r.code = static_cast<int>(body.i64());
    r.payload = body.text();
    body.end();
    if (i < 0 || i >= count_ || r.how < ending::result || r.how > ending::harness)
      throw_error(std::make_error_code(std::errc::bad_message), "a worker's result is malformed");
    results_[i] = std::move(r);
    wk.bytes.erase(0, 8 + static_cast<std::size_t>(n));
  }
}

bool pool::read_some() {
  std::vector<pollfd> fds;
  std::vector<worker*> open;
  for (auto& wk : workers_)
    if (wk.frames) fds.push_back({wk.frames.get(), POLLIN, 0}), open.push_back(&wk);
  if (fds.empty()) return false;
  if (::poll(fds.data(), fds.size(), -1) < 0) {
    if (errno == EINTR) return true;
    throw_errno("poll (the workers' results)");
  }
  char buf[65536];
  for (std::size_t k = 0; k < fds.size(); ++k) {
    if (fds[k].revents == 0) continue;
    const ssize_t n = retry_eintr([&] { return ::read(fds[k].fd, buf, sizeof buf); });
    if (n <= 0) {
      open[k]->frames.reset();  // the worker ended (or its pipe failed: its results are lost)
      continue;
    }
    open[k]->bytes.append(buf, static_cast<std::size_t>(n));
    take_frames(*open[k]);
  }
  return true;
}

void pool::deliver(const std::function<bool(long, std::string)>& take) {
  for (long i = 0; i < count_;) {
    auto it = results_.find(i);
    if (it == results_.end()) {
      if (read_some()) continue;
      const std::string why = finish();
      throw_error(std::make_error_code(std::errc::io_error),
                  "a worker process ended before task " + std::to_string(i + 1) + " did" +
                      (why.empty() ? "" : " (" + why + ")"));
    }
    result r = std::move(it->second);
    results_.erase(it);
    if (r.how != ending::result) {
      finish();
      rethrow(r);
    }
    if (!take(i++, std::move(r.payload))) return;
  }
}

std::string pool::finish() noexcept {
  if (finished_) return "";
  finished_ = true;
  shared_->stop.store(true);
  std::string why;
  try {
    while (read_some()) results_.clear();  // dropped: read only so that no worker blocks
  } catch (...) {
    for (auto& wk : workers_) wk.frames.reset();  // a worker blocked on a full pipe gets EPIPE
  }
  registry& r = workers_alive();
  for (auto& wk : workers_) {
    {
      const std::lock_guard<std::mutex> hold(r.lock);
      std::erase(r.pids, wk.pid);
    }
    int raw = 0;
    if (retry_eintr([&] { return ::waitpid(wk.pid, &raw, 0); }) == wk.pid && raw != 0 &&
        why.empty())
      why = "pid " + std::to_string(wk.pid) + " " + wait_status::from_raw(raw).describe();
    disown_child(wk.pid);
  }
  return why;
}

}  // namespace

int usable_cpus() noexcept {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof set, &set) != 0) return 1;
  return std::max(1, CPU_COUNT(&set));
}

void run_in_workers(int jobs, long count, const std::function<std::string(long)>& task,
                    const std::function<bool(long, std::string)>& take) {
  if (count <= 0) return;
  pool p(std::max(1, jobs), count, task);
  p.deliver(take);
}

void end_workers() noexcept {
  registry& r = workers_alive();
  const std::lock_guard<std::mutex> hold(r.lock);
  r.closed = true;  // for good: the process is about to die
  for (pid_t pid : r.pids) ::kill(pid, SIGTERM);
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  std::vector<pid_t> left = r.pids;
  while (!left.empty() && std::chrono::steady_clock::now() < until) {
    std::erase_if(left, [](pid_t pid) { return ::waitpid(pid, nullptr, WNOHANG) != 0; });
    if (!left.empty()) ::usleep(2000);
  }
  for (pid_t pid : left) ::kill(pid, SIGKILL);
}

}  // namespace flushcheck
