// Property gates (docs/gate.md, "Property gates") as a user runs them:
// `flushcheck gate FILE` with [[property]] tables over real drivers
// (targets/workload/): a broken promise shrunk to its known smallest case,
// the same seed giving the same search, a racy logger's failure reported
// with its rate, a log never created checked as "nothing arrived", bad
// tables refused with the line; and the C++ API under RC_GTEST_PROP.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <boost/property_tree/ptree.hpp>
#include <boost/property_tree/xml_parser.hpp>
#include <nlohmann/json.hpp>

#include <fstream>
#include <tuple>

#include "cli_runner.hpp"
#include "error.hpp"
#include "outcome_wire.hpp"
#include "property_gen.hpp"
#include "property_run.hpp"

namespace flushcheck {
namespace {

const std::string driver_var = std::string("driver=") + FLUSHCHECK_TARGET_STDIO_DRIVER;

// C stdio on a pipe holds what it logged in its buffer: _exit loses it all.
const std::string stdio_exit = R"(
[[property]]
name = "underscore_exit_keeps_all"
command = ["{driver}"]
stdout = ["pipe"]
[property.promise]
_exit = "all"
)";

nlohmann::json search(const std::string& file, std::vector<std::string> extra) {
  std::vector<std::string> args = {"gate", file, "--var", driver_var, "--json"};
  args.insert(args.end(), extra.begin(), extra.end());
  const auto r = cli(args);
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  return nlohmann::json::parse(r.out);
}

TEST(property_gate, a_broken_promise_shrinks_to_its_smallest_workload) {
  const auto j = search(file_with("exit.toml", stdio_exit), {"--seed", "1", "--cases", "100"});
  const auto& p = j.at("properties").at(0);
  ASSERT_FALSE(p.at("counterexample").is_null()) << p.dump(2);
  const auto& ce = p.at("counterexample");
  // One record, the smallest, at the lowest level, then _exit: nothing less breaks it.
  EXPECT_EQ(ce.at("workload"), "log debug 0; _exit 0") << ce.dump(2);
  EXPECT_EQ(ce.at("promise"), "all at _exit");
  EXPECT_EQ(ce.at("check"), "records_through 0 in stdout");
  EXPECT_TRUE(ce.at("deterministic")) << ce.dump(2);
  EXPECT_EQ(ce.at("runs"), 20);
  EXPECT_EQ(p.at("seed"), 1);
  // The [[case]] it prints, pasted into a gate file, fails the same way.
  const std::string pinned = file_with("pinned.toml", ce.at("case_toml").get<std::string>());
  const auto r = cli({"gate", pinned, "--var", driver_var});
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("FAIL  underscore_exit_keeps_all_counterexample: records_through 0 in "
                       "stdout: every record through 0 should have arrived in order; arrived: "
                       "[none]"),
            std::string::npos)
      << r.out;
}

// A cut at the N-th write to a log file: minilog flushing every record
// (flush_on info) never leaves half a record at a marker, but a record
// longer than stdio's 4,096-byte buffer takes two write(2) calls, and a KILL
// between them leaves it torn. Only a write cut on the file can find that.
TEST(property_gate, a_write_cut_on_a_log_file_finds_a_torn_record) {
  const std::string file = file_with("torn.toml", R"(
[[property]]
name = "kill_tears_no_record"
command = ["{minilog}", "info"]
watch = ["app.log"]
in = "file:app.log"
[property.promise]
KILL = "no_torn_record"
)");
  const auto r =
      cli({"gate", file, "--var", std::string("minilog=") + FLUSHCHECK_TARGET_MINILOG_DRIVER,
           "--seed", "3", "--cases", "200", "--json"});
  ASSERT_EQ(r.code, 1) << r.out << r.err;
  const auto ce = nlohmann::json::parse(r.out).at("properties").at(0).at("counterexample");
  ASSERT_FALSE(ce.is_null()) << r.out;
  EXPECT_EQ(ce.at("promise"), "no_torn_record at KILL") << ce.dump(2);
  const std::string toml = ce.at("case_toml");
  EXPECT_NE(toml.find("cut = \"KILL@file:{logdir}/*app.log*:write:"), std::string::npos) << toml;
  EXPECT_TRUE(ce.at("deterministic")) << ce.dump(2);
  // Pasted into a gate file, the case cuts the same write of the same log.
  const auto pinned = cli({"gate", file_with("pinned_torn.toml", toml), "--var",
                           std::string("minilog=") + FLUSHCHECK_TARGET_MINILOG_DRIVER});
  EXPECT_EQ(pinned.code, 1) << pinned.out << pinned.err;
  EXPECT_NE(pinned.out.find("FAIL  kill_tears_no_record_counterexample: no_torn_record"),
            std::string::npos)
      << pinned.out;
  // Its repeat line quotes the glob, which a shell would otherwise expand.
  EXPECT_NE(pinned.out.find(" --kill='KILL@file:/"), std::string::npos) << pinned.out;
}

TEST(property_gate, the_same_seed_searches_the_same_cases) {
  const std::string file = file_with("seed.toml", stdio_exit);
  const auto a = search(file, {"--seed", "77", "--cases", "50"});
  const auto b = search(file, {"--seed", "77", "--cases", "50"});
  const auto& ca = a.at("properties").at(0).at("counterexample");
  const auto& cb = b.at("properties").at(0).at("counterexample");
  EXPECT_EQ(ca.at("found_at_case"), cb.at("found_at_case"));
  EXPECT_EQ(ca.at("shrink_steps"), cb.at("shrink_steps"));
  EXPECT_EQ(ca.at("workload"), cb.at("workload"));
  // The text report prints the seed and how to search again.
  const auto r = cli({"gate", file, "--var", driver_var, "--seed", "77", "--cases", "50"});
  EXPECT_NE(r.err.find("property underscore_exit_keeps_all: seed 77, 50 cases"), std::string::npos)
      << r.err;
  // The line that searches again repeats the options that shape the search,
  // and names the binary that printed it (not on PATH here).
  EXPECT_NE(r.out.find("search again: " + std::string(FLUSHCHECK_TARGET_FLUSHCHECK) + " gate '" +
                       file + "' --var '" + driver_var +
                       "' --case 'underscore_exit_keeps_all' --cases 50 --max-seconds 30 "
                       "--seed 77\n"),
            std::string::npos)
      << r.out;
}

// --jobs: the cases run side by side on worker processes, and the report is
// the one a single worker makes: the same cases, tallies, counterexample,
// shrinking and rate (docs/gate.md, "Every core"). A broken promise, and a
// kept one whose four ends include cuts that a case may miss.
TEST(property_gate, the_same_seed_gives_the_same_json_with_1_and_4_jobs) {
  const std::string kept = R"(
[[property]]
name = "stdio_keeps_a_prefix"
command = ["{driver}"]
stdout = ["pipe", "file", "pty"]
[property.promise]
return = "all"
exit = "all"
KILL = "prefix"
TERM = "prefix"
)";
  for (const auto& [name, text, code] :
       {std::tuple{"broken.toml", stdio_exit, 1}, std::tuple{"kept.toml", kept, 0}}) {
    const std::string file = file_with(name, text);
    std::string json[2];
    for (int k = 0; k < 2; ++k) {
      const auto r = cli({"gate", file, "--var", driver_var, "--json", "--seed", "5", "--cases",
                          "80", "--jobs", k == 0 ? "1" : "4"});
      ASSERT_EQ(r.code, code) << r.out << r.err;
      json[k] = without_times(nlohmann::json::parse(r.out)).dump(1);
    }
    EXPECT_EQ(json[0], json[1]) << name;
    if (code == 0) {
      EXPECT_NE(json[0].find("\"cases\": 80,"), std::string::npos) << json[0];
    }
  }
}

// A property's own max_seconds is its budget where --max-seconds does not
// say, and the line that searches again repeats it; --max-seconds wins.
TEST(property_gate, a_propertys_own_budget_is_used_and_repeated) {
  std::string text = stdio_exit;
  text.insert(text.find("[property.promise]"), "max_seconds = 45\n");
  const std::string file = file_with("budget.toml", text);
  const auto own = cli({"gate", file, "--var", driver_var, "--seed", "77", "--cases", "50"});
  EXPECT_NE(own.out.find("' --case 'underscore_exit_keeps_all' --cases 50 --max-seconds 45 "
                         "--seed 77\n"),
            std::string::npos)
      << own.out;
  const auto flag = cli(
      {"gate", file, "--var", driver_var, "--seed", "77", "--cases", "50", "--max-seconds", "20"});
  EXPECT_NE(flag.out.find(" --cases 50 --max-seconds 20 --seed 77\n"), std::string::npos)
      << flag.out;
  const auto bad = cli({"gate", file_with("budget0.toml",
                                          "[[property]]\nname = \"p\"\n"
                                          "command = [\"x\"]\nmax_seconds = 0\n"
                                          "[property.promise]\nreturn = \"all\"\n")});
  EXPECT_EQ(bad.code, 2) << bad.out << bad.err;
  EXPECT_NE(bad.err.find("max_seconds"), std::string::npos) << bad.err;
}

TEST(property_gate, a_racy_loggers_counterexample_is_reported_with_its_rate) {
  const std::string file = file_with("racy.toml", R"(
[[property]]
name = "racy_return_keeps_all"
command = ["{racy}"]
stdout = ["pipe"]
[property.promise]
return = "all"
)");
  const auto r = cli({"gate", file, "--var", std::string("racy=") + FLUSHCHECK_TARGET_RACY_DRIVER,
                      "--seed", "3", "--json"});
  ASSERT_EQ(r.code, 1) << r.out << r.err;
  const auto ce = nlohmann::json::parse(r.out).at("properties").at(0).at("counterexample");
  // Each run of the racy driver loses its unflushed records with probability
  // 1/2 (getrandom): 0 or 20 failures of 20 has odds of 2 in a million.
  EXPECT_FALSE(ce.at("deterministic")) << ce.dump(2);
  // 20 runs rate it. When none of its 5 re-runs broke the promise again (odds
  // 1 in 32) it is shown unshrunk, a note says why, and the run that found it
  // counts too: 21 (a full run under load met the 1 in 32).
  const bool unshrunk = !ce.at("note").get<std::string>().empty();
  EXPECT_EQ(ce.at("runs"), unshrunk ? 21 : 20) << ce.dump(2);
  EXPECT_GT(ce.at("failed_runs").get<int>(), 0) << ce.dump(2);
  EXPECT_LT(ce.at("failed_runs").get<int>(), 20) << ce.dump(2);
}

TEST(property_gate, a_log_never_created_is_checked_as_nothing_arrived) {
  // stdio_driver logs to stdout and never creates app.log.
  const std::string file = file_with("never.toml", R"(
[[property]]
name = "never_all"
command = ["{driver}"]
watch = ["app.log"]
in = "file:app.log"
[property.promise]
return = "all"

[[property]]
name = "never_prefix"
command = ["{driver}"]
watch = ["app.log"]
in = "file:app.log"
[property.promise]
return = "prefix"
)");
  const auto j = search(file, {"--seed", "5", "--cases", "30"});
  const auto& all = j.at("properties").at(0);
  ASSERT_FALSE(all.at("counterexample").is_null()) << all.dump(2);
  EXPECT_EQ(all.at("error"), "");
  EXPECT_EQ(all.at("counterexample").at("failure"),
            "the log file 'app.log' was never created: every record through 0 should have "
            "arrived in order; arrived: [none]");
  const auto& prefix = j.at("properties").at(1);
  EXPECT_TRUE(prefix.at("pass")) << prefix.dump(2);
  EXPECT_EQ(prefix.at("cases"), 30);
}

TEST(property_gate, each_property_is_a_junit_testcase_with_its_counterexample) {
  const std::string file = file_with("junit.toml", stdio_exit + R"(
[[property]]
name = "exit_keeps_all"
command = ["{driver}"]
stdout = ["pipe", "pty", "file"]
[property.promise]
exit = "all"
return = "all"
)");
  const std::string xml = test_path("junit.xml");
  const auto r = cli({"gate", file, "--var", driver_var, "--seed", "2", "--cases", "40", "--junit",
                      xml, "--list"});
  EXPECT_EQ(r.out, "underscore_exit_keeps_all\nexit_keeps_all\n");
  const auto run =
      cli({"gate", file, "--var", driver_var, "--seed", "2", "--cases", "40", "--junit", xml});
  EXPECT_EQ(run.code, 1) << run.out << run.err;
  EXPECT_NE(run.out.find("PASS  exit_keeps_all: 40 cases kept the promise (seed 2"),
            std::string::npos)
      << run.out;
  boost::property_tree::ptree tree;
  boost::property_tree::read_xml(xml, tree);
  const auto& suite = tree.get_child("testsuites.testsuite");
  EXPECT_EQ(suite.get<int>("<xmlattr>.tests"), 2);
  EXPECT_EQ(suite.get<int>("<xmlattr>.failures"), 1);
  int failures = 0;
  for (const auto& [tag, tc] : suite) {
    if (tag != "testcase") continue;
    if (auto f = tc.get_child_optional("failure")) {
      ++failures;
      EXPECT_EQ(tc.get<std::string>("<xmlattr>.name"), "underscore_exit_keeps_all");
      EXPECT_NE(f->data().find("[[case]]"), std::string::npos) << f->data();
    }
  }
  EXPECT_EQ(failures, 1);
}

TEST(property_gate, a_promise_that_must_break_passes_only_when_it_breaks) {
  const std::string file = file_with("must.toml", R"(
[[property]]
name = "underscore_exit_loses_records"
command = ["{driver}"]
stdout = ["pipe"]
holds = false
[property.promise]
_exit = { lost_at_most = 0 }

[[property]]
name = "exit_loses_records"
command = ["{driver}"]
stdout = ["pipe"]
holds = false
[property.promise]
exit = { lost_at_most = 0 }
)");
  const auto r = cli({"gate", file, "--var", driver_var, "--seed", "4", "--cases", "40"});
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("PASS  underscore_exit_loses_records: broke 'lost_at_most 0 at _exit', "
                       "as it must, at case"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("records_at_least 1 in stdout: at least 1 records should have arrived, "
                       "0 did: [none]"),
            std::string::npos)
      << r.out;
  // exit() flushes stdio: 40 cases keep the promise that was to break.
  EXPECT_NE(r.out.find("FAIL  exit_loses_records: 40 cases kept the promise, which must break"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("1 of 2 properties kept their promise"), std::string::npos) << r.out;
}

/// Each file of BAD (its text, the message it must get after "bad.toml:")
/// is refused with exit 2 and that message.
void expect_refused(const std::vector<std::pair<std::string, std::string>>& bad) {
  for (const auto& [text, want] : bad) {
    const auto r = cli({"gate", file_with("bad.toml", text)});
    EXPECT_EQ(r.code, 2) << text << r.out << r.err;
    EXPECT_NE(r.err.find("bad.toml:" + want), std::string::npos) << text << "\n" << r.err;
  }
}

TEST(property_gate, a_bad_property_is_refused_with_its_line) {
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"[[property]]\nname = \"p\"\ncommand = [\"x\"]\n[property.promise]\nreturn = \"most\"\n",
       "5: promise 'most': expected all, through_last_flush, prefix, each_once, in_order, "
       "no_torn_record, or nothing"},
      {"[[property]]\nname = \"p\"\ncommand = [\"x\"]\n[property.promise]\nSEGV = \"all\"\n",
       "5: unknown end 'SEGV' in [property.promise]"},
      {"[[property]]\nname = \"p\"\ncommand = [\"x\"]\n", "1: property 'p': no [property.promise]"},
      {"[[property]]\nname = \"p\"\n[property.promise]\nreturn = \"all\"\n",
       "1: property 'p': no command"},
      {"[[property]]\nname = \"p\"\ncommand = [\"x\"]\nlevels = [\"loud\"]\n[property.promise]\n"
       "return = \"all\"\n",
       "4: levels: 'loud' is not one of debug, info, warn, error"},
      {"[[property]]\nname = \"p\"\ncommand = [\"x\"]\nwatch = [\"a.log\"]\nin = \"file:b.log\"\n"
       "[property.promise]\nKILL = \"prefix\"\n",
       "1: property 'p': in = \"file:b.log\": expected stdout, stderr or file:NAME with NAME in "
       "watch"},
      {"[[property]]\nname = \"p\"\ncommand = [\"x\"]\n[property.promise]\n_exit = { "
       "through_last_level = \"loud\" }\n",
       "5: through_last_level: expected debug, info, warn or error"},
      {"[[property]]\nname = \"p\"\ncommand = [\"x\"]\n[property.promise]\nfault = { "
       "lost_at_most = -1 }\n",
       "5: lost_at_most: expected a number >= 0"},
      {"[[property]]\nname = \"p\"\ncommand = [\"x\"]\nflavour = 1\n[property.promise]\n"
       "return = \"all\"\n",
       "4: unknown key 'flavour' in a property"},
      // A promise that checks nothing would pass whatever the library did.
      {"[[property]]\nname = \"p\"\ncommand = [\"x\"]\n[property.promise]\nreturn = {}\n",
       "5: return: an empty promise checks nothing"},
      {"[[property]]\nname = \"p\"\ncommand = [\"x\"]\n[property.promise]\nreturn = []\n",
       "5: return: an empty promise checks nothing"},
      {"[[property]]\nname = \"p\"\ncommand = [\"x\"]\n[property.promise]\nreturn = { typo = "
       "false }\n",
       "5: promise 'typo': expected all"},
      {"[[property]]\nname = \"p\"\ncommand = [\"x\"]\n[property.promise]\nreturn = { all = "
       "false }\n",
       "5: all = false checks nothing: leave it out"},
      {"[[property]]\nname = \"p\"\ncommand = [\"x\"]\n[property.promise]\nreturn = "
       "[\"nothing\", \"all\"]\n",
       "5: return: \"nothing\" goes with no other term"},
      {"[[property]]\nname = \"p\"\ncommand = [\"x\"]\n[property.always]\n[property.promise]\n"
       "return = \"all\"\n",
       "4: [property.always] is empty: it checks nothing"},
      // Checked before it is narrowed: 2^32 + 2 is not 2.
      {"[[property]]\nname = \"p\"\ncommand = [\"x\"]\nthreads = 4294967298\n"
       "[property.promise]\nreturn = \"all\"\n",
       "4: threads: expected 0 (one thread) or 2 to 16"},
  };
  expect_refused(bad);
}

// A promise's values are read by the same readers, with the same words, as a
// gate file's expect table (gate_file.bad_files_get_the_line_and_the_reason).
TEST(property_gate, a_promise_value_is_read_as_a_gate_file_reads_it) {
  const std::string head =
      "[[property]]\nname = \"p\"\ncommand = [\"x\"]\n[property.promise]\nreturn = { ";
  expect_refused({
      {head + "max_writes_per_record = 0 }\n", "5: max_writes_per_record: expected a number > 0"},
      {head + "no_torn_record = 3 }\n", "5: no_torn_record: expected true or a whole-line regex"},
      {head + "no_torn_record = \"((\" }\n", "5: no_torn_record: bad pattern"},
      {head + "lost_at_most = \"x\", all = true }\n", "5: lost_at_most: expected an integer"},
  });
}

// The C++ API: the same generators and checks, under RapidCheck's own
// runner and shrinker. C stdio flushes stdout at exit and at return, so
// every record arrives, on every sink.
property_spec stdio_exit_spec() {
  property_spec spec;
  spec.name = "stdio_exit";
  spec.argv = {FLUSHCHECK_TARGET_STDIO_DRIVER};
  spec.promises[property_end::exit].all = true;
  spec.promises[property_end::return_].all = true;
  spec.complete();
  return spec;
}

// What a worker process sends of a case's outcome is the outcome: every
// field read back as it was (all but the observation, never sent).
TEST(property_gate_api, an_outcome_crosses_from_a_worker_whole) {
  property_spec spec = stdio_exit_spec();
  spec.promises[property_end::kill].prefix = true;
  spec.complete();
  const workload_case c = gen_workload_case(spec, property_end::kill)(rc::Random(1), 10).value();
  const workload_outcome out = run_workload_case(spec, c);
  ASSERT_FALSE(out.checks.empty()) << out.error << out.missed;
  const std::string bytes = encode_outcome(out);
  const workload_outcome back = decode_outcome(bytes);
  EXPECT_EQ(encode_outcome(back), bytes);
  EXPECT_EQ(back.plan.key(), out.plan.key());
  EXPECT_EQ(back.plan.fault, out.plan.fault);
  EXPECT_EQ(back.broken(), out.broken());
  EXPECT_EQ(back.tested(), out.tested());
  EXPECT_EQ(back.repro, out.repro);
  EXPECT_EQ(back.status, out.status);
  EXPECT_EQ(back.terms, out.terms);
  ASSERT_EQ(back.checks.size(), out.checks.size());
  for (std::size_t i = 0; i < out.checks.size(); ++i) {
    EXPECT_EQ(back.checks[i].expect.describe(), out.checks[i].expect.describe());
    EXPECT_EQ(back.checks[i].outcome.why, out.checks[i].outcome.why);
    EXPECT_EQ(back.checks[i].pass(), out.checks[i].pass());
  }
  EXPECT_THROW(decode_outcome(bytes.substr(0, bytes.size() - 1)), harness_error);
  EXPECT_THROW(decode_outcome(bytes + "x"), harness_error);
  // A sink is sent by its name (the plan's first text that spells one):
  // one this build does not know is malformed bytes, not a sink.
  std::string unknown = bytes;
  const std::string sink(to_string(out.plan.sink));
  const auto at = unknown.find(sink);
  ASSERT_NE(at, std::string::npos);
  unknown[at + sink.size() - 1] = 'x';
  EXPECT_THROW(decode_outcome(unknown), harness_error);
}

RC_GTEST_PROP(property_gate_api, stdio_exit_and_return_keep_every_record, ()) {
  static const property_spec spec = stdio_exit_spec();
  const workload_case c = *gen_workload_case(spec);
  const workload_outcome out = run_workload_case(spec, c);
  RC_ASSERT(out.error.empty());
  RC_PRE(out.tested());  // a case whose cut or fault never came says nothing: discarded
  RC_ASSERT(out.kept());
}

}  // namespace
}  // namespace flushcheck
