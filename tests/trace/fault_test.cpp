// --fault: writes that fail or come up short, injected by the tracer at a
// call's entry, on real programs (the script targets, python3, sh, dd).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>

#include "conformance.hpp"
#include "error.hpp"
#include "run.hpp"

namespace flushcheck {
namespace {

run_options opts(std::vector<std::string> argv, std::vector<std::string> faults) {
  run_options o;
  o.argv = std::move(argv);
  o.env = clean_environment();
  for (const auto& f : faults) o.faults.push_back(fault_plan::parse(f));
  return o;
}

run_options script(const std::string& s, std::vector<std::string> faults) {
  return opts({FLUSHCHECK_TARGET_STDIO_SCRIPT, s}, std::move(faults));
}

const fault_result& only_fault(const observation& obs) {
  EXPECT_TRUE(obs.trace);
  EXPECT_EQ(obs.trace->faults.size(), 1u);
  return obs.trace->faults.front();
}

/// "setvbuf none; write 1; ..." : N one-byte writes, each its own call
/// (op k writes letter k: B, C, ...), which go on after a failed one.
std::string one_byte_writes(int n) {
  std::string s = "setvbuf none";
  for (int i = 0; i < n; ++i) s += "; write 1";
  return s + "; exit 0";
}

bool has_python() { return ::access("/usr/bin/python3", X_OK) == 0; }

// glibc libio/fileops.c new_do_write: a failed write leaves the buffer
// emptied (_IO_setp to the base), so the bytes are lost; fflush reports it.
TEST(fault, eagain_at_a_flush_is_reported_and_the_next_output_goes_out) {
  auto obs = run(script("write 3; flush; line 2; exit 0", {"EAGAIN@write:1"}));
  EXPECT_NE(obs.err.data.find("fflush: Resource temporarily unavailable"), std::string::npos)
      << obs.err.data;
  EXPECT_EQ(obs.out.data, "CC\n");
  const auto& f = only_fault(obs);
  ASSERT_EQ(f.events.size(), 1u);
  EXPECT_TRUE(f.events[0].applied);
  EXPECT_EQ(f.events[0].call, 1);
  EXPECT_EQ(f.events[0].requested, 3);
  EXPECT_EQ(f.events[0].result, "EAGAIN");
  EXPECT_EQ(obs.trace->stdout_write_calls(), 2);
}

// The kernel is asked for the first byte only: a real short write. glibc
// (_IO_new_file_write) and musl (__stdio_write) loop until all is written.
TEST(fault, a_short_write_is_completed_by_a_second_call_and_nothing_is_lost) {
  auto obs = run(script("write 30; flush; exit 0", {"short:1@write:1"}));
  EXPECT_EQ(obs.out.data, std::string(30, 'A'));
  EXPECT_EQ(obs.trace->stdout_write_calls(), 2);
  EXPECT_EQ(only_fault(obs).events.at(0).result, "short: 1 of 30 bytes");
}

TEST(fault, a_short_writev_keeps_the_first_bytes_and_the_program_sees_its_iovec_unchanged) {
  if (!has_python()) GTEST_SKIP() << "python3 is not installed (Debian package python3)";
  auto obs = run(opts({"/usr/bin/python3", "-c",
                       "import os\nv = [b'abc', b'defg', b'hi']\nn = os.writev(1, v)\n"
                       "os.write(2, ('%d %r' % (n, v)).encode())"},
                      {"short:5@write:1"}));
  EXPECT_EQ(obs.out.data, "abcde");
  EXPECT_EQ(obs.err.data, "5 [b'abc', b'defg', b'hi']");
}

TEST(fault, a_short_write_no_shorter_than_the_call_is_not_applied_and_says_so) {
  auto obs = run(script("write 3; flush; exit 0", {"short:3@write:1"}));
  EXPECT_EQ(obs.out.data, "AAA");
  const auto& e = only_fault(obs).events.at(0);
  EXPECT_FALSE(e.applied);
  EXPECT_NE(e.result.find("not shorter than the 3 bytes"), std::string::npos) << e.result;
}

// POSIX write(2): EPIPE comes with SIGPIPE; the injection raises it as the
// kernel does, so a program that keeps the default dies of it.
TEST(fault, epipe_raises_sigpipe_and_an_ignoring_program_sees_the_error) {
  auto dies = run(script("write 3; flush; line 2; exit 0", {"EPIPE@write:1"}));
  EXPECT_EQ(dies.status, wait_status::signaled(SIGPIPE));
  EXPECT_EQ(dies.out.bytes, 0u);
  auto lives = run(script("ignore PIPE; write 3; flush; line 2; exit 0", {"EPIPE@write:1"}));
  EXPECT_EQ(lives.status, wait_status::exited(0));
  EXPECT_NE(lives.err.data.find("fflush: Broken pipe"), std::string::npos) << lives.err.data;
}

// coreutils dd (src/dd.c, iwrite) retries EINTR and a short write itself,
// where stdio gives up at EINTR; it stops at ENOSPC and says so.
TEST(fault, dd_retries_eintr_and_short_writes_and_stops_at_enospc) {
  if (::access("/usr/bin/dd", X_OK) != 0) GTEST_SKIP() << "skipped: no /usr/bin/dd (coreutils)";
  const std::vector<std::string> dd = {"/usr/bin/dd", "if=/dev/zero", "bs=1000", "count=3"};
  for (const char* retried : {"EINTR@write:1", "short:1@write:1"}) {
    auto obs = run(opts(dd, {retried}));
    EXPECT_EQ(obs.status, wait_status::exited(0)) << retried;
    EXPECT_EQ(obs.out.bytes, 3000u) << retried;
    EXPECT_EQ(obs.trace->stdout_write_calls(), 4) << retried;  // 3 blocks + the retry
    EXPECT_TRUE(only_fault(obs).applied()) << retried;
  }
  auto full = run(opts(dd, {"ENOSPC@write:2"}));
  EXPECT_EQ(full.status, wait_status::exited(1));
  EXPECT_EQ(full.out.bytes, 1000u);
  EXPECT_EQ(full.trace->stdout_write_calls(), 2);
  EXPECT_NE(full.err.data.find("No space left on device"), std::string::npos) << full.err.data;
  EXPECT_NE(full.err.data.find("1+0 records out"), std::string::npos) << full.err.data;
}

TEST(fault, a_fault_past_the_last_call_is_never_reached) {
  auto obs = run(script("write 3; flush; exit 0", {"EAGAIN@write:9"}));
  EXPECT_EQ(obs.out.data, "AAA");
  EXPECT_TRUE(only_fault(obs).events.empty());
}

// glibc does not retry EINTR (fileops.c: any count < 0 sets _IO_ERR_SEEN).
TEST(fault, write_n_times_k_fails_k_calls_in_a_row) {
  auto obs = run(script(one_byte_writes(5), {"EINTR@write:2x3"}));
  EXPECT_EQ(obs.out.data, "BF");  // calls 1 and 5 of five one-byte writes
  EXPECT_EQ(only_fault(obs).events.size(), 3u);
  EXPECT_EQ(obs.trace->stdout_write_calls(), 5);
}

TEST(fault, random_faults_are_the_same_calls_every_run_and_match_the_plan) {
  const char* spec = "EIO@random=0.3,seed=20261201";
  auto plan = fault_plan::parse(spec);
  std::size_t want = 0;
  for (int call = 1; call <= 200; ++call) want += plan.selects(call) ? 0 : 1;
  for (int round = 0; round < 2; ++round) {
    auto obs = run(script(one_byte_writes(200), {spec}));
    EXPECT_EQ(obs.out.bytes, want) << "repro: flushcheck run --fault=" << spec
                                   << " -- stdio_script \"$(python3 -c \"print('setvbuf none' + "
                                      "'; write 1' * 200)\")\"";
    for (const auto& e : only_fault(obs).events) EXPECT_TRUE(plan.selects(e.call));
  }
}

TEST(fault, stderr_and_a_file_are_destinations_of_their_own) {
  auto err = run(script("write 3 err; write 2 err; exit 0", {"EIO@stderr:write:1"}));
  EXPECT_NE(err.err.data.find("fwrite: Input/output error"), std::string::npos) << err.err.data;
  EXPECT_NE(err.err.data.find("BB"), std::string::npos) << err.err.data;
  auto dir = std::filesystem::temp_directory_path() / ("fc_fault_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  auto log = (dir / "app.log").string();
  auto obs = run(opts({"/bin/sh", "-c", "echo first >>" + log + "; echo second >>" + log},
                      {"ENOSPC@file:" + log + ":write:1"}));
  std::ifstream in(log);
  std::string kept((std::istreambuf_iterator<char>(in)), {});
  EXPECT_EQ(kept, "second\n");
  EXPECT_NE(obs.err.data.find("echo"), std::string::npos) << obs.err.data;  // dash: "I/O error"
  std::filesystem::remove_all(dir);
}

// The cut's call never happens, so a fault on it is never reached; a fault
// before it is applied and counted like any call.
TEST(fault, a_write_cut_takes_precedence_over_a_fault_on_the_same_call) {
  auto same = script(one_byte_writes(5), {"EAGAIN@write:2"});
  same.kill = kill_plan::at_write(2);
  auto obs = run(same);
  EXPECT_EQ(obs.out.data, "B");
  EXPECT_TRUE(only_fault(obs).events.empty());
  auto before = script(one_byte_writes(5), {"EAGAIN@write:1"});
  before.kill = kill_plan::at_write(3);
  obs = run(before);
  EXPECT_EQ(obs.out.data, "C");
  EXPECT_EQ(only_fault(obs).events.size(), 1u);
}

TEST(fault, the_perf_backend_refuses_faults) {
  auto o = script("write 1", {"EAGAIN@write:1"});
  o.trace = true;
  o.backend = trace_backend::perf;
  EXPECT_THROW(run(o), usage_error);
}

// An errno fault skips the call at its seccomp stop: no stop is added.
TEST(fault, an_errno_fault_costs_no_extra_stop) {
  if (!has_python()) GTEST_SKIP() << "python3 is not installed (Debian package python3)";
  std::vector<std::string> argv = {"/usr/bin/python3", "-S", "-c",
                                   "import os\ntry:\n  os.write(1, b'x')\nexcept OSError:\n  pass"};
  auto plain = opts(argv, {});
  plain.trace = true;
  auto a = run(plain);
  auto b = run(opts(argv, {"EAGAIN@write:1"}));
  EXPECT_EQ(a.out.data, "x");
  EXPECT_EQ(b.out.data, "");
  EXPECT_EQ(a.trace->stops, b.trace->stops);
}

}  // namespace
}  // namespace flushcheck
