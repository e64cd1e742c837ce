// The harness on real processes, pipes and ptys: sinks, markers, kills,
// deadlines, stdin, environment, fds, and errors.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <linux/magic.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/vfs.h>

#include <algorithm>
#include <cstdio>
#include <fstream>

#include <chrono>

#include "child.hpp"
#include "conformance.hpp"
#include "error.hpp"
#include "kill_plan.hpp"
#include "program_kind.hpp"
#include "run.hpp"
#include "run_report.hpp"
#include "script.hpp"
#include "signals.hpp"
#include "spawn.hpp"
#include "unique_fd.hpp"

namespace flushcheck {
namespace {

using namespace std::chrono_literals;

run_options opts(std::vector<std::string> argv) {
  run_options o;
  o.argv = std::move(argv);
  o.env = clean_environment();
  return o;
}

run_options script(const std::string& s) { return opts({FLUSHCHECK_TARGET_STDIO_SCRIPT, s}); }

TEST(wait_status, keeps_exit_code_and_signal_apart) {
  EXPECT_EQ(wait_status::from_raw(3 << 8), wait_status::exited(3));
  EXPECT_EQ(wait_status::from_raw(SIGKILL).type(), wait_status::kind::signaled);
  EXPECT_EQ(wait_status::from_raw(SIGKILL).signal(), SIGKILL);
  EXPECT_NE(wait_status::exited(9), wait_status::signaled(9));
  EXPECT_EQ(wait_status::signaled(SIGTERM).describe(), "killed by SIGTERM");
  EXPECT_STREQ(wait_status::timed_out(SIGKILL).type_name(), "timeout");
}

TEST(signals, parse_names_and_numbers) {
  EXPECT_EQ(parse_signal("KILL"), SIGKILL);
  EXPECT_EQ(parse_signal("sigterm"), SIGTERM);
  EXPECT_EQ(parse_signal("2"), SIGINT);
  EXPECT_EQ(parse_signal("BOGUS"), std::nullopt);
  EXPECT_EQ(parse_signal(""), std::nullopt);
  EXPECT_EQ(signal_name(SIGSEGV), "SEGV");
}

TEST(report, bytes_map_to_code_points) {
  EXPECT_EQ(bytes_as_code_points("a\n"), "a\n");
  EXPECT_EQ(bytes_as_code_points("\xff"), "\xc3\xbf");
  observation obs;
  obs.out.sink = destination(sink_kind::pipe);
  obs.out.data = std::string("x\0\xfe", 3);
  obs.out.bytes = 3;
  auto j = to_json(obs);
  EXPECT_EQ(j["stdout"]["bytes"], 3);
  EXPECT_EQ(j["exit"]["status"], "exited");
  EXPECT_EQ(j["stdout"]["data"].get<std::string>(), std::string("x\0\xc3\xbe", 4));
}

TEST(run, pipe_receives_everything_and_the_exit_code) {
  auto obs = run(script("line 3; write 2 err; exit 7"));
  EXPECT_EQ(obs.status, wait_status::exited(7));
  EXPECT_EQ(obs.out.data, "AAA\n");
  EXPECT_EQ(obs.err.data, "BB");
  EXPECT_EQ(obs.out.sink, destination(sink_kind::pipe));
  ASSERT_FALSE(obs.out.chunks.empty());
  EXPECT_GT(obs.out.chunks.back().t_us, 0);
}

TEST(run, raw_pty_is_a_tty_and_passes_bytes_unchanged) {
  auto o = opts({"/bin/sh", "-c", "[ -t 1 ] && echo tty"});
  o.stdout_sink = sink_kind::pty;
  auto obs = run(o);
  EXPECT_EQ(obs.out.data, "tty\n");
  o.stdout_sink = sink_kind::pty_cooked;
  EXPECT_EQ(run(o).out.data, "tty\r\n");  // ONLCR
  o.stdout_sink = sink_kind::pipe;
  EXPECT_EQ(run(o).out.data, "");
}

// The pty sink is the session's controlling terminal, as a terminal is.
TEST(run, pty_sink_is_the_controlling_terminal) {
  auto o = opts({"/bin/sh", "-c", "echo x >/dev/tty"});  // once: ENXIO
  o.stdout_sink = sink_kind::pty;
  auto obs = run(o);
  EXPECT_EQ(obs.status, wait_status::exited(0)) << obs.err.data;
  EXPECT_EQ(obs.out.data, "x\n");
  // ps shows the terminal; the child's group is the terminal's foreground group
  o.argv = {"/usr/bin/python3", "-c",
            "import os; print(os.ttyname(1) == os.readlink('/proc/self/fd/1'), "
            "os.tcgetpgrp(1) == os.getpgrp() == os.getsid(0))"};
  EXPECT_EQ(run(o).out.data, "True True\n");
  o.stdout_sink = sink_kind::pipe;  // no terminal: /dev/tty cannot be opened
  o.argv = {"/bin/sh", "-c", "echo x >/dev/tty"};
  EXPECT_EQ(run(o).status, wait_status::exited(2));
}

TEST(run, pty_hang_up_sends_sighup_to_the_foreground_group) {
  // The session leader exits; as in a terminal, its foreground process group
  // (here its child) gets SIGHUP. Without a controlling terminal the child
  // would sleep on until the deadline.
  const char* py =
      "import os, signal, time\n"
      "r, w = os.pipe()\n"
      "if os.fork() == 0:\n"
      "    signal.signal(signal.SIGHUP, lambda *a: (os.write(1, b'HUP\\n'), os._exit(0)))\n"
      "    os.write(w, b'r')\n"
      "    time.sleep(20)\n"
      "    os._exit(1)\n"
      "os.read(r, 1)\n";
  auto o = opts({"/usr/bin/python3", "-c", py});
  o.stdout_sink = sink_kind::pty;
  o.timeout = 10s;
  auto obs = run(o);
  EXPECT_EQ(obs.status, wait_status::exited(0));
  EXPECT_EQ(obs.out.data, "HUP\n");  // exited 0: the hang-up, not the deadline, ended it
}

TEST(run, pty_sink_gives_job_control_signals_to_the_foreground_group) {
  // ^C typed on the terminal (cooked: ISIG) interrupts the foreground group;
  // without a controlling terminal it was one more byte, and read waited on.
  auto o = opts({"/bin/sh", "-c", "read x; echo no"});
  o.stdout_sink = sink_kind::pty_cooked;
  o.input = stdin_kind::pty;
  o.input_data = "\x03";
  o.timeout = 10s;
  auto obs = run(o);
  EXPECT_EQ(obs.status, wait_status::signaled(SIGINT)) << obs.out.data;
  EXPECT_EQ(obs.out.data.find("no"), std::string::npos) << obs.out.data;
}

TEST(run, pty_end_of_data_loses_nothing) {
  // 1 MiB through a pty, then exit: EIO after the last byte, not before.
  auto o = script("write 1048576; exit 0");
  o.stdout_sink = sink_kind::pty;
  auto obs = run(o);
  EXPECT_EQ(obs.status, wait_status::exited(0));
  EXPECT_EQ(obs.out.data.size(), 1048576u);
  EXPECT_EQ(obs.out.data.find_first_not_of('A'), std::string::npos);
}

TEST(run, pty_stays_open_while_the_program_runs) {
  // A terminal's master stays open while the program runs, whatever fds the
  // program closes. The harness holds a slave fd until the program ends:
  // without it, closing fd 1 (the only slave fd) made the master read EIO,
  // the harness closed it, and that hang-up killed the shell with SIGHUP
  // before its write to /dev/tty.
  auto o = opts({"/bin/sh", "-c", "exec 1>&-; sleep 0.2; echo late >/dev/tty"});
  o.stdout_sink = sink_kind::pty;
  auto obs = run(o);
  EXPECT_EQ(obs.status, wait_status::exited(0)) << obs.err.data;
  EXPECT_EQ(obs.out.data, "late\n");
  for (const auto& note : obs.notes) EXPECT_EQ(note.find("EIO"), std::string::npos) << note;
}

/// The ```sh example of docs/markers.md, as a user would paste it.
std::string documented_shell_marker() {
  std::ifstream in(std::string(FLUSHCHECK_SOURCE_DIR) + "/docs/markers.md");
  std::string line, block;
  while (std::getline(in, line) && line != "```sh") {
  }
  while (std::getline(in, line) && line != "```") block += line + "\n";
  return block;
}

TEST(run, documented_shell_marker_idiom_goes_on_at_once) {
  // Once the release byte had no newline, and `read` waited for the deadline.
  std::string marker = documented_shell_marker();
  ASSERT_NE(marker, "") << "no ```sh example in docs/markers.md";
  auto o = opts({"/bin/sh", "-c", "echo a\n" + marker + "echo b"});
  o.timeout = 10s;
  auto obs = run(o);
  EXPECT_EQ(obs.status, wait_status::exited(0));
  EXPECT_EQ(obs.out.data, "a\nb\n");
  ASSERT_EQ(obs.markers.size(), 1u);
  EXPECT_EQ(obs.markers[0].stdout_visible, 2u);  // exited 0: released, not cut by the deadline
}

TEST(run, a_line_over_64_kib_on_fd_3_is_ignored_and_the_channel_stays_open) {
  // Once the channel was closed, and the next write to fd 3 died of SIGPIPE.
  auto o = opts({"/usr/bin/python3", "-c",
                 "import os\n"
                 "os.write(3, b'x' * 100000)\n"
                 "os.write(3, b'y' * 100000 + b'\\ncut\\n'); os.read(3, 1)\n"
                 "print('ok')\n"});
  auto obs = run(o);
  EXPECT_EQ(obs.status, wait_status::exited(0));
  EXPECT_EQ(obs.out.data, "ok\n");
  ASSERT_EQ(obs.markers.size(), 1u);
  EXPECT_EQ(obs.markers[0].label, "cut");
  EXPECT_NE(std::find(obs.notes.begin(), obs.notes.end(),
                      "fd 3 received a line over 64 KiB: not a marker; ignored"),
            obs.notes.end());
}

TEST(run, visible_bytes_at_markers_are_exact_on_every_sink) {
  // Unbuffered writes of 37 bytes, a marker after each: the reader must have
  // exactly 37*k bytes at marker k, including on a pty (asynchronous in the
  // kernel) and a file (its size).
  std::string s = "setvbuf none";
  for (int i = 0; i < 100; ++i) s += "; write 37; marker m" + std::to_string(i);
  for (sink_kind k : {sink_kind::pipe, sink_kind::pty, sink_kind::file}) {
    auto o = script(s);
    o.stdout_sink = k;
    auto obs = run(o);
    ASSERT_EQ(obs.markers.size(), 100u) << to_string(k);
    for (std::size_t i = 0; i < obs.markers.size(); ++i)
      ASSERT_EQ(obs.markers[i].stdout_visible, 37 * (i + 1)) << to_string(k) << " marker " << i;
  }
}

TEST(run, file_null_and_full_sinks) {
  auto o = script("line 2; flush; marker a; line 1; exit 0");
  o.stdout_sink = sink_kind::file;
  auto obs = run(o);
  EXPECT_EQ(obs.out.data, "AA\nD\n");
  ASSERT_EQ(obs.markers.size(), 1u);
  EXPECT_EQ(obs.markers[0].stdout_visible, 3u);
  o.stdout_sink = sink_kind::null;
  EXPECT_EQ(run(o).out.data, "");
  o.stdout_sink = sink_kind::full;
  o.argv[1] = "line 2; flush";
  obs = run(o);
  EXPECT_EQ(obs.status, wait_status::exited(1));
  EXPECT_NE(obs.err.data.find("No space left on device"), std::string::npos) << obs.err.data;
}

TEST(run, stderr_can_share_stdouts_sink) {
  auto o = opts({"/bin/sh", "-c", "echo a; echo b >&2; echo c"});
  o.stderr_sink.reset();
  auto obs = run(o);
  EXPECT_EQ(obs.out.data, "a\nb\nc\n");
  EXPECT_TRUE(obs.err.sink.merged());
  EXPECT_EQ(to_json(obs)["stderr"]["sink"], "stdout");
}

TEST(run, kill_at_marker_is_exact) {
  auto o = script("line 3; flush; write 2; marker cut; line 1; exit 0");
  o.kill = kill_plan::at_marker(1, SIGKILL);
  auto obs = run(o);
  EXPECT_EQ(obs.status, wait_status::signaled(SIGKILL));
  ASSERT_TRUE(obs.kill);
  EXPECT_TRUE(obs.kill->delivered);
  EXPECT_EQ(obs.kill->when, "marker:1");
  EXPECT_EQ(obs.out.data, "AAA\n");
}

TEST(run, kill_point_never_reached_is_not_delivered) {
  auto o = script("line 1");
  o.kill = kill_plan::at_marker(3, SIGKILL);
  auto obs = run(o);
  EXPECT_EQ(obs.status, wait_status::exited(0));
  ASSERT_TRUE(obs.kill);
  EXPECT_FALSE(obs.kill->delivered);
}

TEST(run, a_caught_signal_lets_the_program_go_on_past_the_gate) {
  auto o = opts({"/bin/sh", "-c",
                 "trap 'echo caught' TERM; echo m >&3; dd bs=1 count=1 <&3 >/dev/null 2>&1; "
                 "echo after"});
  o.kill = kill_plan::at_marker(1, SIGTERM);
  auto obs = run(o);
  EXPECT_EQ(obs.status, wait_status::exited(0));
  EXPECT_EQ(obs.out.data, "caught\nafter\n");
}

TEST(run, kill_at_time) {
  auto o = opts({"/bin/sleep", "5"});
  o.kill = kill_plan::at_time(100, SIGTERM);
  auto obs = run(o);
  EXPECT_EQ(obs.status, wait_status::signaled(SIGTERM));
  ASSERT_TRUE(obs.kill && obs.kill->delivered);
  EXPECT_GE(obs.kill->t_us, 100000);  // SIGTERM ended it: before sleep's 5 s were up
}

TEST(run, deadline_kills_the_process_group) {
  auto o = opts({"/bin/sh", "-c", "echo before; sleep 30; echo never"});
  o.timeout = 300ms;
  auto obs = run(o);
  EXPECT_EQ(obs.status.type(), wait_status::kind::timeout);
  EXPECT_EQ(obs.out.data, "before\n");
  // Bounds in these tests are a fraction of what the program would take
  // (sleep 30), never a guess at the machine's speed: ASan on 2 busy cores
  // must not make them flake, and a harness that waited for the program
  // still fails them.
  EXPECT_LT(obs.duration_us, 20000000);
}

TEST(run, grandchild_holding_stdout_open_ends_at_the_deadline) {
  auto o = opts({"/bin/sh", "-c", "sleep 30 & echo started"});
  o.timeout = 500ms;
  auto start = std::chrono::steady_clock::now();
  auto obs = run(o);
  auto took = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(obs.status, wait_status::exited(0));
  EXPECT_EQ(obs.out.data, "started\n");
  EXPECT_LT(took, 20s);  // not sleep's 30 s
  ASSERT_FALSE(obs.notes.empty());
  EXPECT_NE(obs.notes.back().find("held the output open"), std::string::npos);
}

TEST(run, stdin_pipe_feeds_more_than_a_pipe_buffer) {
  auto o = script("read 300000; write 5; exit 0");
  o.input = stdin_kind::pipe;
  o.input_data = std::string(300000, 'x');
  auto obs = run(o);
  EXPECT_EQ(obs.status, wait_status::exited(0));
  EXPECT_EQ(obs.out.data, "BBBBB");
}

TEST(run, stdin_on_a_shared_pty_takes_more_than_its_buffer) {
  // 100 KB typed into the terminal that is also stdout: the harness must
  // keep writing as the program reads, without stalling until the deadline.
  auto o = script("read 100000; write 3; exit 0");
  o.stdout_sink = sink_kind::pty;
  o.input = stdin_kind::pty;
  o.input_data = std::string(100000, 'x');
  o.timeout = 5000ms;
  auto obs = run(o);
  EXPECT_EQ(obs.status, wait_status::exited(0));
  EXPECT_EQ(obs.out.data, "BBB");  // exited 0: done before the 5 s deadline
}

TEST(run, stdin_pty_is_a_terminal_and_carries_input) {
  auto o = opts({"/bin/sh", "-c", "[ -t 0 ] && head -c 3"});
  o.input = stdin_kind::pty;
  o.input_data = "abc";
  auto obs = run(o);
  EXPECT_EQ(obs.out.data, "abc");
  o.stdout_sink = sink_kind::pty;  // one terminal for both, as in a shell
  EXPECT_EQ(run(o).out.data, "abc");
}

TEST(run, child_sees_only_its_stdio_and_the_control_fd) {
  // ls lists the shell's fds while the shell waits for it (a glob would show
  // the shell's own directory fd; `ls | tr` the shell's pipe to tr, held for
  // a moment in 1 run in 5; the ':' keeps the shell from exec'ing ls).
  auto obs = run(opts({"/bin/sh", "-c", "ls /proc/$$/fd; :"}));
  EXPECT_EQ(obs.out.data, "0\n1\n2\n3\n");
}

TEST(run, child_gets_exactly_the_given_environment) {
  auto obs = run(opts({"/usr/bin/env"}));
  EXPECT_EQ(obs.out.data,
            "PATH=/usr/local/bin:/usr/bin:/bin\nLANG=C\nFLUSHCHECK_MARKER_FD=3\n"
            "FLUSHCHECK_RELEASE_FD=3\nFLUSHCHECK_GATE_FD=3\n");
}

TEST(run, child_signal_dispositions_are_reset) {
  // The CLI ignores SIGPIPE; its children must not inherit that.
  struct sigaction old {};
  struct sigaction ign {};
  ign.sa_handler = SIG_IGN;
  sigaction(SIGPIPE, &ign, &old);
  auto obs = run(opts({"/bin/sh", "-c", "grep SigIgn /proc/self/status"}));
  sigaction(SIGPIPE, &old, nullptr);
  EXPECT_NE(obs.out.data.find("SigIgn:\t0000000000000000"), std::string::npos) << obs.out.data;
}

TEST(run, child_starts_with_no_signal_blocked_and_the_callers_mask_is_kept) {
  // spawn blocks every signal around its vfork; the child unblocks them all
  // (after resetting dispositions), and the caller gets its own mask back.
  sigset_t usr1, before, after;
  sigemptyset(&usr1);
  sigaddset(&usr1, SIGUSR1);
  pthread_sigmask(SIG_BLOCK, &usr1, &before);
  auto obs = run(opts({"/bin/sh", "-c", "grep SigBlk /proc/self/status"}));
  pthread_sigmask(SIG_SETMASK, nullptr, &after);
  pthread_sigmask(SIG_SETMASK, &before, nullptr);
  EXPECT_NE(obs.out.data.find("SigBlk:\t0000000000000000"), std::string::npos) << obs.out.data;
  EXPECT_TRUE(sigismember(&after, SIGUSR1));
  EXPECT_FALSE(sigismember(&after, SIGUSR2));
}

TEST(run, a_traced_run_shares_one_cpu_and_gives_the_caller_its_affinity_back) {
  cpu_set_t before;
  ASSERT_EQ(sched_getaffinity(0, sizeof before, &before), 0);
  if (CPU_COUNT(&before) < 2) GTEST_SKIP() << "this thread may run on one CPU only";
  auto o = opts({"/bin/sh", "-c", "grep Cpus_allowed_list /proc/self/status"});
  auto untraced = run(o);
  o.trace = true;
  auto traced = run(o);
  cpu_set_t after;
  ASSERT_EQ(sched_getaffinity(0, sizeof after, &after), 0);
  EXPECT_TRUE(CPU_EQUAL(&before, &after));
  // docs/tracing.md: the traced program runs on the tracer's CPU, "N\n";
  // untraced it keeps the caller's set ("0-1\n" on two CPUs).
  std::string one = traced.out.data.substr(traced.out.data.find('\t') + 1);
  EXPECT_EQ(one.find_first_of(",-"), std::string::npos) << traced.out.data;
  EXPECT_NE(untraced.out.data.find_first_of(",-"), std::string::npos) << untraced.out.data;
}

TEST(run, markers_are_a_no_op_without_the_environment) {
  auto obs =
      run(opts({"/usr/bin/env", "-u", "FLUSHCHECK_MARKER_FD", "-u", "FLUSHCHECK_RELEASE_FD", "-u",
                "FLUSHCHECK_GATE_FD", FLUSHCHECK_TARGET_STDIO_SCRIPT, "line 1; marker a; line 1"}));
  EXPECT_EQ(obs.status, wait_status::exited(0));
  EXPECT_TRUE(obs.markers.empty());
  EXPECT_EQ(obs.out.data, "A\nC\n");
}

TEST(run, missing_or_unexecutable_program_is_a_spawn_error) {
  EXPECT_THROW(run(opts({"no-such-program-flushcheck"})), spawn_error);
  EXPECT_THROW(run(opts({"/nonexistent/prog"})), spawn_error);
  std::string plain = ::testing::TempDir() + "flushcheck_not_executable";
  std::FILE* f = std::fopen(plain.c_str(), "w");
  ASSERT_NE(f, nullptr);
  std::fclose(f);
  ::chmod(plain.c_str(), 0644);
  EXPECT_THROW(run(opts({plain})), spawn_error);
}

// The file sink is created under TMPDIR; the report names its file system.
TEST(run, a_file_sink_names_its_file_system) {
  struct statfs shm {};
  if (::statfs("/dev/shm", &shm) != 0 || shm.f_type != TMPFS_MAGIC)
    GTEST_SKIP() << "skipped: /dev/shm is not a tmpfs here";
  const char* old = std::getenv("TMPDIR");
  const std::string saved = old != nullptr ? old : "";
  ::setenv("TMPDIR", "/dev/shm", 1);
  auto o = opts({"/bin/echo", "hi"});
  o.stdout_sink = sink_kind::file;
  auto obs = run(o);
  old != nullptr ? ::setenv("TMPDIR", saved.c_str(), 1) : ::unsetenv("TMPDIR");
  EXPECT_EQ(obs.out.fs, "tmpfs");
  EXPECT_EQ(obs.out.data, "hi\n");
  EXPECT_EQ(obs.err.fs, "");  // a pipe
  EXPECT_NE(to_text(obs).find("on file (tmpfs)"), std::string::npos);
}

TEST(run, notes_name_variables_that_change_buffering) {
  const std::vector<std::string> env = {"PYTHONUNBUFFERED=1", "HOME=/root", "_STDBUF_O=L",
                                        "PATH=/usr/bin:/bin"};
  auto notes = buffering_notes(env, nullptr);
  ASSERT_EQ(notes.size(), 2u);
  EXPECT_NE(notes[0].find("PYTHONUNBUFFERED"), std::string::npos);
  EXPECT_NE(notes[1].find("_STDBUF_O"), std::string::npos);
  // Named only where it applies: Python and a shell (which may start it),
  // not a C program.
  for (const char* prog : {"python3", "sh"}) {
    const auto kind = identify({prog}, env);
    EXPECT_EQ(buffering_notes(env, &kind).size(), 2u) << prog;
  }
  const auto c = identify({FLUSHCHECK_TARGET_STDIO_SCRIPT}, env);
  notes = buffering_notes(env, &c);
  ASSERT_EQ(notes.size(), 1u) << notes.front();
  EXPECT_NE(notes[0].find("_STDBUF_O"), std::string::npos);
}

TEST(scripts, malformed_scripts_exit_64_with_one_line) {
  for (const char* bad : {"wrte 3", "write", "write x", "setvbuf huge", "endl", "fork 1", "fork 65",
                          "threads 1", "threads 65"}) {
    auto obs = run(script(bad));
    EXPECT_EQ(obs.status, wait_status::exited(64)) << bad;
    EXPECT_EQ(std::count(obs.err.data.begin(), obs.err.data.end(), '\n'), 1) << obs.err.data;
    EXPECT_EQ(obs.err.data.rfind("stdio_script: bad script: op 1", 0), 0u) << obs.err.data;
  }
}

// fork N: every process runs the rest; the run ends when the last one has
// closed the sink, so all of their bytes are read (the parent does not wait).
TEST(scripts, fork_runs_the_rest_in_every_process) {
  auto obs = run(script("setvbuf none; fork 3; write 2; sleep 50; write 1; exit 0"));
  EXPECT_EQ(obs.status, wait_status::exited(0));
  EXPECT_EQ(std::count(obs.out.data.begin(), obs.out.data.end(), 'C'), 6) << obs.out.data;
  EXPECT_EQ(std::count(obs.out.data.begin(), obs.out.data.end(), 'E'), 3) << obs.out.data;
  EXPECT_EQ(script::parse("fork 4").text(), "fork 4");
}

// threads N: every thread runs the rest; main waits for them all before
// it returns, so exit's flush sends what each one buffered.
TEST(scripts, threads_run_the_rest_in_every_thread) {
  for (const char* target : {FLUSHCHECK_TARGET_STDIO_SCRIPT, FLUSHCHECK_TARGET_IOSTREAM_SCRIPT}) {
    auto obs = run(opts({target, "threads 3; write 2; sleep 20; line 1; threads 2; write 1"}));
    EXPECT_EQ(obs.status, wait_status::exited(0)) << target;
    const auto& d = obs.out.data;
    EXPECT_EQ(std::count(d.begin(), d.end(), 'B'), 6) << target << ": " << d;
    EXPECT_EQ(std::count(d.begin(), d.end(), 'D'), 3) << target << ": " << d;
    EXPECT_EQ(std::count(d.begin(), d.end(), 'F'), 6) << target << ": " << d;  // 3 threads x 2
  }
  EXPECT_EQ(script::parse("threads 4").text(), "threads 4");
}

// barrier: every thread's ops before it come before any thread's after it,
// in both targets; without one threads op before it the script is refused.
TEST(scripts, a_barrier_orders_every_threads_ops_before_it_first) {
  for (const char* target : {FLUSHCHECK_TARGET_STDIO_SCRIPT, FLUSHCHECK_TARGET_IOSTREAM_SCRIPT}) {
    auto obs = run(opts({target, "setvbuf none; threads 4; write 3; barrier; write 3"}));
    EXPECT_EQ(obs.status, wait_status::exited(0)) << target;
    EXPECT_EQ(obs.out.data, std::string(12, 'C') + std::string(12, 'E')) << target;
  }
  EXPECT_EQ(script::parse("threads 2; barrier").text(), "threads 2; barrier");
  for (const char* bad :
       {"barrier; threads 2", "write 1; barrier", "threads 2; barrier; threads 2"}) {
    auto obs = run(opts({FLUSHCHECK_TARGET_STDIO_SCRIPT, bad}));
    EXPECT_EQ(obs.status, wait_status::exited(64)) << bad;
    EXPECT_NE(obs.err.data.find("barrier needs one threads op, before it"), std::string::npos)
        << bad << ": " << obs.err.data;
  }
}

// fsync syncs the fd and flushes nothing: the buffered line is not in the
// file at the marker; on a pipe fsync fails (EINVAL) and is reported.
TEST(scripts, fsync_syncs_the_fd_and_flushes_nothing) {
  for (const char* target : {FLUSHCHECK_TARGET_STDIO_SCRIPT, FLUSHCHECK_TARGET_IOSTREAM_SCRIPT}) {
    auto o = opts({target, "line 9; fsync out; marker m; fsync err; exit 0"});
    o.stdout_sink = sink_kind::file;
    o.stderr_sink = sink_kind::file;
    o.trace = true;
    auto obs = run(o);
    EXPECT_EQ(obs.status, wait_status::exited(0)) << target << ": " << obs.err.data;
    ASSERT_EQ(obs.markers.size(), 1u) << target;
    EXPECT_EQ(obs.markers[0].stdout_visible, 0u) << target;
    EXPECT_EQ(obs.out.data, "AAAAAAAAA\n") << target;  // written at exit
    ASSERT_TRUE(obs.trace) << target;
    EXPECT_EQ(obs.trace->totals[static_cast<std::size_t>(traced_call::fsync)], 2) << target;
    o.stdout_sink = sink_kind::pipe;
    o.stderr_sink = sink_kind::pipe;
    obs = run(o);
    EXPECT_EQ(obs.status, wait_status::exited(0)) << target;
    EXPECT_NE(obs.err.data.find("fsync"), std::string::npos) << target << ": " << obs.err.data;
  }
  EXPECT_EQ(script::parse("fsync err").text(), "fsync err");
  EXPECT_THROW(script::parse("fsync log"), usage_error);  // C has no clog: not stdout by default
  EXPECT_THROW(script::parse("fsync all"), usage_error);
}

// lock / unlock are flockfile / funlockfile, putc_unlocked takes no lock:
// C's stdio in both targets (the concurrency section's flockfile rows).
TEST(scripts, lock_and_putc_unlocked_reach_cs_stdio) {
  for (const char* target : {FLUSHCHECK_TARGET_STDIO_SCRIPT, FLUSHCHECK_TARGET_IOSTREAM_SCRIPT}) {
    auto obs = run(opts({target, "lock; putc_unlocked 3; unlock; putc_unlocked 2 err; exit 0"}));
    EXPECT_EQ(obs.status, wait_status::exited(0)) << target << ": " << obs.err.data;
    EXPECT_EQ(obs.out.data, "BBB") << target;
    EXPECT_EQ(obs.err.data, "DD") << target;
  }
  EXPECT_EQ(script::parse("lock err; unlock; putc_unlocked 4").text(),
            "lock err; unlock out; putc_unlocked 4 out");
  for (const char* bad : {"lock log", "unlock all", "putc_unlocked", "putc_unlocked 3 log"})
    EXPECT_THROW(script::parse(bad), usage_error) << bad;
}

TEST(scripts, payload_names_the_op_that_wrote_each_byte) {
  auto obs = run(opts({FLUSHCHECK_TARGET_IOSTREAM_SCRIPT,
                       "write 2; printf 1; putc 3; line 1; fputs 2; newline; endl"}));
  EXPECT_EQ(obs.out.data, "AABCCCD\nEE\n\n");
}

}  // namespace
}  // namespace flushcheck

namespace flushcheck {
namespace {

// A subreaper's run (the CLI is one) kills the descendants that left the
// program's process group, but not a child this process started beside the
// run and still owns: bench's bpftrace was killed so, after the first run.
TEST(run, ends_orphans_but_spares_a_child_started_beside_it) {
  ASSERT_EQ(::prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
  unique_fd null(::open("/dev/null", O_RDWR | O_CLOEXEC));
  child_process beside =
      spawn({{"/bin/sleep", "30"}, clean_environment(), null.get(), null.get(), null.get()});
  run_options o;
  o.argv = {"/bin/sh", "-c", "setsid sleep 30 </dev/null >/dev/null 2>&1 & echo $!"};
  o.env = clean_environment();
  const observation obs = run(o);
  const std::string orphan = obs.out.data.substr(0, obs.out.data.find('\n'));
  std::string notes;
  for (const auto& n : obs.notes) notes += n + "\n";
  EXPECT_NE(notes.find("(pid " + orphan + ")"), std::string::npos) << notes;
  EXPECT_EQ(::kill(beside.pid(), 0), 0) << "the child started beside the run was killed";
}

}  // namespace
}  // namespace flushcheck
