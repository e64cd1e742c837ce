// The spdlog gate: what spdlog promises about buffering, asserted on real
// runs, and what it does not promise, recorded. Each case adds its row to
// docs/loggers.md (tests/loggers/table.hpp).
#include <gtest/gtest.h>

#include <iostream>

#include "gate.hpp"
#include "logger_table.hpp"

namespace flushcheck {
namespace {

const std::string prog = FLUSHCHECK_PROGRAM_SPDLOG_LOGGER;
constexpr long records = 50;  // every 5th is an error: 4, 9, ..., 49

gate_result run_file(const std::string& config, const std::string& death, kill_plan cut = {}) {
  return gate_run({prog, config, std::to_string(records), death}).watch("app.log").cut(cut).run();
}

const loggers::gate_table table{"spdlog", records};

// The headline promise: with flush_on(err), every record up to the last
// error is in the file when the process is SIGKILLed.
TEST(spdlog_gate, flush_on_error_keeps_every_record_through_the_last_error) {
  auto r = run_file("file_flush_on_error", "return", kill_plan::at_marker(1));
  const auto& f = r.file("app.log");
  EXPECT_TRUE(records_through(f.content, records - 1)) << r;
  EXPECT_TRUE(no_torn_record(f.content)) << r;
  EXPECT_EQ(f.write_calls, records / 5) << "one flush per error record" << r;
  table.add("basic_file_sink, flush_on(err)", "file", "SIGKILL", f.content, f.write_calls,
            "promise");
}

// The deliberately wrong configuration: no flush_on. The same check must
// catch it: the records sit in stdio's buffer and die with the process.
TEST(spdlog_gate, catches_a_file_sink_without_flush_on) {
  auto r = run_file("file", "return", kill_plan::at_marker(1));
  const auto& f = r.file("app.log");
  EXPECT_FALSE(records_through(f.content, records - 1)) << "the gate must fail here" << r;
  EXPECT_TRUE(records_prefix(f.content, records)) << r;  // what is promised: a prefix
  table.add("basic_file_sink (default)", "file", "SIGKILL", f.content, f.write_calls, "promise",
            "prefix only; the flush_on(err) check fails, as it must");
}

TEST(spdlog_gate, flush_on_info_is_one_write_per_record) {
  auto r = run_file("file_flush_on_info", "return", kill_plan::at_marker(1));
  const auto& f = r.file("app.log");
  EXPECT_TRUE(records_through(f.content, records - 1)) << r;
  EXPECT_TRUE(one_write_per_record(f.write_calls, f.content)) << r;
  table.add("basic_file_sink, flush_on(info)", "file", "SIGKILL", f.content, f.write_calls,
            "promise");
}

TEST(spdlog_gate, file_sink_is_flushed_at_exit_and_lost_at_abort) {
  for (const char* death : {"return", "exit"}) {
    auto r = run_file("file", death);
    EXPECT_TRUE(records_through(r.file("app.log").content, records - 1)) << death << r;
    table.add("basic_file_sink (default)", "file", death, r.file("app.log").content,
              r.file("app.log").write_calls, "promise");
  }
  for (const char* death : {"_exit", "abort"}) {
    auto r = run_file("file", death);
    EXPECT_TRUE(records_prefix(r.file("app.log").content, records)) << death << r;
    table.add("basic_file_sink (default)", "file", death, r.file("app.log").content, -1,
              "observation");
  }
}

// flush_every: a thread flushes every second. Timing: observed, not promised.
TEST(spdlog_gate, flush_every_flushes_within_its_period) {
  auto r = run_file("file_flush_every", "wait", kill_plan::at_marker(2));
  const auto& f = r.file("app.log");
  EXPECT_TRUE(records_prefix(f.content, records)) << r;
  table.add("basic_file_sink, flush_every(1s)", "file", "SIGKILL 1.5 s later", f.content, -1,
            "observation",
            loggers::survived(f.content) == records ? "all flushed by the timer" : "");
}

// stdout/stderr sinks flush every record: each survives SIGKILL, one write each.
TEST(spdlog_gate, console_sinks_flush_every_record) {
  struct c {
    const char* config;
    sink_kind sink;
    bool err;
  };
  for (auto [config, sink, err] :
       {c{"stdout", sink_kind::pipe, false}, c{"stdout", sink_kind::pty, false},
        c{"stdout_color", sink_kind::pipe, false}, c{"stdout_color", sink_kind::pty, false},
        c{"stderr", sink_kind::pipe, true}}) {
    SCOPED_TRACE(std::string(config) + " on " + std::string(to_string(sink)));
    gate_run g({prog, config, std::to_string(records), "return"});
    if (err)
      g.stderr_to(sink);
    else
      g.stdout_to(sink);
    auto r = g.kill_at_marker(1).run();
    const std::string& text = err ? r.obs.err.data : r.obs.out.data;
    const long writes = err ? r.stderr_writes() : r.stdout_writes();
    EXPECT_TRUE(records_through(text, records - 1)) << r;
    EXPECT_TRUE(one_write_per_record(writes, text)) << r;
    EXPECT_TRUE(visible_at_marker(r.obs, 1, err, "rec 49")) << r;
    table.add(std::string(config) + "_sink", std::string(to_string(sink)), "SIGKILL", text, writes,
              "promise");
  }
}

// Async: shutdown() drains the queue into the sinks, but a sink is flushed
// (its FILE closed) only when the logger goes: an application that still
// holds its logger loses the records at _exit (found by this gate, spdlog
// 1.10). A SIGKILL promises only a prefix, never counts; overrun_oldest may
// drop, but keeps order.
TEST(spdlog_gate, async_logger_shutdown_drains_and_sigkill_keeps_a_prefix) {
  auto drained = run_file("async_block", "release_shutdown_exit");
  EXPECT_TRUE(records_through(drained.file("app.log").content, records - 1)) << drained;
  table.add("async, block, logger released, shutdown(), _exit", "file", "_exit",
            drained.file("app.log").content, -1, "promise");
  auto held = run_file("async_block", "shutdown_exit");
  EXPECT_TRUE(records_prefix(held.file("app.log").content, records)) << held;
  table.add("async, block, logger held, shutdown(), _exit", "file", "_exit",
            held.file("app.log").content, -1, "observation",
            "drained into the sink's FILE buffer, never flushed");
  auto killed = run_file("async_block", "return", kill_plan::at_marker(1));
  EXPECT_TRUE(records_prefix(killed.file("app.log").content, records)) << killed;
  table.add("async, block", "file", "SIGKILL", killed.file("app.log").content, -1, "observation",
            "only the prefix property is promised");
  auto overrun = run_file("async_overrun", "release_shutdown_exit");
  EXPECT_TRUE(in_order(overrun.file("app.log").content)) << overrun;
  table.add("async, overrun_oldest (queue 16), shutdown()", "file", "_exit",
            overrun.file("app.log").content, -1, "observation", "in order; drops allowed");
}

// ENOSPC at the 10th write to the log file (flush_on(info): one write per
// record): file_helper::flush throws "Failed flush to file" (spdlog
// details/file_helper-inl.h) and the logger's default error handler prints
// "[*** LOG ERROR #0001 ***]" to stderr (logger-inl.h): the failure is
// reported, that record is lost (glibc drops a failed write's bytes), the
// others arrive in order.
TEST(spdlog_gate, enospc_on_the_log_file_reaches_the_error_handler) {
  auto r = gate_run({prog, "file_flush_on_info", std::to_string(records), "return"})
               .watch("app.log")
               .fault("ENOSPC@file:{logdir}/app.log:write:10")
               .run();
  ASSERT_EQ(r.fault().events.size(), 1u) << r;
  const auto& f = r.file("app.log");
  EXPECT_NE(r.obs.err.data.find("[*** LOG ERROR #0001 ***]"), std::string::npos) << r;
  EXPECT_NE(r.obs.err.data.find("No space left on device"), std::string::npos) << r;
  EXPECT_TRUE(in_order(f.content)) << r;
  EXPECT_EQ(loggers::survived(f.content), records - 1) << r;
  EXPECT_FALSE(records_through(f.content, records - 1)) << "record 9 was lost" << r;
  table.add("basic_file_sink, flush_on(info), ENOSPC at write 10", "file", "return", f.content,
            f.write_calls, "promise", "reported by the error handler; that record lost");
}

// EAGAIN at the 10th write of stdout_sink (a non-blocking stdout whose pipe
// is full): stdout_sink_base::log ignores what fwrite and fflush return
// (sinks/stdout_sinks-inl.h), so the record is lost and nothing says so.
TEST(spdlog_gate, eagain_on_stdout_loses_a_record_silently) {
  auto r =
      gate_run({prog, "stdout", std::to_string(records), "return"}).fault("EAGAIN@write:10").run();
  ASSERT_EQ(r.fault().events.size(), 1u) << r;
  EXPECT_TRUE(in_order(r.obs.out.data)) << r;
  EXPECT_EQ(loggers::survived(r.obs.out.data), records - 1) << r;
  EXPECT_EQ(r.obs.err.data, "") << "no error reported" << r;
  EXPECT_EQ(r.obs.status, wait_status::exited(0)) << r;
  table.add("stdout_sink, EAGAIN at write 10", "pipe", "return", r.obs.out.data, r.stdout_writes(),
            "observation", "one record lost, nothing reported");
}

// Many threads, one logger (README: the _mt loggers are thread-safe, the _st
// ones are not). 8 threads log 4,000 records. basic_file_sink writes a
// record with one fwrite, so even _st's lines come out whole (stdio locks
// each call); the color sink on a tty writes a record in five pieces (its
// colors around the level: sinks/ansicolor_sink-inl.h), and _st's null mutex
// lets other threads' pieces in between. What tears is recorded, never
// asserted: it may not happen in a given run. Untraced, so that the threads
// run on every CPU at once.
TEST(spdlog_gate, mt_loggers_keep_records_whole_from_8_threads) {
  constexpr long many = 4000;
  const std::string whole =
      R"(\[[^\]]*\] \[app\] \[(\x1b\[[0-9;]*m)*(info|error)(\x1b\[m)?\] rec \d+ (info|error))";
  struct c {
    const char* config;
    const char* name;
    sink_kind sink;
  };
  for (auto [config, name, sink] : {c{"file", "basic_file_sink_mt", sink_kind::file},
                                    c{"file_st", "basic_file_sink_st", sink_kind::file},
                                    c{"stdout_color", "stdout_color_mt", sink_kind::pty},
                                    c{"stdout_color_st", "stdout_color_st", sink_kind::pty}}) {
    SCOPED_TRACE(config);
    gate_run g({prog, config, std::to_string(many), "return", "8"});
    g.untraced().env("TERM=xterm");  // traced, the threads would share one CPU; colors need
                                     // a TERM spdlog knows (details/os-inl.h is_color_terminal)
    if (sink == sink_kind::file) g.watch("app.log");
    auto r = g.stdout_to(sink == sink_kind::file ? sink_kind::pipe : sink).run();
    const std::string& text = sink == sink_kind::file ? r.file("app.log").content : r.obs.out.data;
    const auto torn = no_torn_record(text, whole);
    const bool mt = !std::string(config).ends_with("_st");
    if (mt) {
      EXPECT_TRUE(torn) << r;
      EXPECT_TRUE(each_once(text, many)) << r;
    }
    std::cout << config << ": " << torn.why << "\n";  // the counts, which differ run to run
    loggers::gate_table{"spdlog", many}.add(
        std::string(name) + ", 8 threads", sink == sink_kind::file ? "file" : "pty", "return", text,
        -1, mt ? "promise" : "observation",
        torn ? "no line torn" : "lines torn: other threads' records between a record's pieces");
  }
}

}  // namespace
}  // namespace flushcheck
