// The Easylogging++ gate: what Easylogging++ (9.97, Debian 12's
// libeasyloggingpp-dev) documents about flushing, asserted on real runs, and
// what it does not promise, recorded. Each case adds its row to
// docs/loggers.md (flushcheck/logger_table.hpp). Quotes are from its README.md
// (abumq/easyloggingpp, "Manual For v9.97.0") and the installed
// /usr/include/easylogging++.h; what the source does is cited from
// /usr/include/easylogging++.h and .cc (see targets/loggers/easyloggingpp_logger.cpp).
#include <gtest/gtest.h>

#include <csignal>
#include <string>

#include "gate.hpp"
#include "logger_table.hpp"

namespace flushcheck {
namespace {

const std::string prog = FLUSHCHECK_PROGRAM_EASYLOGGINGPP_LOGGER;
constexpr long records = 50;  // every 5th is a WARNING: 4, 9, ..., 49

gate_result run_file(const std::string& config, const std::string& death, kill_plan cut = {}) {
  return gate_run({prog, config, std::to_string(records), death}).watch("app.log").cut(cut).run();
}

gate_result run_stdout(const std::string& death, sink_kind sink, kill_plan cut = {}) {
  return gate_run({prog, "stdout", std::to_string(records), death}).stdout_to(sink).cut(cut).run();
}

/// The last record a LogFlushThreshold of N has sent to the file when the
/// program stops after logging (-1: none). Easylogging++ counts each level's
/// records apart (isFlushNeeded, easylogging++.h:2265, one count per level)
/// and a flush at one level sends the whole std::fstream the levels share.
long last_flushed(long n) {
  long info = 0, warn = 0, last = -1;
  for (long i = 0; i < records; ++i) {
    long& count = i % 5 == 4 ? warn : info;
    if (++count >= n) {
      count = 0;
      last = i;
    }
  }
  return last;
}

bool has(const std::string& text, const std::string& needle) {
  return text.find(needle) != std::string::npos;
}

const loggers::gate_table table{"Easylogging++", records};

const std::string defaults = "setToDefault() (LogFlushThreshold 0, ImmediateFlush off)";
const std::string immediate = "ImmediateFlush flag, LogFlushThreshold 100";
const std::string held = "LogFlushThreshold 100";
const std::string console = "ToStandardOutput (std::cout), ToFile false";

// README.md, Logging Flags: "ImmediateFlush (16) | Flushes log with every
// log-entry (performance sensitive) - Disabled by default" (the same words in
// easylogging++.h:708). With it on, every record is in the file at SIGKILL,
// one write(2) each, even under a LogFlushThreshold of 100: dispatch() tests
// the flag before the threshold (easylogging++.cc:2232).
TEST(easyloggingpp_gate, immediate_flush_keeps_every_record_at_sigkill) {
  auto r = run_file("immediate_flush", "return", kill_plan::at_marker(1));
  const auto& f = r.file("app.log");
  EXPECT_TRUE(records_through(f.content, records - 1)) << r;
  EXPECT_TRUE(no_torn_record(f.content)) << r;
  EXPECT_TRUE(one_write_per_record(f.write_calls, f.content)) << r;
  table.add(immediate, "file", "SIGKILL", f.content, f.write_calls, "promise");
}

// The deliberately wrong configuration: README.md, Configuration:
// "Log_Flush_Threshold | size_t | Specifies number of log entries to hold
// until we flush pending log data", and its sample file's
// "LOG_FLUSH_THRESHOLD = 100 ## Flush after every 100 logs". 50 records are
// held in the std::fstream's buffer (8 KiB; 50 records are some 550 bytes):
// the same check must catch it.
TEST(easyloggingpp_gate, catches_a_log_flush_threshold_above_the_records) {
  auto r = run_file("threshold_100", "return", kill_plan::at_marker(1));
  const std::string text = r.file("app.log").content;
  EXPECT_FALSE(records_through(text, records - 1)) << "the gate must fail here" << r;
  EXPECT_TRUE(records_prefix(text, records)) << r;
  EXPECT_EQ(loggers::survived(text), 0) << "all 50 held, as documented" << r;
  table.add(held, "file", "SIGKILL", text, -1, "promise",
            "prefix only; the every-record check fails, as it must");
}

// The default. ImmediateFlush is "Disabled by default", yet nothing is held:
// setToDefault() sets LogFlushThreshold "0" (easylogging++.cc:376), and
// isFlushNeeded's `++count >= 0` (easylogging++.h:2266) holds at every
// record. Neither the 0 nor what it means is documented: recorded (the
// note says so only when it was seen), and only the prefix is asserted.
TEST(easyloggingpp_gate, default_configuration_flushes_every_record) {
  auto r = run_file("default", "return", kill_plan::at_marker(1));
  const auto& f = r.file("app.log");
  EXPECT_TRUE(records_prefix(f.content, records)) << r;
  const bool all = loggers::survived(f.content) == records;
  table.add(defaults, "file", "SIGKILL", f.content, f.write_calls, "observation",
            all ? "threshold 0 flushes at every record; ImmediateFlush is not needed" : "");
}

// A threshold below the records: "Flush after every 100 logs" read across
// levels would send records 0..47 (3 flushes of 16) by the SIGKILL. The count
// is per level: the 16th and 32nd INFO records are rec 18 and rec 38, and the
// 10 WARNINGs never reach 16, so 0..38 arrive (the WARNINGs among them ride
// the INFO flushes) in 2 writes, and 39..49 are held.
TEST(easyloggingpp_gate, log_flush_threshold_counts_each_level_apart) {
  auto r = run_file("threshold_16", "return", kill_plan::at_marker(1));
  const auto& f = r.file("app.log");
  const long last = last_flushed(16);  // 38
  EXPECT_TRUE(records_prefix(f.content, records)) << r;
  const bool per_level = loggers::survived(f.content) == last + 1;
  table.add("LogFlushThreshold 16", "file", "SIGKILL", f.content, f.write_calls, "observation",
            per_level
                ? "counted per level: 0.." + std::to_string(last) + " arrive, not 0.." +
                      std::to_string((records / 16) * 16 - 1) + " as 16 records a flush would give"
                : "");
}

// README.md, Manually Flushing and Rolling Log Files: "You can manually flush
// log files using `el::Logger::flush()` (to flush single logger with all
// referencing log files) or `el::Loggers::flushAll()` (to flush all log files
// for all levels)." Either, then _exit: the held records are in the file.
TEST(easyloggingpp_gate, logger_flush_or_flush_all_writes_every_record_before_a_hard_exit) {
  struct c {
    const char* death;
    const char* label;
  };
  for (auto [death, label] : {c{"flush_exit", "el::Loggers::flushAll(), _exit"},
                              c{"logger_flush_exit", "el::Logger::flush(), _exit"}}) {
    auto r = run_file("threshold_100", death);
    const auto& f = r.file("app.log");
    EXPECT_TRUE(records_through(f.content, records - 1)) << death << r;
    table.add(held, "file", label, f.content, f.write_calls, "promise");
  }
}

// No flush at exit is documented. At return and exit() the static elStorage
// (INITIALIZE_EASYLOGGINGPP) is destroyed, and ~RegisteredLoggers() flushes
// every stream (easylogging++.h:2355). _exit and abort destroy nothing (the
// crash handler does not take SIGABRT without ELPP_HANDLE_SIGABRT).
TEST(easyloggingpp_gate, held_records_at_return_exit_hard_exit_and_abort) {
  for (const char* death : {"return", "exit", "_exit", "abort"}) {
    auto r = run_file("threshold_100", death);
    const std::string text = r.file("app.log").content;
    EXPECT_TRUE(records_prefix(text, records)) << death << r;
    const bool all = loggers::survived(text) == records;
    table.add(held, "file", death, text, all ? r.file("app.log").write_calls : -1, "observation",
              all ? "written when the loggers are destroyed" : "");
  }
}

// README.md, Crash Handling ("Prerequisite: Define macro
// `ELPP_FEATURE_CRASH_LOG`"): "Easylogging++ provides ability to handle
// unexpected crashes for GCC compilers. This is active by default and can be
// disabled by defining macro `ELPP_DISABLE_DEFAULT_CRASH_HANDLING`." and
// "Default handler and stack trace uses `default` logger." Nothing is said of
// flushing. The handler logs "CRASH HANDLED; ..." at FATAL, and the FATAL
// record aborts (easylogging++.cc:2645): the process dies of SIGABRT, not
// SIGSEGV. What reaches the file is what the logger's threshold flushes: all
// of it with the default (threshold 0 flushes the FATAL record too), none of
// it under LogFlushThreshold 100, the crash report included.
TEST(easyloggingpp_gate, crash_handler_logs_the_crash_but_flushes_nothing) {
  const std::string crash = "CRASH HANDLED; Application has crashed due to [SIGSEGV] signal";
  auto r = run_file("default", "segv");
  const std::string text = r.file("app.log").content;
  EXPECT_TRUE(records_prefix(text, records)) << r;
  const bool aborted =
      r.obs.status.type() == wait_status::kind::signaled && r.obs.status.signal() == SIGABRT;
  table.add(defaults, "file", "SIGSEGV (default crash handler)", text, -1, "observation",
            aborted && has(text, crash) ? "the crash is logged; the process dies of SIGABRT" : "");
  auto lost = run_file("threshold_100", "segv");
  const std::string none = lost.file("app.log").content;
  EXPECT_TRUE(records_prefix(none, records)) << lost;
  const bool nothing = loggers::survived(none) == 0 && !has(none, "CRASH HANDLED");
  table.add(held, "file", "SIGSEGV (default crash handler)", none, -1, "observation",
            nothing ? "the handler flushes nothing, not even its crash report" : "");
}

// ToStandardOutput writes `std::cout << line << std::flush` (ELPP_COUT_LINE,
// easylogging++.h:541), whatever the threshold: each record is out before the
// next, on a pipe as on a terminal, and an _exit loses nothing. Not
// documented (README.md says only "Whether or not to write logs to standard
// output e.g, terminal or command prompt"): recorded, only the prefix asserted.
TEST(easyloggingpp_gate, standard_output_is_flushed_at_every_record) {
  for (sink_kind sink : {sink_kind::pipe, sink_kind::pty}) {
    SCOPED_TRACE(to_string(sink));
    auto r = run_stdout("return", sink, kill_plan::at_marker(1));
    EXPECT_TRUE(records_prefix(r.obs.out.data, records)) << r;
    const bool each = loggers::survived(r.obs.out.data) == records &&
                      visible_at_marker(r.obs, 1, false, "rec 49");
    table.add(console, std::string(to_string(sink)), "SIGKILL", r.obs.out.data, r.stdout_writes(),
              "observation", each ? "std::flush after each line (ELPP_COUT_LINE)" : "");
  }
  auto r = run_stdout("_exit", sink_kind::pipe);
  EXPECT_TRUE(records_prefix(r.obs.out.data, records)) << r;
  table.add(console, "pipe", "_exit", r.obs.out.data, r.stdout_writes(), "observation");
}

// ENOSPC at the 3rd write to the file (the default: one write per record).
// The failed flush sets the std::fstream's badbit; dispatch() then finds
// fs->fail() at every record and reports it through ELPP_INTERNAL_ERROR, which
// is empty without ELPP_DEBUG_ERRORS (easylogging++.h:196). Nobody clears the
// stream: every later record is lost, and nothing is said. Observed, not
// promised: what is asserted is only that what is left is in order.
TEST(easyloggingpp_gate, enospc_once_on_the_file_loses_every_later_record) {
  auto r = gate_run({prog, "default", std::to_string(records), "return"})
               .watch("app.log")
               .fault("ENOSPC@file:{logdir}/app.log:write:3")
               .kill_at_marker(1)
               .run();
  ASSERT_EQ(r.fault().events.size(), 1u) << r;
  const auto& f = r.file("app.log");
  EXPECT_TRUE(in_order(f.content)) << r;
  const long n = loggers::survived(f.content);
  table.add(defaults, "file", "ENOSPC at write 3, SIGKILL", f.content, f.write_calls, "observation",
            n == 2 && r.obs.err.data.empty()
                ? "records 2-49 lost: the stream stays bad after the failed flush; nothing reported"
                : "");
}

// EAGAIN at the 3rd write to stdout: std::cout's flush fails, cout takes
// badbit (docs/faults.md: "badbit in C++"), and Easylogging++ never looks at
// it: every later `std::cout << line` is dropped by the stream's sentry.
// Observed, not promised: only the prefix property is asserted.
TEST(easyloggingpp_gate, eagain_once_on_stdout_loses_every_later_record) {
  auto r = gate_run({prog, "stdout", std::to_string(records), "return"})
               .fault("EAGAIN@write:3")
               .kill_at_marker(1)
               .run();
  ASSERT_EQ(r.fault().events.size(), 1u) << r;
  EXPECT_TRUE(records_prefix(r.obs.out.data, records)) << r;
  const long n = loggers::survived(r.obs.out.data);
  table.add(console, "pipe", "EAGAIN at write 3, SIGKILL", r.obs.out.data, r.stdout_writes(),
            "observation",
            n == 2 ? "records 2-49 lost: std::cout stays bad after the failed flush" : "");
}

}  // namespace
}  // namespace flushcheck
