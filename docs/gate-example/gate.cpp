// The gate: minilog's promises about buffering, checked on real runs.
#include <gtest/gtest.h>
#include <flushcheck/gate.hpp>

namespace {

const std::string app = FLUSHCHECK_PROGRAM_APP;  // from flushcheck_add_gate(... PROGRAMS app)

flushcheck::gate_result killed_after_logging(const std::string& flush_on) {
  return flushcheck::gate_run({app, flush_on, "30"})  // records 0..29; errors 2, 5, ..., 29
      .watch("app.log")                               // read $FLUSHCHECK_LOG_DIR/app.log after
      .kill_at_marker(1)                              // SIGKILL where the app says "logged"
      .run();
}

// The promise: with flush_on(error), every record up to the last error is
// in the file even when the process is SIGKILLed.
TEST(minilog_gate, flush_on_error_keeps_every_record_through_the_last_error) {
  auto r = killed_after_logging("error");
  const auto& log = r.file("app.log");
  EXPECT_TRUE(flushcheck::records_through(log.content, 29)) << r;
  EXPECT_TRUE(flushcheck::no_torn_record(log.content)) << r;
  EXPECT_EQ(log.write_calls, 10) << "one write per error record" << r;
}

// flush_on(info): one write(2) per record.
TEST(minilog_gate, flush_on_info_is_one_write_per_record) {
  auto r = killed_after_logging("info");
  EXPECT_TRUE(
      flushcheck::one_write_per_record(r.file("app.log").write_calls, r.file("app.log").content))
      << r;
}

// The gate must be able to fail: without flush_on the records are still in
// stdio's buffer when SIGKILL comes, so the promise does not hold.
TEST(minilog_gate, catches_a_logger_without_flush_on) {
  auto r = killed_after_logging("none");
  EXPECT_FALSE(flushcheck::records_through(r.file("app.log").content, 29)) << r;
  EXPECT_TRUE(flushcheck::records_prefix(r.file("app.log").content, 30)) << r;
}

}  // namespace
