// The log4cxx gate: what Apache log4cxx (1.0, Debian 12) documents about
// flushing, asserted on real runs, and what it does not promise, recorded.
// Each case adds its row to docs/loggers.md (tests/loggers/table.hpp).
#include <gtest/gtest.h>

#include "gate.hpp"
#include "logger_table.hpp"

namespace flushcheck {
namespace {

const std::string prog = FLUSHCHECK_PROGRAM_LOG4CXX_LOGGER;
constexpr long records = 50;  // every 5th is a WARN: 4, 9, ..., 49

gate_result run_file(const std::string& config, const std::string& death, kill_plan cut = {}) {
  return gate_run({prog, config, std::to_string(records), death}).watch("app.log").cut(cut).run();
}

const loggers::gate_table table{"log4cxx", records};

// WriterAppender::setImmediateFlush (writerappender.h): "the appender will
// flush at the end of each write. This is the default behavior." So every
// record is in the file when the process is SIGKILLed, one write each.
TEST(log4cxx_gate, immediate_flush_keeps_every_record_at_sigkill) {
  auto r = run_file("file", "return", kill_plan::at_marker(1));
  const auto& f = r.file("app.log");
  EXPECT_TRUE(records_through(f.content, records - 1)) << r;
  EXPECT_TRUE(no_torn_record(f.content)) << r;
  EXPECT_TRUE(one_write_per_record(f.write_calls, f.content)) << r;
  table.add("FileAppender (ImmediateFlush, the default)", "file", "SIGKILL", f.content,
            f.write_calls, "promise");
}

// The deliberately wrong configuration: BufferedIO (fileappender.h: the file
// "will be opened in buffered mode"; it turns ImmediateFlush off). The same
// check must catch it: the records sit in log4cxx's 8 KiB buffer.
TEST(log4cxx_gate, catches_a_buffered_file_appender) {
  auto r = run_file("file_buffered", "return", kill_plan::at_marker(1));
  const auto& f = r.file("app.log");
  EXPECT_FALSE(records_through(f.content, records - 1)) << "the gate must fail here" << r;
  EXPECT_TRUE(records_prefix(f.content, records)) << r;
  table.add("FileAppender, BufferedIO (8 KiB)", "file", "SIGKILL", f.content, f.write_calls,
            "promise", "prefix only; the ImmediateFlush check fails, as it must");
}

// writerappender.h warns that without ImmediateFlush "it is likely that the
// last few log events will not be recorded on disk when the application
// exits". Without BufferedIO there is nothing to defer: FileOutputStream
// opens the file without APR_BUFFERED and its flush() does nothing
// (src/main/cpp/fileoutputstream.cpp), so each record is one write(2).
TEST(log4cxx_gate, immediate_flush_off_alone_defers_nothing) {
  auto r = run_file("file_no_flush", "return", kill_plan::at_marker(1));
  const auto& f = r.file("app.log");
  EXPECT_TRUE(records_prefix(f.content, records)) << r;
  table.add("FileAppender, ImmediateFlush off", "file", "SIGKILL", f.content, f.write_calls,
            "observation",
            loggers::survived(f.content) == records ? "all kept: no buffer without BufferedIO, "
                                                      "unlike writerappender.h's warning"
                                                    : "");
}

// LogManager::shutdown() "Safely close[s] and remove[s] all appenders"
// (logmanager.h): a buffered appender's records are written then, and at a
// normal exit; _exit and abort lose them.
TEST(log4cxx_gate, buffered_io_is_written_at_shutdown_and_exit) {
  for (const char* death : {"shutdown_exit", "return", "exit"}) {
    auto r = run_file("file_buffered", death);
    const auto& f = r.file("app.log");
    EXPECT_TRUE(records_through(f.content, records - 1)) << death << r;
    table.add("FileAppender, BufferedIO (8 KiB)", "file",
              std::string(death) == "shutdown_exit" ? "shutdown(), _exit" : death, f.content,
              f.write_calls, std::string(death) == "shutdown_exit" ? "promise" : "observation");
  }
  for (const char* death : {"_exit", "abort"}) {
    auto r = run_file("file_buffered", death);
    EXPECT_TRUE(records_prefix(r.file("app.log").content, records)) << death << r;
    table.add("FileAppender, BufferedIO (8 KiB)", "file", death, r.file("app.log").content, -1,
              "observation");
  }
}

// AsyncAppender: a dispatcher thread writes the records. shutdown() closes it
// after the queue is written; a SIGKILL keeps at most a prefix.
TEST(log4cxx_gate, async_appender_drains_at_shutdown_and_sigkill_keeps_a_prefix) {
  auto drained = run_file("async", "shutdown_exit");
  EXPECT_TRUE(records_through(drained.file("app.log").content, records - 1)) << drained;
  table.add("AsyncAppender over FileAppender", "file", "shutdown(), _exit",
            drained.file("app.log").content, -1, "promise");
  for (const char* death : {"SIGKILL", "_exit"}) {
    const bool kill = std::string(death) == "SIGKILL";
    auto r =
        run_file("async", kill ? "return" : death, kill ? kill_plan::at_marker(1) : kill_plan{});
    EXPECT_TRUE(records_prefix(r.file("app.log").content, records)) << death << r;
    table.add("AsyncAppender over FileAppender", "file", death, r.file("app.log").content, -1,
              "observation", "only the prefix property is promised");
  }
}

// ConsoleAppender on System.out, ImmediateFlush by default: each record is
// out before the next, on a pipe as on a terminal.
TEST(log4cxx_gate, console_appender_flushes_every_record) {
  for (sink_kind sink : {sink_kind::pipe, sink_kind::pty}) {
    SCOPED_TRACE(to_string(sink));
    auto r = gate_run({prog, "console", std::to_string(records), "return"})
                 .stdout_to(sink)
                 .kill_at_marker(1)
                 .run();
    EXPECT_TRUE(records_through(r.obs.out.data, records - 1)) << r;
    EXPECT_TRUE(one_write_per_record(r.stdout_writes(), r.obs.out.data)) << r;
    EXPECT_TRUE(visible_at_marker(r.obs, 1, false, "rec 49")) << r;
    table.add("ConsoleAppender (System.out)", std::string(to_string(sink)), "SIGKILL",
              r.obs.out.data, r.stdout_writes(), "promise");
  }
}

// ENOSPC at the 3rd write to the log file (ImmediateFlush: one write per
// record). FileOutputStream::write throws an IOException for the failed
// write, and it leaves the logging call: nothing between the appender and
// the application catches it, so the program ends in std::terminate
// (SIGABRT) at the first failed write. Observed, not promised.
TEST(log4cxx_gate, enospc_once_on_the_file_ends_the_program) {
  auto r = gate_run({prog, "file", std::to_string(records), "return"})
               .watch("app.log")
               .fault("ENOSPC@file:{logdir}/app.log:write:3")
               .run();
  ASSERT_EQ(r.fault().events.size(), 1u) << r;
  const auto& f = r.file("app.log");
  EXPECT_TRUE(records_prefix(f.content, records)) << r;
  const bool aborted = r.obs.status == wait_status::signaled(SIGABRT, r.obs.status.core_dumped());
  table.add("FileAppender (ImmediateFlush, the default)", "file", "ENOSPC at write 3", f.content,
            f.write_calls, "observation",
            aborted ? "the IOException leaves the logging call: std::terminate, SIGABRT" : "");
}

}  // namespace
}  // namespace flushcheck
