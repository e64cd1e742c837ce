// The Boost.Log gate: what Boost.Log (1.74, Debian 12) documents about
// flushing, asserted on real runs, and what it does not promise, recorded.
// Each case adds its row to docs/loggers.md (flushcheck/logger_table.hpp).
// Quotes are from the installed headers (/usr/include/boost/log/...) and
// Boost.Log's documentation (boostorg/log doc/*.qbk, example/doc/*.cpp).
#include <gtest/gtest.h>

#include "gate.hpp"
#include "logger_table.hpp"

namespace flushcheck {
namespace {

const std::string prog = FLUSHCHECK_PROGRAM_BOOST_LOG_LOGGER;
constexpr long records = 50;  // every 5th is a warning: 4, 9, ..., 49

gate_result run_file(const std::string& config, const std::string& death, kill_plan cut = {}) {
  return gate_run({prog, config, std::to_string(records), death}).watch("app.log").cut(cut).run();
}

gate_result run_console(const std::string& config, const std::string& death, sink_kind sink,
                        kill_plan cut = {}) {
  return gate_run({prog, config, std::to_string(records), death}).stdout_to(sink).cut(cut).run();
}

/// app.log's content, "" if it was never created: text_file_backend opens
/// the file at the first record it writes, and an async sink's feeding
/// thread may not have got there.
std::string app_log(const gate_result& r) {
  return r.files.count("app.log") ? r.file("app.log").content : "";
}
long app_log_writes(const gate_result& r) {
  return r.files.count("app.log") ? r.file("app.log").write_calls : -1;
}

const loggers::gate_table table{"Boost.Log", records};

const std::string file_default = "text_file_backend (auto_flush off, the default)";
const std::string console_default = "add_console_log(std::cout) (auto_flush off, the default)";
const std::string async_file = "asynchronous_sink over text_file_backend, auto_flush";

// text_file_backend (sinks/text_file_backend.hpp): "auto_flush - Specifies a
// flag, whether or not to automatically flush the file after each written log
// record. By default, is false." With it on, every record is in the file at
// SIGKILL: consume() writes the record and its '\n' into the backend's
// std::ofstream, then flush() sends them, one write(2) each.
TEST(boost_log_gate, auto_flush_keeps_every_record_at_sigkill) {
  auto r = run_file("file_auto_flush", "return", kill_plan::at_marker(1));
  const auto& f = r.file("app.log");
  EXPECT_TRUE(records_through(f.content, records - 1)) << r;
  EXPECT_TRUE(no_torn_record(f.content)) << r;
  EXPECT_TRUE(one_write_per_record(f.write_calls, f.content)) << r;
  table.add("text_file_backend, auto_flush", "file", "SIGKILL", f.content, f.write_calls,
            "promise");
}

// The deliberately wrong configuration, which is the default: auto_flush off.
// The same check must catch it: the records sit in the std::ofstream's buffer
// (libstdc++'s filebuf: BUFSIZ, 8 KiB; 50 records are some 550 bytes).
TEST(boost_log_gate, catches_a_file_sink_without_auto_flush) {
  auto r = run_file("file", "return", kill_plan::at_marker(1));
  const std::string text = app_log(r);
  EXPECT_FALSE(records_through(text, records - 1)) << "the gate must fail here" << r;
  EXPECT_TRUE(records_prefix(text, records)) << r;
  table.add(file_default, "file", "SIGKILL", text, -1, "promise",
            "prefix only; the auto_flush check fails, as it must");
}

// core::flush (core/core.hpp): "The method performs flush on all registered
// sinks."; synchronous_sink::flush (sinks/sync_frontend.hpp) "performs
// flushing of any internal buffers that may hold log records", calling
// text_file_backend::flush, "The method flushes the currently open log file".
// Either, then _exit: every record is in the file.
TEST(boost_log_gate, core_or_sink_flush_writes_every_record_before_a_hard_exit) {
  struct c {
    const char* death;
    const char* label;
  };
  for (auto [death, label] : {c{"core_flush_exit", "core::flush(), _exit"},
                              c{"sink_flush_exit", "sink->flush(), _exit"}}) {
    auto r = run_file("file", death);
    EXPECT_TRUE(records_through(app_log(r), records - 1)) << death << r;
    table.add(file_default, "file", label, app_log(r), app_log_writes(r), "promise");
  }
}

// No flush at exit is promised. The core owns the sink; at return and exit()
// static destruction releases it, and the backend's std::ofstream is closed
// (flushed) with it. _exit and abort destroy nothing.
TEST(boost_log_gate, file_sink_at_return_exit_hard_exit_and_abort) {
  for (const char* death : {"return", "exit", "_exit", "abort"}) {
    auto r = run_file("file", death);
    const std::string text = app_log(r);
    EXPECT_TRUE(records_prefix(text, records)) << death << r;
    const bool all = loggers::survived(text) == records;
    table.add(file_default, "file", death, text, all ? app_log_writes(r) : -1, "observation",
              all ? "written when the sink is destroyed" : "");
  }
}

// add_console_log (utility/setup/console.hpp): "auto_flush A boolean flag that
// shows whether the sink should automatically flush the stream after each
// written record." Each record is out before the next, on a pipe as on a
// terminal. std::cout is synchronized with stdio (the default), so the
// stream's flush is an fflush of stdout.
TEST(boost_log_gate, console_auto_flush_flushes_every_record) {
  for (sink_kind sink : {sink_kind::pipe, sink_kind::pty}) {
    SCOPED_TRACE(to_string(sink));
    auto r = run_console("console_auto_flush", "return", sink, kill_plan::at_marker(1));
    EXPECT_TRUE(records_through(r.obs.out.data, records - 1)) << r;
    EXPECT_TRUE(one_write_per_record(r.stdout_writes(), r.obs.out.data)) << r;
    EXPECT_TRUE(visible_at_marker(r.obs, 1, false, "rec 49")) << r;
    table.add("add_console_log(std::cout), auto_flush", std::string(to_string(sink)), "SIGKILL",
              r.obs.out.data, r.stdout_writes(), "promise");
  }
}

// Without auto_flush (text_ostream_backend.hpp: "By default, is false")
// Boost.Log leaves each record in std::cout, and the rest is stdio's: stdout
// is fully buffered on a pipe, line buffered on a terminal. Not Boost.Log's
// promise either way: recorded. A flush before _exit reaches the stream:
// text_ostream_backend::flush, "The method flushes all attached streams."
TEST(boost_log_gate, console_without_auto_flush_is_left_to_stdio) {
  for (sink_kind sink : {sink_kind::pipe, sink_kind::pty}) {
    SCOPED_TRACE(to_string(sink));
    auto r = run_console("console", "return", sink, kill_plan::at_marker(1));
    EXPECT_TRUE(records_prefix(r.obs.out.data, records)) << r;
    const long n = loggers::survived(r.obs.out.data);
    std::string note;
    if (sink == sink_kind::pty && n == records) note = "all out: stdio line-buffers a terminal";
    if (sink == sink_kind::pipe && n == 0) note = "none out: stdio buffers a pipe fully";
    table.add(console_default, std::string(to_string(sink)), "SIGKILL", r.obs.out.data,
              n > 0 ? r.stdout_writes() : -1, "observation", note);
  }
  auto flushed = run_console("console", "core_flush_exit", sink_kind::pipe);
  EXPECT_TRUE(records_through(flushed.obs.out.data, records - 1)) << flushed;
  table.add(console_default, "pipe", "core::flush(), _exit", flushed.obs.out.data,
            flushed.stdout_writes(), "promise");
  auto lost = run_console("console", "_exit", sink_kind::pipe);
  EXPECT_TRUE(records_prefix(lost.obs.out.data, records)) << lost;
  table.add(console_default, "pipe", "_exit", lost.obs.out.data, -1, "observation");
}

// asynchronous_sink (sinks/async_frontend.hpp): a dedicated thread feeds the
// records to the backend. Its flush() "feeds all log records that may have
// been buffered to the backend and returns", then flushes the backend.
// core::flush() calls it; so does the shutdown of Boost.Log's own example
// (example/doc/sinks_async.cpp: remove_sink, stop(), then flush(), "Flush all
// log records that may have left buffered"). Each, then _exit: every record
// is in the file.
TEST(boost_log_gate, async_sink_flush_writes_every_record) {
  struct c {
    const char* death;
    const char* label;
  };
  for (auto [death, label] :
       {c{"core_flush_exit", "core::flush(), _exit"}, c{"sink_flush_exit", "sink->flush(), _exit"},
        c{"stop_flush_exit", "remove_sink, stop(), flush(), _exit"}}) {
    auto r = run_file("async_file", death);
    EXPECT_TRUE(records_through(app_log(r), records - 1)) << death << r;
    table.add(async_file, "file", label, app_log(r), app_log_writes(r), "promise");
  }
}

// Without a flush the records wait in the queue (doc/sink_frontends.qbk: it
// "introduces a certain latency between the fact of record emission and its
// actual processing (such as writing into a file)"). At return and exit the
// frontend's destructor calls stop() only, and stop() (async_frontend.hpp):
// "Returning from this method does not guarantee that there are no records
// left buffered in the sink frontend." Only the prefix property is checked.
TEST(boost_log_gate, async_sink_without_flush_keeps_a_prefix) {
  for (const char* death : {"SIGKILL", "_exit", "abort", "return", "exit"}) {
    const bool kill = std::string(death) == "SIGKILL";
    auto r = run_file("async_file", kill ? "return" : death,
                      kill ? kill_plan::at_marker(1) : kill_plan{});
    EXPECT_TRUE(records_prefix(app_log(r), records)) << death << r;
    const bool normal_end = std::string(death) == "return" || std::string(death) == "exit";
    const bool lost = loggers::survived(app_log(r)) < records;
    table.add(async_file, "file", death, app_log(r), -1, "observation",
              normal_end && lost ? "lost at a normal end: ~asynchronous_sink() calls stop(), "
                                   "not flush()"
                                 : "only the prefix property is checked");
  }
}

// ENOSPC at the 3rd write to the log file (auto_flush: one write per record).
// text_file_backend finds its stream no longer good at the next record,
// closes the file and opens it again with its open_mode, trunc by default
// (text_file_backend.cpp): the records written before the failure are
// erased with the failed one. Observed, not promised: what is asserted is
// only that what is left is in order.
TEST(boost_log_gate, enospc_once_on_the_file_erases_what_was_written) {
  auto r = gate_run({prog, "file_auto_flush", std::to_string(records), "return"})
               .watch("app.log")
               .fault("ENOSPC@file:{logdir}/app.log:write:3")
               .kill_at_marker(1)
               .run();
  ASSERT_EQ(r.fault().events.size(), 1u) << r;
  EXPECT_TRUE(in_order(app_log(r))) << r;
  const auto got = record_numbers(app_log(r));
  const long first = got.empty() ? records : got[0];  // the records before it were erased
  table.add("text_file_backend, auto_flush", "file", "ENOSPC at write 3, SIGKILL", app_log(r),
            app_log_writes(r), "observation",
            first > 0 ? "records 0.." + std::to_string(first - 1) +
                            " gone: the file is reopened with trunc after the failed write"
                      : "");
}

}  // namespace
}  // namespace flushcheck
