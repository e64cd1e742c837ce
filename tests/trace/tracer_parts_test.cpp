// The tracer's three parts on their own: the fd table against real fds of
// this process, the call ledger's counts, and the write cut's decisions
// (write_cut is a state machine: the tracer stops and signals as it says;
// trace_test runs them together on real programs).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdint>
#include <string>
#include <vector>

#include "call_ledger.hpp"
#include "error.hpp"
#include "fd_table.hpp"
#include "unique_fd.hpp"
#include "write_cut.hpp"

namespace flushcheck::detail {
namespace {

struct pipe_pair {
  unique_fd r, w;
  pipe_pair() {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) throw_errno("pipe2");
    r.reset(fds[0]);
    w.reset(fds[1]);
  }
};

file_id id_of(int fd) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) throw_errno("fstat");
  return {st.st_dev, st.st_ino};
}

const pid_t self = ::getpid();

decoded_call call(traced_call c, int fd, std::int64_t bytes = 0) { return {c, fd, bytes}; }

/// The registers of a call at its entry: dup2(FROM, TO) or close_range(LO, HI).
user_regs_struct regs_with(unsigned long long a0, unsigned long long a1) {
  user_regs_struct r{};
  r.rdi = a0;
  r.rsi = a1;
  return r;
}

// ---- fd_table

TEST(fd_table, one_file_through_several_fds_is_one_destination) {
  pipe_pair p;
  unique_fd again(::dup(p.w.get()));
  fd_table t({0, 0}, {0, 0});
  EXPECT_EQ(t.destination(self, p.w.get()), 0);
  EXPECT_EQ(t.destination(self, again.get()), 0);
  EXPECT_EQ(t.destination(self, p.r.get()), 0);  // the pipe's read end: the same inode
  ASSERT_EQ(t.destinations().size(), 1u);
  EXPECT_EQ(t.destinations()[0].fds, (std::vector<int>{p.w.get(), again.get(), p.r.get()}));
  EXPECT_TRUE(t.destinations()[0].what.starts_with("pipe:[")) << t.destinations()[0].what;
  EXPECT_EQ(t.destinations()[0].role, stream_role::none);
}

TEST(fd_table, the_sinks_files_get_their_roles) {
  pipe_pair out, err;
  fd_table t(id_of(out.w.get()), id_of(err.w.get()));
  EXPECT_EQ(t[t.destination(self, out.w.get())].role, stream_role::out);
  EXPECT_EQ(t[t.destination(self, err.w.get())].role, stream_role::err);
  fd_table shared(id_of(out.w.get()), id_of(out.w.get()));  // 2>&1
  EXPECT_EQ(shared[shared.destination(self, out.w.get())].role, stream_role::both);
}

TEST(fd_table, an_fd_that_is_not_open_has_no_destination) {
  fd_table t({0, 0}, {0, 0});
  // Far above the lowest free number, which the table's own pidfd may take.
  unique_fd probe(::fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 900));
  const int closed = probe.get();
  ASSERT_GE(closed, 900);
  probe.reset();
  EXPECT_EQ(t.destination(self, closed), -1);
  EXPECT_EQ(t.destination(self, -1), -1);
  EXPECT_TRUE(t.destinations().empty());
}

/// The fd number N is given another pipe's file behind the table's back.
void replace_file_at(int n, const pipe_pair& other) {
  ASSERT_EQ(::dup3(other.w.get(), n, O_CLOEXEC), n);
}

TEST(fd_table, a_closed_or_replaced_fd_is_looked_up_again) {
  pipe_pair a, b, c, d;
  fd_table t({0, 0}, {0, 0});
  const int n = a.w.get();
  ASSERT_EQ(t.destination(self, n), 0);
  replace_file_at(n, b);
  EXPECT_EQ(t.destination(self, n), 0) << "cached until a call says otherwise";
  t.on_call(call(traced_call::close, n), {});
  EXPECT_EQ(t.destination(self, n), 1);
  replace_file_at(n, c);
  t.on_call(call(traced_call::dup2, -1), regs_with(static_cast<unsigned>(c.w.get()), n));
  EXPECT_EQ(t.destination(self, n), 2);
  replace_file_at(n, d);
  t.on_call(call(traced_call::close_range, -1), regs_with(static_cast<unsigned>(n), ~0ULL));
  EXPECT_EQ(t.destination(self, n), 3);
  EXPECT_EQ(t.destinations().size(), 4u);
}

TEST(fd_table, an_exec_forgets_the_fds_of_its_process_only) {
  pipe_pair a, b;
  fd_table t({0, 0}, {0, 0});
  const int n = a.w.get();
  const pid_t other = self + 1;  // a key only: the lookup is not made while cached
  ASSERT_EQ(t.destination(self, n), 0);
  replace_file_at(n, b);
  t.on_exec(other);
  EXPECT_EQ(t.destination(self, n), 0);
  t.on_exec(self);
  EXPECT_EQ(t.destination(self, n), 1);
}

// ---- call_ledger

struct ledger_on_a_pipe : ::testing::Test {
  pipe_pair p;
  fd_table fds{{0, 0}, {0, 0}};
  int d = fds.destination(self, p.w.get());
  trace_summary summary() {
    trace_summary s;
    ledger.fill(s);
    s.destinations = fds.take();
    return s;
  }
  call_ledger ledger{fds, nullptr};
};

TEST_F(ledger_on_a_pipe, counts_each_call_per_destination_and_in_total) {
  const auto w = call(traced_call::write, p.w.get(), 5);
  const auto v = call(traced_call::writev, p.w.get(), 300);
  const auto f = call(traced_call::fsync, p.w.get());
  ledger.count(self, w, d, ledger.log(1, self, w, d));
  ledger.count(self, v, d, ledger.log(2, self, v, d));
  ledger.count(self, f, d, ledger.log(3, self, f, d));
  ledger.count(self, w, -1, ledger.log(4, self, w, -1));  // a write to no destination
  const trace_summary s = summary();
  const auto& dest = s.destinations.at(0);
  EXPECT_EQ(dest.write_calls, 2);
  EXPECT_EQ(dest.bytes, 305);
  EXPECT_EQ(dest.size_histogram[2], 1);  // 5 is in [4, 8)
  EXPECT_EQ(dest.size_histogram[8], 1);  // 300 is in [256, 512)
  EXPECT_EQ(dest.calls[static_cast<std::size_t>(traced_call::fsync)], 1);
  EXPECT_EQ(s.totals[static_cast<std::size_t>(traced_call::write)], 2);
  ASSERT_EQ(s.events.size(), 4u);
  EXPECT_EQ(s.events[1].t_us, 2);
  EXPECT_EQ(s.events[3].dest, -1);
  EXPECT_FALSE(ledger.needs_exit(self));
}

TEST_F(ledger_on_a_pipe, a_call_whose_bytes_are_its_result_is_counted_at_its_exit) {
  const auto s1 = call(traced_call::sendfile, p.w.get());
  ledger.count(self, s1, d, ledger.log(1, self, s1, d));
  ASSERT_TRUE(ledger.needs_exit(self));
  EXPECT_EQ(fds[d].bytes, 0);
  ledger.at_exit(self, 2, 4096);
  EXPECT_FALSE(ledger.needs_exit(self));
  ledger.count(self, s1, d, ledger.log(3, self, s1, d));
  ledger.at_exit(self, 4, -EPIPE);  // a failure wrote nothing
  const trace_summary s = summary();
  EXPECT_EQ(s.destinations[0].bytes, 4096);
  EXPECT_EQ(s.destinations[0].write_calls, 2);
  EXPECT_EQ(s.events[0].bytes, 4096);
  EXPECT_EQ(s.events[1].bytes, 0);
  EXPECT_EQ(s.events[0].returned_us, -1) << "not timed";
}

TEST_F(ledger_on_a_pipe, a_timed_write_gets_its_return_and_result) {
  call_ledger timed(fds, [](const destination_counters&) { return true; });
  const auto w = call(traced_call::write, p.w.get(), 10);
  timed.count(self, w, d, timed.log(1, self, w, d));
  ASSERT_TRUE(timed.needs_exit(self));
  timed.at_exit(self, 7, 6);
  trace_summary s;
  timed.fill(s);
  EXPECT_EQ(s.events[0].returned_us, 7);
  EXPECT_EQ(s.events[0].result, 6);
  EXPECT_EQ(s.events[0].bytes_written(), 6);
}

TEST_F(ledger_on_a_pipe, a_call_in_progress_that_is_forgotten_counts_nothing_at_the_next_exit) {
  call_ledger timed(fds, [](const destination_counters&) { return true; });
  const auto s1 = call(traced_call::sendfile, p.w.get());
  timed.count(self, s1, d, timed.log(1, self, s1, d));
  timed.forget(self);  // its thread ended
  EXPECT_FALSE(timed.needs_exit(self));
  timed.at_exit(self, 2, 100);
  EXPECT_EQ(fds[d].bytes, 0);
}

TEST_F(ledger_on_a_pipe, the_cuts_stopped_call_is_logged_not_counted_until_it_runs) {
  const auto w = call(traced_call::write, p.w.get(), 8);
  ledger.stop(5, self, w, d, ledger.log(5, self, w, d));
  EXPECT_EQ(fds[d].write_calls, 0);
  {
    trace_summary s;
    call_ledger copy = ledger;
    copy.fill(s);
    ASSERT_TRUE(s.stopped);
    EXPECT_EQ(s.stopped->t_us, 5);
    EXPECT_TRUE(s.events.at(0).stopped);
  }
  ledger.rerun(self);  // a caught signal's handler returned: the call is made
  const trace_summary s = summary();
  EXPECT_FALSE(s.stopped);
  EXPECT_FALSE(s.events.at(0).stopped);
  EXPECT_EQ(s.destinations[0].write_calls, 1);
  EXPECT_EQ(s.destinations[0].bytes, 8);
}

TEST_F(ledger_on_a_pipe, events_past_the_cap_are_dropped_and_counted) {
  const auto w = call(traced_call::write, p.w.get(), 1);
  for (std::size_t i = 0; i < call_ledger::max_events; ++i) ledger.log(0, self, w, d);
  EXPECT_EQ(ledger.log(0, self, w, d), call_ledger::dropped);
  ledger.count(self, w, d, call_ledger::dropped);  // still counted
  const trace_summary s = summary();
  EXPECT_EQ(s.events.size(), call_ledger::max_events);
  EXPECT_EQ(s.events_dropped, 1);
  EXPECT_EQ(s.destinations[0].write_calls, 1);
}

// ---- write_cut

user_regs_struct at_call(unsigned long long ip) {
  user_regs_struct r{};
  r.rip = ip;
  r.orig_rax = SYS_write;
  r.rdi = 1;
  return r;
}

bool never_ends(pid_t, int) { return false; }
bool always_ends(pid_t, int) { return true; }

TEST(write_cut, only_write_and_after_write_plans_are_armed) {
  EXPECT_FALSE(write_cut(kill_plan::at_marker(1)).armed());
  EXPECT_FALSE(write_cut(kill_plan{}).armed());
  EXPECT_TRUE(write_cut(kill_plan::at_write(1)).armed());
  EXPECT_TRUE(write_cut(kill_plan::after_write(1)).armed());
}

TEST(write_cut, write_n_on_one_thread_stops_the_nth_and_steps_it_back) {
  write_cut cut(kill_plan::at_write(3));
  using step = write_cut::step;
  EXPECT_FALSE(cut.next_is_cut_call());
  EXPECT_EQ(cut.on_write(10, at_call(0x100), false), step::run);
  EXPECT_EQ(cut.on_write(10, at_call(0x100), false), step::run);
  EXPECT_TRUE(cut.next_is_cut_call());
  EXPECT_EQ(cut.on_write(10, at_call(0x200), false), step::reached);
  EXPECT_FALSE(cut.next_is_cut_call());
  ASSERT_TRUE(cut.ready());
  EXPECT_EQ(cut.thread(), 10);
  const auto back = cut.rewind();
  ASSERT_TRUE(back);
  EXPECT_EQ(back->rip, 0x200u - 2) << "onto the two-byte syscall instruction";
  EXPECT_EQ(back->rax, static_cast<unsigned long long>(SYS_write));
  cut.sent();
  EXPECT_FALSE(cut.ready());
  EXPECT_FALSE(cut.is_rerun(11, at_call(0x200))) << "another thread";
  EXPECT_FALSE(cut.is_rerun(10, at_call(0x300))) << "another call";
  EXPECT_TRUE(cut.is_rerun(10, at_call(0x200)));
  EXPECT_FALSE(cut.is_rerun(10, at_call(0x200))) << "made again once";
}

TEST(write_cut, after_write_n_waits_for_the_writes_before_it_and_its_own_return) {
  write_cut cut(kill_plan::after_write(2));
  using step = write_cut::step;
  EXPECT_EQ(cut.on_write(10, at_call(0x100), true), step::run_to_exit);  // in flight
  EXPECT_EQ(cut.on_write(11, at_call(0x100), true), step::reached);
  EXPECT_FALSE(cut.ready());
  EXPECT_FALSE(cut.on_return(10)) << "thread 10 goes on";
  EXPECT_FALSE(cut.ready()) << "the 2nd has not returned";
  EXPECT_TRUE(cut.on_return(11)) << "the cut's thread stays stopped";
  EXPECT_TRUE(cut.ready());
  EXPECT_FALSE(cut.rewind()) << "after-write: the call was made";
}

TEST(write_cut, a_write_in_flight_whose_thread_ends_holds_the_cut_up_no_more) {
  write_cut cut(kill_plan::at_write(2));
  cut.on_write(10, at_call(0x100), true);
  cut.on_write(11, at_call(0x100), true);
  EXPECT_FALSE(cut.ready());
  cut.on_exit(10);
  EXPECT_TRUE(cut.ready());
}

TEST(write_cut, writes_after_the_nth_wait_and_go_on_only_where_the_signal_spares_them) {
  write_cut cut(kill_plan::at_write(1, SIGTERM));
  EXPECT_FALSE(cut.holds(12, always_ends)) << "before the N-th: nothing waits";
  cut.on_write(10, at_call(0x100), true);
  EXPECT_TRUE(cut.holds(12, never_ends)) << "under way: every observed write waits";
  cut.hold(12, call(traced_call::write, 1, 1));
  cut.hold(13, call(traced_call::write, 1, 2));
  cut.hold(14, call(traced_call::write, 1, 3));
  cut.on_exit(13);
  cut.sent();
  EXPECT_TRUE(cut.holds(12, always_ends));
  EXPECT_FALSE(cut.holds(12, never_ends));
  EXPECT_EQ(cut.holds(12, [](pid_t, int sig) { return sig == SIGTERM; }), true);
  const auto held = cut.take_held();
  ASSERT_EQ(held.size(), 2u);
  EXPECT_EQ(held[0].first, 12);
  EXPECT_EQ(held[1].first, 14);
  EXPECT_TRUE(cut.take_held().empty());
  EXPECT_EQ(cut.on_write(15, at_call(0x100), true), write_cut::step::run) << "past the N-th";
}

}  // namespace
}  // namespace flushcheck::detail
