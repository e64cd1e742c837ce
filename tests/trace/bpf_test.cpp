// The eBPF counting backend (docs/tracing.md) counts what the tracer counts:
// per destination, per call, with the same bytes and write sizes, on the
// whole write family, threads, forks and many files; and it says why when it
// cannot load, so that --backend=auto falls back to the tracer. Needs root:
// elsewhere each test skips with the kernel's reason.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "bpf_counter.hpp"
#include "cli_runner.hpp"
#include "run.hpp"
#include "traced_call.hpp"
#include "tracer.hpp"

namespace flushcheck {
namespace {

const char* const k_c = FLUSHCHECK_TARGET_STDIO_SCRIPT;
const char* const k_cxx = FLUSHCHECK_TARGET_IOSTREAM_SCRIPT;

std::string bpf_blocked() {
  static const std::string why = bpf_unavailable_reason();
  return why;
}

#define REQUIRE_BPF()                                                                        \
  do {                                                                                       \
    if (!tracing_unavailable_reason().empty()) GTEST_SKIP() << tracing_unavailable_reason(); \
    if (!bpf_blocked().empty()) GTEST_SKIP() << "eBPF: " << bpf_blocked();                   \
  } while (0)

observation counted_by(trace_backend b, std::vector<std::string> argv,
                       sink_kind out = sink_kind::pipe) {
  run_options o;
  o.argv = std::move(argv);
  o.env = clean_environment();
  o.stdout_sink = out;
  o.trace = true;
  o.backend = b;
  o.timeout = std::chrono::milliseconds(60000);
  return run(o);
}

/// A destination as both backends must count it, its name aside (the
/// tracer names a file by path, the eBPF backend by device and inode):
/// role, calls per traced call, bytes, write sizes and fds.
std::string shape(const destination_counters& d, bool writes_only) {
  std::string s = "role=" + std::string(to_string(d.role)) +
                  " writes=" + std::to_string(d.write_calls) + " bytes=" + std::to_string(d.bytes) +
                  " calls:";
  for (std::size_t i = 0; i < traced_call_count; ++i)
    if (d.calls[i] != 0 && (!writes_only || is_write_family(static_cast<traced_call>(i))))
      s += " " + std::string(to_string(static_cast<traced_call>(i))) + "=" +
           std::to_string(d.calls[i]);
  s += " sizes:";
  for (std::size_t k = 0; k < d.size_histogram.size(); ++k)
    if (d.size_histogram[k] != 0)
      s += " " + std::to_string(k) + "=" + std::to_string(d.size_histogram[k]);
  if (writes_only) return s;
  std::vector<int> fds = d.fds;
  std::sort(fds.begin(), fds.end());
  s += " fds:";
  for (int fd : fds) s += " " + std::to_string(fd);
  return s;
}

/// Every destination's shape, sorted; WRITES_ONLY: those written to, and
/// only their write-family calls (for programs whose start-up opens and
/// closes files differently from run to run).
std::vector<std::string> shapes(const observation& obs, bool writes_only) {
  std::vector<std::string> out;
  for (const auto& d : obs.trace->destinations)
    if (!writes_only || d.write_calls > 0) out.push_back(shape(d, writes_only));
  std::sort(out.begin(), out.end());
  return out;
}

/// The destinations of OBS whose shape is in A and not in B (each sorted, a
/// shape counted as often as it occurs), one a line with the backend's name
/// for it: what a failed comparison shows, since gtest cuts a long
/// container short.
std::string only_in(const observation& obs, const std::vector<std::string>& a,
                    const std::vector<std::string>& b, bool writes_only) {
  std::vector<std::string> extra;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(extra));
  std::string out;
  for (const auto& d : obs.trace->destinations) {
    const std::string sh = shape(d, writes_only);
    if (auto it = std::find(extra.begin(), extra.end(), sh); it != extra.end()) {
      out += "\n  " + sh + "  (" + d.what + ")";
      extra.erase(it);
    }
  }
  return out.empty() ? " none" : out;
}

std::vector<std::int64_t> totals(const observation& obs, bool writes_only) {
  std::vector<std::int64_t> t;
  for (std::size_t i = 0; i < traced_call_count; ++i)
    t.push_back(!writes_only || is_write_family(static_cast<traced_call>(i)) ? obs.trace->totals[i]
                                                                             : 0);
  return t;
}

struct program_case {
  const char* name;
  std::vector<std::string> argv;
  bool all_calls;  // deterministic start-up: every call, not only writes
};
void PrintTo(const program_case& c, std::ostream* os) { *os << c.name; }

const std::string k_threads =
    "import threading, os\n"
    "def f():\n"
    "    for _ in range(200): os.write(1, b'x')\n"
    "ts = [threading.Thread(target=f) for _ in range(4)]\n"
    "[t.start() for t in ts]; [t.join() for t in ts]\n";

// 40 files, each written through its own fd with its own sizes, then
// stdout: destinations the tracer names by path and eBPF by inode.
const std::string k_many_files =
    "import os, sys, tempfile\n"
    "d = tempfile.mkdtemp()\n"
    "fds = [os.open(os.path.join(d, str(i)), os.O_WRONLY | os.O_CREAT) for i in range(40)]\n"
    "for i, fd in enumerate(fds):\n"
    "    for k in range(i % 5 + 1): os.write(fd, b'y' * (i * 37 + k))\n"
    "os.writev(1, [b'a', b'bc'])\n"
    "for i in range(40): os.unlink(os.path.join(d, str(i)))\n"
    "os.rmdir(d)\n";

class bpf_agrees_with_ptrace : public ::testing::TestWithParam<program_case> {};

TEST_P(bpf_agrees_with_ptrace, per_destination_and_in_total) {
  REQUIRE_BPF();
  const auto& c = GetParam();
  const observation bpf = counted_by(trace_backend::bpf, c.argv);
  const observation ptrace = counted_by(trace_backend::ptrace, c.argv);
  ASSERT_TRUE(bpf.trace && ptrace.trace);
  EXPECT_EQ(bpf.trace->backend, "bpf");
  EXPECT_EQ(bpf.status, ptrace.status);
  const auto by_bpf = shapes(bpf, !c.all_calls), by_ptrace = shapes(ptrace, !c.all_calls);
  EXPECT_EQ(by_bpf, by_ptrace) << "only eBPF's:" << only_in(bpf, by_bpf, by_ptrace, !c.all_calls)
                               << "\nonly ptrace's:"
                               << only_in(ptrace, by_ptrace, by_bpf, !c.all_calls);
  EXPECT_EQ(totals(bpf, !c.all_calls), totals(ptrace, !c.all_calls));
  EXPECT_GT(bpf.trace->stdout_write_calls(), 0);
  EXPECT_EQ(bpf.trace->stops, 0);  // no stop per call
}

INSTANTIATE_TEST_SUITE_P(
    programs, bpf_agrees_with_ptrace,
    ::testing::Values(
        program_case{
            "stdio_unbuffered", {k_c, "setvbuf none; putc 300; line 5 err; close out"}, true},
        program_case{"iostream_writev",
                     {k_cxx, "sync_with_stdio off; write 10; write 100000; exit 0"},
                     true},
        program_case{
            "shell_forks",
            {"/bin/sh", "-c", "echo a; (echo b; echo c); echo bc | tr b x; ls / >/dev/null"},
            true},
        program_case{"python_threads", {"/usr/bin/python3", "-c", k_threads}, false},
        program_case{"python_many_files", {"/usr/bin/python3", "-c", k_many_files}, false},
        program_case{
            "dd_blocks", {"/bin/dd", "if=/dev/zero", "bs=512", "count=64", "status=none"}, true}),
    [](const ::testing::TestParamInfo<program_case>& p) { return std::string(p.param.name); });

// The rest of the write family, one call each (targets/write_family.c):
// counted on stdout's sink with the bytes it moved, as the tracer counts it.
struct family_case {
  const char* call;
  sink_kind sink;
};
void PrintTo(const family_case& c, std::ostream* os) { *os << c.call << "_" << to_string(c.sink); }

class bpf_counts_the_call : public ::testing::TestWithParam<family_case> {};

TEST_P(bpf_counts_the_call, as_the_tracer_does) {
  REQUIRE_BPF();
  const auto [call, sink] = GetParam();
  const observation bpf =
      counted_by(trace_backend::bpf, {FLUSHCHECK_TARGET_WRITE_FAMILY, call}, sink);
  const observation ptrace =
      counted_by(trace_backend::ptrace, {FLUSHCHECK_TARGET_WRITE_FAMILY, call}, sink);
  ASSERT_EQ(bpf.status, wait_status::exited(0)) << bpf.err.data;
  EXPECT_EQ(bpf.out.data, "hello\n");
  EXPECT_EQ(shapes(bpf, true), shapes(ptrace, true));
  EXPECT_EQ(bpf.trace->stdout_write_calls(), 1);
}

INSTANTIATE_TEST_SUITE_P(
    calls, bpf_counts_the_call,
    ::testing::Values(
        family_case{"write", sink_kind::pipe}, family_case{"writev", sink_kind::pipe},
        family_case{"pwrite64", sink_kind::file}, family_case{"pwritev", sink_kind::file},
        family_case{"pwritev2", sink_kind::file}, family_case{"sendto", sink_kind::pipe},
        family_case{"sendmsg", sink_kind::pipe}, family_case{"sendfile", sink_kind::pipe},
        family_case{"splice", sink_kind::file}, family_case{"tee", sink_kind::pipe},
        family_case{"vmsplice", sink_kind::pipe}, family_case{"copy_file_range", sink_kind::file}),
    [](const ::testing::TestParamInfo<family_case>& p) {
      return std::string(p.param.call) + "_" + std::string(to_string(p.param.sink));
    });

// A million writes with no stop: the counts stay exact.
TEST(bpf, a_million_writes_counted_exactly) {
  REQUIRE_BPF();
  const auto obs =
      counted_by(trace_backend::bpf, {k_c, "setvbuf none; putc 1000000"}, sink_kind::null);
  EXPECT_EQ(obs.status, wait_status::exited(0));
  EXPECT_EQ(obs.trace->stdout_write_calls(), 1000000);
  EXPECT_EQ(obs.trace->totals[static_cast<int>(traced_call::write)], 1000000);
}

// A file given the inode of one just unlinked (ext4 does it at once) is
// another destination: the inode's generation tells them apart. Named by
// device and inode, A and B share a name here; their counts tell them apart.
TEST(bpf, a_file_given_an_unlinked_files_inode_is_another_destination) {
  REQUIRE_BPF();
  const std::string base =
      ::testing::TempDir() + "flushcheck_bpf_reused_inode." + std::to_string(::getpid());
  const observation obs = counted_by(
      trace_backend::bpf,
      {FLUSHCHECK_TARGET_WRITE_FAMILY, "reused_inode", base + ".a", base + ".b"}, sink_kind::pipe);
  std::remove((base + ".b").c_str());
  if (obs.status == wait_status::exited(3))
    GTEST_SKIP() << "the file system of " << ::testing::TempDir()
                 << " gave no new file an unlinked one's inode in 64 tries (tmpfs never does)";
  ASSERT_EQ(obs.status, wait_status::exited(0)) << obs.err.data;
  ASSERT_TRUE(obs.out.data.starts_with("tries ")) << obs.out.data;
  const auto tries = static_cast<std::size_t>(std::stoi(obs.out.data.substr(6)));
  std::multiset<std::int64_t> files;  // each written file's write calls
  for (const auto& d : obs.trace->destinations)
    if (d.role == stream_role::none && d.write_calls > 0) files.insert(d.write_calls);
  EXPECT_EQ(files.count(1), tries);
  EXPECT_EQ(files.count(3), 1U);
  EXPECT_EQ(files.size(), tries + 1);
}

// Runs one after another reuse the one loaded object, and each counts only
// its own program.
TEST(bpf, each_run_counts_its_own_program) {
  REQUIRE_BPF();
  for (int n : {3, 7, 11}) {
    const auto obs =
        counted_by(trace_backend::bpf, {k_c, "setvbuf none; putc " + std::to_string(n)});
    EXPECT_EQ(obs.trace->stdout_write_calls(), n);
  }
}

// --backend=auto picks bpf where it loads and says so; a fault needs the
// tracer, and auto says why it did not pick bpf.
TEST(bpf, auto_says_which_backend_counted) {
  if (!tracing_unavailable_reason().empty()) GTEST_SKIP() << tracing_unavailable_reason();
  const auto r = cli({"count", "--backend=auto", "--json", "--", k_c, "setvbuf none; putc 2"});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string want = bpf_blocked().empty() ? "\"backend\":\"bpf\"" : "\"backend\":\"ptrace\"";
  EXPECT_NE(r.out.find(want), std::string::npos) << r.out;
  const auto faulted =
      cli({"count", "--backend=auto", "--fault=EIO@write:1", "--", k_c, "setvbuf none; putc 2"});
  ASSERT_EQ(faulted.code, 0) << faulted.err;
  EXPECT_NE(faulted.out.find("backend: ptrace (not bpf: "), std::string::npos) << faulted.out;
}

// FLUSHCHECK_BPF_COMPAT=1 loads the program that reads by helper calls, as
// on kernels before 6.2: ctest runs this file a second time with it set
// ("compat:" tests), so that both programs are checked against the tracer.
TEST(bpf, the_compat_program_is_loaded_when_asked) {
  REQUIRE_BPF();
  const char* forced = std::getenv("FLUSHCHECK_BPF_COMPAT");
  if (forced == nullptr || std::string(forced) != "1")
    GTEST_SKIP() << "FLUSHCHECK_BPF_COMPAT is not 1: the compat: tests check this";
  EXPECT_EQ(bpf_reads_by(), "helper calls");
}

TEST(bpf, an_explicit_backend_that_cannot_load_is_a_usage_error) {
  if (bpf_blocked().empty()) GTEST_SKIP() << "eBPF loads here: nothing to refuse";
  const auto r = cli({"count", "--backend=bpf", "--", k_c, "putc 1"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, "flushcheck: --backend=bpf: " + bpf_blocked() + "\n");
}

}  // namespace
}  // namespace flushcheck
