// The os stage (harness/os) against real processes and files: how a waitpid
// status decodes (ptrace_stop, wait_status), restarting after EINTR, bounded
// reads of files, gzip or not, temporary directories, and the parsers of
// numbers and signal names the flags share.
#include <gtest/gtest.h>
#include <sys/ptrace.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "error.hpp"
#include "input_file.hpp"
#include "parse_number.hpp"
#include "ptrace_stop.hpp"
#include "retry_eintr.hpp"
#include "signals.hpp"
#include "temporary.hpp"
#include "wait_status.hpp"
#include "wire.hpp"

namespace flushcheck {
namespace {

namespace fs = std::filesystem;

/// A forked child, killed and reaped when the test leaves however it leaves
/// (a failed ASSERT too), unless a wait already reaped it.
class forked_child {
 public:
  /// The child runs BODY (async-signal-safe calls only), then exits 0.
  explicit forked_child(void (*body)()) : pid_(::fork()) {
    if (pid_ < 0) throw std::system_error(errno, std::generic_category(), "fork");
    if (pid_ == 0) {
      body();
      ::_exit(0);
    }
  }
  ~forked_child() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGKILL);
    retry_eintr([&] { return ::waitpid(pid_, nullptr, __WALL); });
  }
  forked_child(const forked_child&) = delete;
  forked_child& operator=(const forked_child&) = delete;

  pid_t pid() const noexcept { return pid_; }
  /// The raw waitpid status of its next stop or of its end (then it is reaped).
  int wait() {
    int raw = 0;
    const pid_t r = retry_eintr([&] { return ::waitpid(pid_, &raw, __WALL); });
    EXPECT_EQ(r, pid_) << "waitpid: " << std::strerror(errno);
    if (r != pid_ || WIFEXITED(raw) || WIFSIGNALED(raw)) pid_ = -1;
    return raw;
  }

 private:
  pid_t pid_;
};

/// A traced child exits with this plus errno when PTRACE_TRACEME fails.
constexpr int k_no_ptrace = 100;

/// The start of a traced child: it asks to be traced and stops itself, so
/// that the tracer sets its options at that stop.
void stop_for_tracer() {
  if (::ptrace(PTRACE_TRACEME, 0, nullptr, nullptr) != 0) ::_exit(k_no_ptrace + errno);
  ::raise(SIGSTOP);
}

void stop_then_exec_true() {
  stop_for_tracer();
  char* const argv[] = {const_cast<char*>("true"), nullptr};
  char* const envp[] = {nullptr};
  ::execve("/bin/true", argv, envp);
  ::_exit(127);
}

/// Why this machine refuses ptrace, when the first stop S of a traced child
/// says so (it ended, exiting k_no_ptrace + errno), or "".
std::string no_ptrace_reason(const ptrace_stop& s) {
  if (!s.ended() || s.ending().type() != wait_status::kind::exited ||
      s.ending().code() < k_no_ptrace)
    return "";
  return std::string("ptrace is not permitted here: PTRACE_TRACEME failed: ") +
         std::strerror(s.ending().code() - k_no_ptrace);
}

/// Skips the test, saying why, when the first stop of a traced child says ptrace is refused.
#define SKIP_WITHOUT_PTRACE(first) \
  if (const std::string why = no_ptrace_reason(first); !why.empty()) GTEST_SKIP() << why

constexpr long k_options = PTRACE_O_TRACESYSGOOD | PTRACE_O_TRACEEXEC | PTRACE_O_EXITKILL;

// ---- ptrace_stop: the kinds of a tracee's waitpid status

TEST(ptrace_stop, a_signal_stop_names_its_signal) {
  forked_child child(stop_for_tracer);
  const ptrace_stop first = ptrace_stop::of(child.wait());
  SKIP_WITHOUT_PTRACE(first);
  EXPECT_EQ(first.type(), ptrace_stop::kind::signal);
  EXPECT_EQ(first.signal(), SIGSTOP);
  EXPECT_FALSE(first.ended());
}

// With PTRACE_O_TRACESYSGOOD a system call stop is SIGTRAP | 0x80: its own
// kind, never taken for a SIGTRAP the program was sent.
TEST(ptrace_stop, a_system_call_stop_under_tracesysgood_is_its_own_kind) {
  forked_child child(stop_for_tracer);
  const ptrace_stop first = ptrace_stop::of(child.wait());
  SKIP_WITHOUT_PTRACE(first);
  ASSERT_EQ(::ptrace(PTRACE_SETOPTIONS, child.pid(), nullptr, k_options), 0);
  ASSERT_EQ(::ptrace(PTRACE_SYSCALL, child.pid(), nullptr, nullptr), 0);
  const ptrace_stop next = ptrace_stop::of(child.wait());
  EXPECT_EQ(next.type(), ptrace_stop::kind::syscall);
  EXPECT_EQ(next.signal(), 0);
}

TEST(ptrace_stop, an_exec_under_traceexec_is_an_event_stop) {
  forked_child child(stop_then_exec_true);
  const ptrace_stop first = ptrace_stop::of(child.wait());
  SKIP_WITHOUT_PTRACE(first);
  ASSERT_EQ(::ptrace(PTRACE_SETOPTIONS, child.pid(), nullptr, k_options), 0);
  ASSERT_EQ(::ptrace(PTRACE_CONT, child.pid(), nullptr, nullptr), 0);
  const ptrace_stop exec = ptrace_stop::of(child.wait());
  ASSERT_EQ(exec.type(), ptrace_stop::kind::event);
  EXPECT_EQ(exec.event(), PTRACE_EVENT_EXEC);
  ASSERT_EQ(::ptrace(PTRACE_CONT, child.pid(), nullptr, nullptr), 0);
  EXPECT_EQ(ptrace_stop::of(child.wait()).ending(), wait_status::exited(0)) << "/bin/true ran";
}

TEST(ptrace_stop, an_exit_ends_with_its_code) {
  forked_child child([] { ::_exit(3); });
  const ptrace_stop s = ptrace_stop::of(child.wait());
  EXPECT_TRUE(s.ended());
  EXPECT_EQ(s.ending(), wait_status::exited(3));
}

// The tracer's cut: a SIGKILL ends a tracee even while it is stopped.
TEST(ptrace_stop, a_stopped_tracee_killed_by_sigkill_ends_signaled) {
  forked_child child(stop_for_tracer);
  const ptrace_stop first = ptrace_stop::of(child.wait());
  SKIP_WITHOUT_PTRACE(first);
  ASSERT_EQ(::kill(child.pid(), SIGKILL), 0);
  const ptrace_stop s = ptrace_stop::of(child.wait());
  EXPECT_TRUE(s.ended());
  EXPECT_EQ(s.ending(), wait_status::signaled(SIGKILL));
}

// ---- wait_status: exited N and killed by S are kept apart

TEST(wait_status, from_raw_keeps_an_exit_code_apart_from_a_killing_signal) {
  forked_child exits([] { ::_exit(7); });
  const wait_status exited = wait_status::from_raw(exits.wait());
  EXPECT_EQ(exited, wait_status::exited(7));
  EXPECT_STREQ(exited.type_name(), "exited");
  EXPECT_EQ(exited.describe(), "exited 7");
  forked_child killed([] {
    ::signal(SIGTERM, SIG_DFL);
    ::raise(SIGTERM);
  });
  const wait_status term = wait_status::from_raw(killed.wait());
  EXPECT_EQ(term, wait_status::signaled(SIGTERM));
  EXPECT_STREQ(term.type_name(), "signaled");
  EXPECT_EQ(term.describe(), "killed by SIGTERM");
}

TEST(wait_status, describe_names_a_core_dump_and_a_deadline) {
  const wait_status core = wait_status::signaled(SIGSEGV, true);
  EXPECT_TRUE(core.core_dumped());
  EXPECT_EQ(core.describe(), "killed by SIGSEGV (core dumped)");
  EXPECT_NE(core, wait_status::signaled(SIGSEGV));
  const wait_status late = wait_status::timed_out(SIGKILL);
  EXPECT_STREQ(late.type_name(), "timeout");
  EXPECT_EQ(late.describe(), "timed out (process group killed with SIGKILL)");
  EXPECT_NE(late, wait_status::signaled(SIGKILL)) << "the harness's kill is not the program's end";
}

// ---- retry_eintr

TEST(retry_eintr, retries_an_interrupted_call_and_returns_the_first_other_result) {
  int calls = 0;
  const int r = retry_eintr([&] {
    if (++calls == 3) return 0;  // errno is still EINTR: only a failure is retried
    errno = EINTR;
    return -1;
  });
  EXPECT_EQ(r, 0);
  EXPECT_EQ(calls, 3);
}

TEST(retry_eintr, returns_another_failure_at_once_with_its_errno) {
  int calls = 0;
  char byte = 0;
  const ssize_t r = retry_eintr([&] {
    ++calls;
    return ::read(-1, &byte, 1);
  });
  const int err = errno;
  EXPECT_EQ(r, -1);
  EXPECT_EQ(err, EBADF);
  EXPECT_EQ(calls, 1);
}

// ---- read_file: a file of this machine, bounded

TEST(read_file, a_missing_file_is_nullopt_and_proc_is_read) {
  const temporary_directory dir(temp_dir() + "/flushcheck-os-test-");
  EXPECT_EQ(read_file(dir.path() + "/missing"), std::nullopt);
  const auto status = read_file("/proc/self/status");
  ASSERT_TRUE(status);
  EXPECT_NE(status->find("Tgid:"), std::string::npos) << *status;
}

TEST(read_file, reads_no_more_than_its_bound) {
  const auto zeros = read_file("/dev/zero", 10000);  // not a multiple of its 4 KiB reads
  ASSERT_TRUE(zeros);
  EXPECT_EQ(zeros->size(), 10000u);
  EXPECT_EQ(zeros->find_first_not_of('\0'), std::string::npos);
}

// ---- read_input_file: a file from outside, gzip or not

/// What read_input_file says when it refuses PATH, or "" when it reads it.
std::string refusal(const std::string& path, std::size_t max_bytes) {
  try {
    read_input_file(path, max_bytes);
  } catch (const usage_error& e) {
    return e.what();
  }
  return "";
}

TEST(read_input_file, refuses_a_directory_a_missing_file_and_an_endless_one) {
  const temporary_directory dir(temp_dir() + "/flushcheck-os-test-");
  EXPECT_THROW(read_input_file(dir.path(), 1 << 20), usage_error);
  EXPECT_NE(refusal(dir.path(), 1 << 20).find("directory"), std::string::npos);
  EXPECT_THROW(read_input_file(dir.path() + "/missing", 1 << 20), usage_error);
  EXPECT_THROW(read_input_file("/dev/zero", 1 << 20), usage_error);
  EXPECT_NE(refusal("/dev/zero", 1 << 20).find("larger"), std::string::npos);
}

TEST(read_input_file, gunzips_a_gzip_file_and_reads_a_plain_one_as_it_is) {
  const temporary_directory dir(temp_dir() + "/flushcheck-os-test-");
  const std::string text = "{\"kind\": \"matrix\"}\nline two\n", gz = dir.path() + "/record.gz";
  gzFile out = ::gzopen(gz.c_str(), "wb");
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(::gzwrite(out, text.data(), static_cast<unsigned>(text.size())),
            static_cast<int>(text.size()));
  ASSERT_EQ(::gzclose(out), Z_OK);
  EXPECT_EQ(read_file(gz, 2), "\x1f\x8b") << "gzip's magic: the file is compressed";
  EXPECT_EQ(read_input_file(gz, 1 << 20), text);
  std::ofstream(dir.path() + "/plain") << text;
  EXPECT_EQ(read_input_file(dir.path() + "/plain", 1 << 20), text);
}

// ---- temporary_directory

TEST(temporary_directory, is_a_fresh_directory_of_its_own) {
  const std::string prefix = temp_dir() + "/flushcheck-os-test-";
  const temporary_directory a(prefix), b(prefix);
  EXPECT_TRUE(fs::is_directory(a.path()));
  EXPECT_TRUE(a.path().starts_with(prefix)) << a.path();
  EXPECT_EQ(a.path().size(), prefix.size() + 6) << "mkdtemp's six characters";
  EXPECT_NE(a.path(), b.path());
}

TEST(temporary_directory, is_removed_with_all_it_holds) {
  std::string path;
  {
    const temporary_directory dir(temp_dir() + "/flushcheck-os-test-");
    path = dir.path();
    fs::create_directories(path + "/sub/deeper");
    std::ofstream(path + "/sub/deeper/file") << "data\n";
    std::ofstream(path + "/top") << "data\n";
  }
  EXPECT_FALSE(fs::exists(path)) << path;
}

// An interrupted CLI removes what is listed; the owner's removal then finds
// nothing left, and that is no error.
TEST(temporary_directory, an_interrupt_removes_it_before_its_owner_does) {
  const temporary_directory dir(temp_dir() + "/flushcheck-os-test-");
  fs::create_directories(dir.path() + "/sub");
  std::ofstream(dir.path() + "/sub/file") << "data\n";
  remove_temporary_files();
  EXPECT_FALSE(fs::exists(dir.path())) << dir.path();
}

// ---- parse_number: the numbers of flags

TEST(parse_number, takes_the_whole_text_as_a_decimal_within_the_range) {
  using detail::parse_number;
  EXPECT_EQ(parse_number("42", 0, 100), std::uint64_t{42});
  EXPECT_EQ(parse_number("100", 1, 100), std::uint64_t{100});
  for (const char* bad : {"", "+1", "-1", " 1", "1 ", "1x", "0x10", "101", "1.5"})
    EXPECT_EQ(parse_number(bad, 0, 100), std::nullopt) << "'" << bad << "'";
  EXPECT_EQ(parse_number("0", 1, 100), std::nullopt) << "below the minimum";
  EXPECT_EQ(parse_number("18446744073709551616", 0, UINT64_MAX), std::nullopt) << "past 64 bits";
}

TEST(parse_number, units_multiply_before_the_range_check) {
  using detail::parse_number;
  EXPECT_EQ(parse_number("4K", 0, 1 << 20, true), std::uint64_t{4096});
  EXPECT_EQ(parse_number("3M", 0, 1 << 30, true), std::uint64_t{3} << 20);
  EXPECT_EQ(parse_number("1G", 0, std::uint64_t{1} << 30, true), std::uint64_t{1} << 30);
  EXPECT_EQ(parse_number("2G", 0, std::uint64_t{1} << 30, true), std::nullopt) << "over the max";
  EXPECT_EQ(parse_number("1K", 2000, 1 << 20, true), std::nullopt) << "under the min";
  EXPECT_EQ(parse_number("4K", 0, 1 << 20), std::nullopt) << "no units unless asked for";
  EXPECT_EQ(parse_number("K", 0, 1 << 20, true), std::nullopt) << "a unit alone";
}

// ---- signals: the names the CLI and JSON use

TEST(signals, every_signal_name_parses_back_to_its_number) {
  for (int sig = 1; sig <= SIGRTMAX; ++sig) EXPECT_EQ(parse_signal(signal_name(sig)), sig) << sig;
  for (std::string_view name : signal_names()) {
    const auto sig = parse_signal(name);
    ASSERT_TRUE(sig) << name;
    EXPECT_EQ(signal_name(*sig), name);
  }
  EXPECT_EQ(signal_name(SIGRTMIN + 3), "RTMIN+3");
  EXPECT_EQ(signal_name(SIGRTMAX), "RTMAX");
}

TEST(signals, parse_takes_the_spellings_of_the_cli_and_nothing_else) {
  for (const char* spelling : {"KILL", "SIGKILL", "kill", "sigkill", "9"})
    EXPECT_EQ(parse_signal(spelling), SIGKILL) << spelling;
  EXPECT_EQ(parse_signal("RTMIN+3"), SIGRTMIN + 3);
  EXPECT_EQ(parse_signal("SIGRTMAX-1"), SIGRTMAX - 1);
  for (const char* bad : {"", "SIG", "NOPE", "0", "-9", "100", "RTMIN-1", "RTMIN+99", "KILL "})
    EXPECT_EQ(parse_signal(bad), std::nullopt) << "'" << bad << "'";
}

// wire.hpp: what is put is read back, in order; bytes cut short, a bad flag
// and bytes left over are errors, never a read past the end.
TEST(wire, reads_back_what_was_put) {
  const std::string text("a\0b\n\xff", 5);
  const std::string bytes =
      wire_writer().i64(-3).f64(0.25).flag(true).text(text).text("").i64(INT64_MAX).take();
  wire_reader r(bytes);
  EXPECT_EQ(r.i64(), -3);
  EXPECT_EQ(r.f64(), 0.25);
  EXPECT_TRUE(r.flag());
  EXPECT_EQ(r.text(), text);
  EXPECT_EQ(r.text(), "");
  EXPECT_EQ(r.i64(), INT64_MAX);
  EXPECT_NO_THROW(r.end());
  const std::vector<std::string> lines = {"a", "", text};
  const std::map<std::string, long> counts = {{"file:app.log", 3}, {"stdout", -1}};
  const std::string lists = wire_writer().texts(lines).named(counts).texts({}).take();
  wire_reader l(lists);
  EXPECT_EQ(l.texts(), lines);
  EXPECT_EQ(l.named<long>(), counts);
  EXPECT_TRUE(l.texts().empty());
  EXPECT_NO_THROW(l.end());
}

TEST(wire, refuses_bytes_that_are_not_what_was_put) {
  const std::string bytes = wire_writer().text("hello").take();
  for (std::size_t cut = 0; cut < bytes.size(); ++cut) {
    wire_reader r(std::string_view(bytes).substr(0, cut));
    EXPECT_THROW(r.text(), harness_error) << "cut at " << cut;
  }
  // A reader reads the bytes it is given, kept by its caller.
  const std::string huge_bytes = wire_writer().i64(INT64_MAX).take();
  wire_reader huge(huge_bytes);
  EXPECT_THROW(huge.text(), harness_error) << "a length past the end";
  const std::string negative_bytes = wire_writer().i64(-1).take();
  wire_reader negative(negative_bytes);
  EXPECT_THROW(negative.text(), harness_error);
  const std::string two_bytes(1, '\2');
  wire_reader two(two_bytes);
  EXPECT_THROW(two.flag(), harness_error);
  const std::string long_list = wire_writer().i64((1 << 20) + 1).take();
  wire_reader list(long_list);
  EXPECT_THROW(list.count(), harness_error) << "a list longer than 2^20";
  const std::string left_bytes = wire_writer().i64(1).i64(2).take();
  wire_reader left(left_bytes);
  left.i64();
  EXPECT_THROW(left.end(), harness_error);
}

}  // namespace
}  // namespace flushcheck
