// Every write cut of a property case from one run
// (harness/property/every_write_cut.hpp): derived verdicts against each cut
// run for real, on C stdio and C++ iostreams, on a pipe, a pty and a log
// file; a driver that does not take the same path twice falls back, and
// the report says so; a search with cuts derived and one without.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "cli_runner.hpp"
#include "every_write_cut.hpp"
#include "property_run.hpp"

namespace flushcheck {
namespace {

workload_op log_op(long bytes, int level = 1) { return {workload_op::kind::log, level, bytes, 0}; }
const workload_op flush_op{workload_op::kind::flush, 0, 0, 0};

/// DRIVER's property that a KILL tears no record and leaves a prefix, on SINKS.
property_spec kill_spec(const std::string& driver, const write_target& in = write_target::out()) {
  property_spec spec;
  spec.name = "kill_keeps_a_prefix";
  spec.argv = {driver};
  spec.in = in;
  spec.raw_in = in.text();
  if (in.is_file()) spec.watch = {in.file_name()};
  spec.promises[property_end::kill].prefix = true;
  spec.promises[property_end::kill].no_torn_record = true;
  spec.cuts = {kill_plan::when_kind::write};
  spec.complete();
  return spec;
}

workload_case kill_case(std::vector<workload_op> ops, sink_kind sink) {
  workload_case c;
  c.ops = std::move(ops);
  c.end = property_end::kill;
  c.cut = kill_plan::when_kind::write;
  c.sink = sink;
  return c;
}

/// C's every write cut, derived, against each of them run for real: those
/// before the cut the derivation shows keep the promise, that one ends as
/// it does, and there is no write past the last.
void expect_derivation_agrees(const property_spec& spec, const workload_case& c) {
  const workload_outcome derived = run_every_write_cut(spec, c);
  ASSERT_TRUE(derived.derivation) << derived.error << derived.missed;
  const case_derivation& d = *derived.derivation;
  ASSERT_EQ(d.not_derived, "") << d.detail;
  ASSERT_GT(d.cuts, 0);
  EXPECT_GE(d.verified, d.cuts > 1 ? 2 : 1);
  EXPECT_TRUE(derived.tested()) << derived.missed;
  EXPECT_EQ(d.at + 1 == d.cuts, derived.kept()) << "the last cut, or the first that broke it";
  for (long at = 0; at <= d.cuts; ++at) {
    workload_case k = c;
    k.at = at;
    const workload_outcome real = run_workload_case(spec, k);
    const std::string where =
        "write cut " + std::to_string(at + 1) + " of " + std::to_string(d.cuts) + ": " + real.repro;
    if (at == d.cuts) {
      EXPECT_FALSE(real.missed.empty()) << "a write past the derived ones: " << where;
      break;
    }
    ASSERT_TRUE(real.tested()) << real.error << real.missed << where;
    if (at < d.at) {
      EXPECT_TRUE(real.kept()) << real.broken() << where;
    } else if (at == d.at) {
      EXPECT_EQ(real.broken(), derived.broken()) << where;
    }
  }
}

// C stdio's buffer (4,096 bytes on a pipe or a file) writes a record longer
// than it in pieces: a KILL between them tears it. Line-buffered on a pty,
// a record is one write. Each verdict derived is the verdict run.
TEST(every_write_cut, derived_cuts_agree_with_each_cut_run_for_real) {
  const std::vector<workload_op> big = {log_op(100), log_op(5000), log_op(40), log_op(8193),
                                        log_op(10)};
  const std::vector<workload_op> flushed = {log_op(100), flush_op,   log_op(3000),
                                            flush_op,    log_op(70), log_op(1500)};
  for (const char* driver : {FLUSHCHECK_TARGET_STDIO_DRIVER, FLUSHCHECK_TARGET_STDIO_DRIVER_CPP})
    for (sink_kind sink : {sink_kind::pipe, sink_kind::file, sink_kind::pty})
      for (const auto& ops : {big, flushed}) {
        SCOPED_TRACE(std::string(driver) + " on " + std::string(to_string(sink)));
        expect_derivation_agrees(kill_spec(driver), kill_case(ops, sink));
      }
}

// minilog writes its log file a record at a time, a record longer than its
// 4,096-byte buffer in two writes: the second cut tears it.
TEST(every_write_cut, a_log_files_cuts_agree_and_the_tear_is_the_cut_shown) {
  property_spec spec = kill_spec(FLUSHCHECK_TARGET_MINILOG_DRIVER, write_target::file("app.log"));
  spec.argv.push_back("info");
  spec.complete();
  const workload_case c = kill_case({log_op(20), log_op(6000), log_op(30)}, sink_kind::pipe);
  expect_derivation_agrees(spec, c);
  const workload_outcome out = run_every_write_cut(spec, c);
  EXPECT_EQ(out.broken(), (breach{{promise_term_id::no_torn_record, "", property_end::kill, false},
                                  check_id::no_torn_record}))
      << out.repro;
}

// racy_driver decides at random, each run, whether records wait in a queue
// that only a flush empties: what one run wrote is not what the next
// writes. A sample run for real differs from the derivation, and the case
// is checked at its own cut, as without one; the report counts why.
TEST(every_write_cut, a_driver_that_does_not_take_the_same_path_falls_back_and_says_so) {
  const std::string file = file_with("racy.toml", R"(
[[property]]
name = "racy_kill_prefix"
command = ["{racy}"]
stdout = ["pipe"]
cuts = ["write"]
[property.promise]
KILL = "prefix"
)");
  const auto r = cli({"gate", file, "--var", std::string("racy=") + FLUSHCHECK_TARGET_RACY_DRIVER,
                      "--seed", "5", "--cases", "60", "--json"});
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  const auto kill = nlohmann::json::parse(r.out).at("properties").at(0).at("ends").at("KILL");
  const auto& every = kill.at("every_write_cut");
  const std::string why = "a cut run for real differed from its derivation";
  // A case that logs a record shows it 3 times in 8: its uncut run writes
  // at once (1 in 2), and its first or last cut, run for real, holds its
  // records (3 in 4). In a run here 41 uncut runs wrote at once and 18 cases
  // showed it. That none of the N cases that log shows it has odds of
  // (5/8)^N: under 10^-8 for the 40 or more of 60 that do.
  ASSERT_TRUE(every.at("own_cut_only").contains(why)) << every.dump(1);
  EXPECT_GT(every.at("own_cut_only").at(why).get<long>(), 0);
  EXPECT_NE(every.at("own_cut_only_example").at(why).get<std::string>().find(", run for real,"),
            std::string::npos)
      << every.dump(1);
  const auto text =
      cli({"gate", file, "--var", std::string("racy=") + FLUSHCHECK_TARGET_RACY_DRIVER, "--seed",
           "5", "--cases", "60"});
  EXPECT_NE(text.out.find("cases at their own cut only; "), std::string::npos) << text.out;
  EXPECT_NE(text.out.find(": " + why + " (as: write cut "), std::string::npos) << text.out;
}

// The same search with its cuts derived and without: each case that a KILL
// at a write tested is checked at every write of its workload, so more
// cuts than cases; without, one each, and the line that searches again
// says --derive off.
TEST(every_write_cut, a_search_checks_every_write_cut_of_each_case_unless_told_not_to) {
  const std::string file = file_with("kill.toml", R"(
[[property]]
name = "stdio_kill_prefix"
command = ["{driver}"]
stdout = ["pipe", "file"]
cuts = ["write"]
[property.promise]
KILL = "prefix"
)");
  nlohmann::json kill[2];
  for (int k = 0; k < 2; ++k) {
    const auto r =
        cli({"gate", file, "--var", std::string("driver=") + FLUSHCHECK_TARGET_STDIO_DRIVER,
             "--seed", "5", "--cases", "40", "--json", "--derive", k == 0 ? "on" : "off"});
    ASSERT_EQ(r.code, 0) << r.out << r.err;
    const auto p = nlohmann::json::parse(r.out).at("properties").at(0);
    kill[k] = p.at("ends").at("KILL");
    EXPECT_EQ(p.at("repeat").get<std::string>().ends_with(" --derive off"), k == 1)
        << p.at("repeat");
  }
  const auto& on = kill[0].at("every_write_cut");
  EXPECT_EQ(on.at("derived_cases"), kill[0].at("tested")) << kill[0].dump(1);
  EXPECT_GT(on.at("derived_cuts").get<long>(), on.at("derived_cases").get<long>());
  EXPECT_TRUE(on.at("own_cut_only").empty()) << on.dump(1);
  EXPECT_EQ(kill[1].at("every_write_cut").at("derived_cases"), 0);
  const auto bad = cli({"gate", file, "--derive", "maybe"});
  EXPECT_EQ(bad.code, 2) << bad.out << bad.err;
}

}  // namespace
}  // namespace flushcheck
