#include "tracer_threads.hpp"

#include <pthread.h>

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace flushcheck::detail {
namespace {

struct pool {
  std::mutex mu;
  std::condition_variable wake;
  std::deque<std::function<void()>> jobs;
  std::size_t idle = 0;
};

// Never destroyed: its threads may still wait on it while the process exits.
pool* the_pool = nullptr;
std::once_flag made;

/// A forked child has none of its parent's threads: it starts a pool afresh.
void make_pool() {
  the_pool = new pool;
  ::pthread_atfork(nullptr, nullptr, [] { the_pool = new pool; });
}

void serve(pool* p) {
  std::unique_lock lock(p->mu);
  for (;;) {
    ++p->idle;
    p->wake.wait(lock, [p] { return !p->jobs.empty(); });
    --p->idle;
    auto job = std::move(p->jobs.front());
    p->jobs.pop_front();
    lock.unlock();
    job();
    job = nullptr;  // what it holds goes before the thread waits again
    lock.lock();
  }
}

}  // namespace

void run_on_tracer_thread(std::function<void()> job) {
  std::call_once(made, make_pool);
  pool* p = the_pool;
  std::lock_guard lock(p->mu);
  p->jobs.push_back(std::move(job));
  if (p->idle >= p->jobs.size())
    p->wake.notify_one();
  else
    std::thread(serve, p).detach();
}

}  // namespace flushcheck::detail
