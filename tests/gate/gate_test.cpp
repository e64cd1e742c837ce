// The gate API's checks on real runs: the threaded mode of no_torn_record
// and each_once, each shown to fail where it must.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>

#include "error.hpp"
#include "gate.hpp"
#include "gate_wire.hpp"
#include "record_checks.hpp"

namespace flushcheck {
namespace {

// Two threads print a line each in two putc calls with a barrier between
// them: both threads' first halves come before either's second, so the
// second thread's first half lands inside the first thread's line on every
// run. Both lines are torn, and the check says so. (A 200 ms sleep parted
// them before: an order that a loaded machine need not keep.)
TEST(gate_checks, the_table_has_one_row_per_check_id_in_its_order_each_name_once) {
  const auto& kinds = check_kinds();
  ASSERT_EQ(kinds.size(), static_cast<std::size_t>(check_id::signal) + 1);
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    EXPECT_EQ(static_cast<std::size_t>(kinds[i].id), i) << kinds[i].name;
    ASSERT_NE(find_check(kinds[i].name), nullptr);
    EXPECT_EQ(find_check(kinds[i].name)->id, kinds[i].id) << "a name twice: " << kinds[i].name;
  }
  EXPECT_EQ(find_check("records_in_order"), nullptr);
}

TEST(gate_checks, threaded_no_torn_record_catches_interleaved_lines) {
  auto torn =
      gate_run({FLUSHCHECK_TARGET_STDIO_SCRIPT, "threads 2; putc 5; barrier; putc 5; newline"})
          .untraced()
          .run();
  // Payload letters of ops 1 and 3 (from 0): both threads' B's come first
  // (the barrier parts them from the D's); how the D's and the two newlines
  // interleave after it is the scheduler's ("BBBBBBBBBBDDDDD\nDDDDD\n",
  // "BBBBBBBBBBDDDDDDDDDD\n\n", ...): every order tears both lines.
  const std::string& out = torn.obs.out.data;
  ASSERT_EQ(out.size(), 22u) << torn;
  EXPECT_EQ(out.substr(0, 10), "BBBBBBBBBB") << torn;
  EXPECT_EQ(std::count(out.begin(), out.end(), 'D'), 10) << torn;
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 2) << torn;
  EXPECT_EQ(out.back(), '\n') << torn;
  const auto check = no_torn_record(torn.obs.out.data, "B{5}D{5}");
  EXPECT_FALSE(check) << torn;
  EXPECT_NE(check.why.find("2 of 2 lines torn"), std::string::npos) << check;
  auto whole = gate_run({FLUSHCHECK_TARGET_STDIO_SCRIPT, "threads 2; line 9"}).untraced().run();
  EXPECT_TRUE(no_torn_record(whole.obs.out.data, "B{9}")) << whole;
  EXPECT_EQ(whole.files.size(), 0u);
  EXPECT_EQ(whole.stdout_writes(), 0);  // untraced: no count
  EXPECT_FALSE(no_torn_record("BBBBBBBBB\nBBB", "B{9}")) << "the last line has no newline";
  EXPECT_THROW(no_torn_record("x\n", "(unclosed"), usage_error);
}

// A record cut short (the last line, no newline after it) did not arrive:
// "rec 12" cut after "rec 1" would read as another record. The checks that
// count records leave it out and show it apart; record_numbers counts it
// not; no_torn_record reports the tear.
TEST(gate_checks, a_torn_record_is_not_one_that_arrived) {
  const std::string text = "rec 0\nrec 1 xxxxxxxx";
  const gate_check through = records_through(text, 1);
  EXPECT_FALSE(through.ok);
  EXPECT_EQ(through.why,
            "every record through 1 should have arrived in order; arrived: [0]; torn, not "
            "counted: record 1 (the last line, 14 bytes, no newline)");
  const gate_check prefix = records_prefix(text, 2);
  EXPECT_TRUE(prefix.ok) << prefix.why;
  EXPECT_EQ(prefix.why,
            "records 0..0 of 2 arrived, in order; torn, not counted: record 1 (the last line, "
            "14 bytes, no newline)");
  EXPECT_FALSE(no_torn_record(text).ok);
  stream_digest d;
  d.feed(text);
  d.finish();
  EXPECT_EQ(d.records(), 1);
}

TEST(gate_checks, records_each_once_in_any_order) {
  EXPECT_TRUE(each_once("rec 2\nrec 0\nrec 1\n", 3));
  const auto missing = each_once("rec 2\nrec 0\nrec 0\nrec 7\n", 3);
  EXPECT_FALSE(missing);
  EXPECT_NE(missing.why.find("missing [1], twice [0], not logged [7]"), std::string::npos)
      << missing;
  EXPECT_FALSE(each_once("rec 0\nrec 1\nrec 2\nrec 3\n", 3)) << "one more than logged";
}

// records_at_least: all but a few, in order, none twice (a property's lost_at_most).
TEST(gate_checks, records_at_least_is_all_but_a_few_in_order) {
  EXPECT_TRUE(records_at_least("rec 0\nrec 2\nrec 3\n", 3)) << "one of 0..3 lost";
  const auto few = records_at_least("rec 0\nrec 3\n", 3);
  EXPECT_FALSE(few);
  EXPECT_EQ(few.why, "at least 3 records should have arrived, 2 did: [0 3]");
  EXPECT_FALSE(records_at_least("rec 0\nrec 2\nrec 1\n", 2)) << "out of order";
  EXPECT_FALSE(records_at_least("rec 0\nrec 1\nrec 1\n", 2)) << "twice";
  EXPECT_TRUE(records_at_least("", 0));
}

// A gate reads a stream in the pieces a reader got: a tag, a number or a
// newline may be split anywhere. Each text below, fed in every split into
// two and three pieces, gives what it gives fed whole, check by check.
TEST(gate_checks, a_stream_split_anywhere_checks_as_it_does_whole) {
  const std::vector<std::string> texts = {"rec 0\nrec 1\nrec 12 x\nrec -3\n",
                                          "xx rec 7\nrec rec 8\nrec\n9\nrec 2", "rec 1\nrec 0\n",
                                          "aarec 0\nrerec 1\nrec +2 rec 5\n", "rec 0 x\nrec 1 x\n"};
  std::vector<gate_expect> checks(9);
  using id = check_id;
  const check_id ids[] = {id::records_through,   id::records_prefix,  id::in_order,
                          id::each_once,         id::no_torn_record,  id::no_torn_record,
                          id::visible_at_marker, id::records_through, id::records_at_least};
  for (std::size_t i = 0; i < checks.size(); ++i) checks[i].check = ids[i], checks[i].number = 2;
  checks[5].text = R"(rec \d+ x)";
  checks[6].text = "rec 1\nrec";
  checks[6].number = 1;
  observation obs;
  obs.markers.push_back({});
  obs.markers[0].stdout_visible = 12;
  auto outcomes = [&](const std::string& text, std::vector<std::size_t> cuts) {
    stream_digest d("rec ");
    for (const auto& e : checks) d.add(e);
    std::size_t from = 0;
    cuts.push_back(text.size());
    for (std::size_t at : cuts) d.feed(std::string_view(text).substr(from, at - from)), from = at;
    d.finish();
    std::string out = std::to_string(d.records());
    for (std::size_t i = 0; i < checks.size(); ++i) {
      const auto c = d.result(i, {&obs, 3});
      out += "\n" + std::to_string(c.ok) + std::to_string(c.checked) + " " + c.why;
    }
    return out;
  };
  for (const auto& text : texts) {
    const std::string whole = outcomes(text, {});
    for (std::size_t a = 0; a <= text.size(); ++a)
      for (std::size_t b = a; b <= text.size(); ++b)
        ASSERT_EQ(outcomes(text, {a, b}), whole) << "\"" << text << "\" cut at " << a << ", " << b;
  }
  EXPECT_EQ(record_numbers("xx rec 7\nrec rec 8\nrec\n9\nrec 2"), (std::vector<long>{7, 2}))
      << "the first tag of a line, its number on that line";
  EXPECT_EQ(record_numbers("aarec 0\nrerec 1\nrec +2 rec 5\n"), (std::vector<long>{0, 1, 2}));
  EXPECT_EQ(record_numbers("rec 99999999999999999999999\nrec -99999999999999999999999\n"),
            (std::vector<long>{LONG_MAX, LONG_MIN}))
      << "clamped, as strtol";
}

// gate_run::expect checks as the bytes arrive, so keep(none) holds nothing:
// the outcome, the record count and the write count are all there.
TEST(gate_checks, expect_checks_streams_and_files_that_are_not_kept) {
  gate_expect through, once, plain;
  through.check = check_id::records_through, through.number = 2999;
  once.in = write_target::file("app.log"), once.check = check_id::each_once, once.number = 3000;
  plain.in = write_target::err(), plain.check = check_id::no_torn_record;
  auto r = gate_run({"sh", "-c",
                     "seq 0 2999 | sed 's/^/rec /' | tee \"$FLUSHCHECK_LOG_DIR/app.log\"; "
                     "printf torn >&2"})
               .watch("app.log")
               .expect(through)
               .expect(once)
               .expect(plain)
               .keep({keep_policy::kind::none, 0})
               .run();
  ASSERT_EQ(r.checks.size(), 3u) << r;
  EXPECT_TRUE(r.checks[0]) << r.checks[0];
  EXPECT_TRUE(r.checks[1]) << r.checks[1];
  EXPECT_FALSE(r.checks[2]) << r.checks[2];
  EXPECT_EQ(r.checks[2].why, "the last line is torn: \"torn\"");
  EXPECT_EQ(r.records.at(write_target::out()), 3000);
  EXPECT_EQ(r.records.at(write_target::file("app.log")), 3000);
  EXPECT_EQ(r.obs.out.bytes, 25890u);
  EXPECT_EQ(r.obs.out.data, "");
  EXPECT_EQ(r.file("app.log").content, "");
  EXPECT_GT(r.writes(write_target::file("app.log")), 0);  // traced: tee's writes to it
}

/// A case's result crosses from a worker as bytes and back whole, where
/// each check reads; a check that reads what no write_target names is a
/// malformed result, not a check of something else.
TEST(gate_wire, a_case_result_round_trips_and_a_check_reading_nothing_known_is_refused) {
  gate_case_result c;
  c.name = "case";
  c.checks.resize(2);
  c.checks[0].expect.in = write_target::file("app.log");
  c.checks[1].expect.in = write_target::err();
  c.arrived = {{write_target::out(), 3}, {write_target::file("app.log"), 2}};
  const std::string bytes = encode_case_result(c);
  const gate_case_result back = decode_case_result(bytes);
  EXPECT_EQ(back.checks.at(0).expect.in, write_target::file("app.log"));
  EXPECT_EQ(back.checks.at(1).expect.in, write_target::err());
  EXPECT_EQ(back.arrived, c.arrived);
  std::string bad = bytes;
  bad.replace(bad.find("stderr"), 6, "stdin!");
  EXPECT_THROW(decode_case_result(bad), harness_error);
}

}  // namespace
}  // namespace flushcheck
