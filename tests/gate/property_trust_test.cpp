// Property gates give a verdict about the library or none (docs/gate.md,
// "A verdict you can trust"): a cut that never came is not a kept promise,
// a search that checked nothing is not a pass, a driver that fails or a
// harness that fails is not a library that broke its promise; a printed
// repetition repeats what was seen; a budget bounds every run; results are
// said as they come.
#include <gtest/gtest.h>
#include <sys/mount.h>
#include <unistd.h>

#include <boost/property_tree/ptree.hpp>
#include <boost/property_tree/xml_parser.hpp>
#include <nlohmann/json.hpp>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "cli_runner.hpp"
#include "property_promise.hpp"
#include "workload_case.hpp"

namespace flushcheck {
namespace {

const std::string driver_var = std::string("driver=") + FLUSHCHECK_TARGET_STDIO_DRIVER;

/// `flushcheck gate FILE --var driver=... ARGS`, and how long it took.
struct timed {
  cli_result r;
  double seconds;
};
timed gate(const std::string& file, std::vector<std::string> args) {
  std::vector<std::string> all = {"gate", file, "--var", driver_var};
  all.insert(all.end(), args.begin(), args.end());
  const auto start = std::chrono::steady_clock::now();
  cli_result r = cli(all);
  return {r, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()};
}

nlohmann::json property_of(const cli_result& r, std::size_t i = 0) {
  return nlohmann::json::parse(r.out).at("properties").at(i);
}

/// A property over stdio_driver run through WRAPPER (a shell command that
/// ends with `exec "$0" "$@"`), promising PROMISE.
std::string wrapped(const std::string& wrapper, const std::string& promise,
                    const std::string& extra = "") {
  return "[[property]]\nname = \"p\"\ncommand = [\"/bin/sh\", \"-c\", '" + wrapper +
         "', \"{driver}\"]\nstdout = [\"pipe\"]\n" + extra + "[property.promise]\n" + promise +
         "\n";
}

// --- 1. No false PASS -------------------------------------------------------

// A driver started through `env -i` loses FLUSHCHECK_MARKER_FD: its markers
// are no-ops, so a KILL at a marker never comes. Before, 100 such cases
// "kept" KILL = "all" with exit 0; the same driver run directly fails at case 2.
TEST(property_trust, a_driver_that_never_reaches_its_marker_is_a_driver_that_failed) {
  const std::string file = file_with("envi.toml", R"(
[[property]]
name = "kill_keeps_all"
command = ["/usr/bin/env", "-i", "{driver}"]
stdout = ["pipe"]
cuts = ["marker"]
[property.promise]
KILL = "all"
)");
  const auto [r, seconds] = gate(file, {"--seed", "1", "--cases", "100", "--json"});
  EXPECT_EQ(r.code, 2) << r.out << r.err;
  const auto p = property_of(r);
  EXPECT_FALSE(p.at("pass"));
  EXPECT_EQ(p.at("error_kind"), "driver");
  EXPECT_NE(p.at("error").get<std::string>().find(
                "never reached its marker: does it speak the marker protocol"),
            std::string::npos)
      << p.dump(2);
  // Directly, the same promise breaks (stdio holds the records a KILL loses).
  const std::string direct = file_with("direct.toml", R"(
[[property]]
name = "kill_keeps_all"
command = ["{driver}"]
stdout = ["pipe"]
cuts = ["marker"]
[property.promise]
KILL = "all"
)");
  EXPECT_EQ(gate(direct, {"--seed", "1", "--cases", "100"}).r.code, 1);
}

// The same with fd 3, the marker protocol's, closed by a wrapper.
TEST(property_trust, a_driver_with_its_marker_fd_closed_is_a_driver_that_failed) {
  const std::string file = file_with(
      "fd3.toml", wrapped("exec 3>&- \"$0\" \"$@\"", "KILL = \"all\"", "cuts = [\"marker\"]\n"));
  const auto [r, seconds] = gate(file, {"--seed", "1", "--cases", "50", "--json"});
  EXPECT_EQ(r.code, 2) << r.out << r.err;
  EXPECT_EQ(property_of(r).at("error_kind"), "driver") << r.out;
}

// Cases whose cut never came are counted per end, with why, and a property
// passes only on the cases that tested what it promises.
TEST(property_trust, cases_whose_cut_never_came_are_counted_not_judged) {
  const std::string file = file_with("count.toml", R"(
[[property]]
name = "kill_prefix"
command = ["{driver}"]
stdout = ["pipe"]
cuts = ["write"]
[property.promise]
KILL = "prefix"
)");
  const auto [r, seconds] = gate(file, {"--seed", "3", "--cases", "60", "--json"});
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  const auto kill = property_of(r).at("ends").at("KILL");
  EXPECT_EQ(kill.at("generated"), 60);
  EXPECT_GT(kill.at("tested").get<long>(), 0) << kill.dump(2);
  // stdio on a pipe writes once, at its end: a cut at its 2nd to 40th write never comes.
  EXPECT_LT(kill.at("tested").get<long>(), 60) << kill.dump(2);
  long missed = 0;
  for (const auto& [why, n] : kill.at("missed").items()) {
    EXPECT_EQ(why, "the run ended before its cut's write to stdout");
    missed += n.get<long>();
  }
  EXPECT_EQ(missed + kill.at("tested").get<long>(), 60);
  const auto text = gate(file, {"--seed", "3", "--cases", "60"}).r;
  EXPECT_NE(text.out.find("cases that tested each end: KILL "), std::string::npos) << text.out;
}

// A watched file whose name holds a glob's special character: the cut's
// glob escapes it, so write cuts reach the file. Before, every write cut
// missed it and 300 cases "passed".
TEST(property_trust, a_watched_name_with_glob_characters_is_cut_at_its_writes) {
  const std::string driver = file_with("backslash_driver.py", R"(import os, sys
import flushcheck_workload
log = open(os.path.join(os.environ["FLUSHCHECK_LOG_DIR"], "a\\b[1]"), "w", buffering=1)
flushcheck_workload.run(sys.argv[1:], lambda level, n, m: log.write(level + " " + m + "\n"), log.flush)
)");
  const std::string file = file_with("glob.toml", R"(
[[property]]
name = "kill_prefix"
command = ["/usr/bin/python3", ")" + driver + R"("]
env = { PYTHONPATH = "{runtimes}" }
watch = ['a\b[1]']
in = 'file:a\b[1]'
cuts = ["write"]
[property.promise]
KILL = "prefix"
)");
  const auto [r, seconds] = gate(file, {"--seed", "2", "--cases", "30", "--json"});
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  const auto kill = property_of(r).at("ends").at("KILL");
  EXPECT_GT(kill.at("tested").get<long>(), 0) << kill.dump(2);
}

// --max-seconds 0 leaves no time to check anything: that is no pass, in
// text, JSON and JUnit; nan is refused.
TEST(property_trust, a_search_that_checked_nothing_is_never_a_pass) {
  const std::string file = file_with("zero.toml", R"(
[[property]]
name = "exit_keeps_all"
command = ["{driver}"]
[property.promise]
exit = "all"
)");
  for (const std::string budget : {"0", "1e-300"}) {
    const std::string xml = test_path("zero.xml");
    const auto [r, seconds] = gate(file, {"--max-seconds", budget, "--json", "--junit", xml});
    EXPECT_EQ(r.code, 1) << budget << r.out << r.err;
    const auto p = property_of(r);
    EXPECT_FALSE(p.at("pass")) << p.dump(2);
    EXPECT_EQ(p.at("error_kind"), "nothing_checked") << p.dump(2);
    boost::property_tree::ptree tree;
    boost::property_tree::read_xml(xml, tree);
    const auto& tc = tree.get_child("testsuites.testsuite.testcase");
    EXPECT_TRUE(tc.get_child_optional("failure")) << budget;
  }
  const auto text = gate(file, {"--max-seconds", "0"}).r;
  EXPECT_NE(text.out.find("FAIL  exit_keeps_all (seed "), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("nothing checked of what it promises at exit"), std::string::npos)
      << text.out;
  const auto nan = gate(file, {"--max-seconds", "nan"}).r;
  EXPECT_EQ(nan.code, 2) << nan.out << nan.err;
}

// Every end a property promises must be tested by some case: one that no
// case generated (too few cases) is said, never passed.
TEST(property_trust, an_end_no_case_tested_is_an_error) {
  const std::string file = file_with("few.toml", R"(
[[property]]
name = "many_ends"
command = ["{driver}"]
stdout = ["pipe"]
[property.promise]
return = "all"
exit = "all"
_exit = "prefix"
abort = "prefix"
TERM = "prefix"
KILL = "prefix"
fault = "prefix"
)");
  const auto [r, seconds] = gate(file, {"--seed", "1", "--cases", "2", "--json"});
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  const auto p = property_of(r);
  EXPECT_EQ(p.at("error_kind"), "nothing_checked") << p.dump(2);
  EXPECT_NE(p.at("error").get<std::string>().find("no case ended so (2 cases in all"),
            std::string::npos)
      << p.dump(2);
}

// A case that tested an end but had no record its promise counts checked
// nothing: an end whose every case is so fails as nothing checked (here no
// record is ever at error, so through_last_level has nothing to count).
TEST(property_trust, an_end_tested_but_never_checked_is_an_error) {
  const std::string file = file_with("unchecked.toml", R"(
[[property]]
name = "no_error_records"
command = ["{driver}"]
stdout = ["pipe"]
levels = ["debug", "info"]
[property.promise]
exit = { through_last_level = "error" }
)");
  const auto [r, seconds] = gate(file, {"--seed", "1", "--cases", "20", "--json"});
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  const auto p = property_of(r);
  EXPECT_EQ(p.at("error_kind"), "nothing_checked") << p.dump(2);
  EXPECT_GT(p.at("ends").at("exit").at("tested").get<long>(), 0) << p.dump(2);
  EXPECT_NE(p.at("error").get<std::string>().find("none had a record its promise counts"),
            std::string::npos)
      << p.dump(2);
}

// Once each end has had its chance at random, a case goes to a promised end
// no case has checked yet: 14 cases check all 7 ends (at random, 14 cases
// missed one on each of seeds 1 to 10), so a slow driver's short budget
// still reaches every end.
TEST(property_trust, a_short_search_tests_every_end_it_promises) {
  const std::string file = file_with("short.toml", R"(
[[property]]
name = "many_ends"
command = ["{driver}"]
stdout = ["pipe"]
[property.promise]
return = "all"
exit = "all"
_exit = "prefix"
abort = "prefix"
TERM = "prefix"
KILL = "prefix"
fault = "in_order"
)");
  for (const std::string seed : {"1", "2", "3", "4", "5"}) {
    const auto [r, seconds] = gate(file, {"--seed", seed, "--cases", "14", "--json"});
    EXPECT_EQ(r.code, 0) << "seed " << seed << r.out << r.err;
    const auto ends = property_of(r).at("ends");  // outlives the loop, as a temporary would not
    for (const auto& [end, t] : ends.items())
      EXPECT_GT(t.at("checked").get<long>(), 0) << "seed " << seed << " " << end << t.dump(2);
  }
}

// --- 2. No false FAIL -------------------------------------------------------

// A driver that dies at start-up ("Cannot find module") is a driver that
// failed, with its stderr, exit 2: not a deterministic counterexample.
TEST(property_trust, a_driver_that_dies_at_start_up_is_not_a_broken_library) {
  const std::string file = file_with(
      "dies.toml", wrapped("echo \"Error: Cannot find module flushcheck_workload\" >&2; exit 1",
                           "return = \"all\""));
  const auto [r, seconds] = gate(file, {"--seed", "1", "--json"});
  EXPECT_EQ(r.code, 2) << r.out << r.err;
  const auto p = property_of(r);
  EXPECT_EQ(p.at("error_kind"), "driver") << p.dump(2);
  EXPECT_TRUE(p.at("counterexample").is_null()) << p.dump(2);
  EXPECT_EQ(p.at("driver_stderr"), "Error: Cannot find module flushcheck_workload");
  const auto text = gate(file, {"--seed", "1"}).r;
  EXPECT_NE(text.out.find("ERROR p (seed 1): the driver failed its check run"), std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("        Error: Cannot find module flushcheck_workload\n"),
            std::string::npos)
      << text.out;
  // 127: its program was not found.
  const auto missing =
      gate(file_with("127.toml", wrapped("exec /nonexistent/driver", "return = \"all\"")), {});
  EXPECT_EQ(missing.r.code, 2) << missing.r.out << missing.r.err;
  EXPECT_NE(missing.r.out.find("its program could not be run (not found)"), std::string::npos)
      << missing.r.out;
}

// A driver that refuses the workload it is given (exit 64): a driver failure.
TEST(property_trust, a_driver_that_refuses_throw_is_a_driver_failure) {
  const std::string file = file_with("throw_c.toml", R"(
[[property]]
name = "throw_prefix"
command = ["{driver}"]
stdout = ["pipe"]
[property.promise]
throw = "prefix"
)");
  const auto [r, seconds] = gate(file, {"--seed", "1", "--cases", "5", "--json"});
  EXPECT_EQ(r.code, 2) << r.out << r.err;
  const auto p = property_of(r);
  EXPECT_EQ(p.at("error_kind"), "driver") << p.dump(2);
  EXPECT_NE(p.at("error").get<std::string>().find("refused the workload (exit 64)"),
            std::string::npos)
      << p.dump(2);
}

// Every counterexample shows the driver's last lines on stderr, escaped.
TEST(property_trust, a_counterexample_shows_the_drivers_stderr) {
  const std::string file = file_with(
      "stderr.toml", wrapped("printf \"warming up\\033[31m\\nready\\n\" >&2; exec \"$0\" \"$@\"",
                             "_exit = \"all\""));
  const auto [r, seconds] = gate(file, {"--seed", "1", "--cases", "50", "--json"});
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  const auto ce = property_of(r).at("counterexample");
  EXPECT_EQ(ce.at("driver_stderr"), "warming up\\x1b[31m\nready") << ce.dump(2);
}

/// A tmpfs of 1 MiB, filled to its last byte: a TMPDIR with no room. Skips
/// (the reason printed) where it cannot be mounted.
class full_tmpfs {
 public:
  full_tmpfs() : dir_(test_path("full")) {
    std::filesystem::create_directories(dir_);
    if (::mount("tmpfs", dir_.c_str(), "tmpfs", 0, "size=1m") != 0) {
      why_ = std::string("cannot mount a tmpfs here: ") + std::strerror(errno);
      return;
    }
    std::ofstream fill(dir_ + "/fill");
    const std::string block(4096, 'x');
    while (fill.write(block.data(), block.size())) {
    }
  }
  ~full_tmpfs() {
    if (why_.empty()) ::umount2(dir_.c_str(), MNT_DETACH);
  }
  const std::string& why_not() const { return why_; }
  const std::string& dir() const { return dir_; }

 private:
  std::string dir_, why_;
};

// A full $TMPDIR makes the file sink's writes fail with ENOSPC: the
// harness's failure (exit 4, said), never a verdict about the program.
TEST(property_trust, a_full_tmpdir_is_the_harness_failure) {
  const full_tmpfs full;
  if (!full.why_not().empty()) GTEST_SKIP() << full.why_not();
  auto env = clean_environment();
  env.push_back("TMPDIR=" + full.dir());
  const auto run =
      cli({"run", "--stdout=file", "--", FLUSHCHECK_TARGET_STDIO_SCRIPT, "line 30; exit 0"}, env);
  EXPECT_EQ(run.code, 4) << run.out << run.err;
  EXPECT_NE(run.err.find("was full when the run ended: the program's writes to it may have failed"),
            std::string::npos)
      << run.err;
  EXPECT_NE(run.out.find("note:    the file sink's file system"), std::string::npos) << run.out;
  const std::string file = file_with("full.toml", R"(
[[property]]
name = "file_keeps_all"
command = ["{driver}"]
stdout = ["file"]
[property.promise]
return = "all"
)");
  const auto r = cli({"gate", file, "--var", driver_var, "--seed", "1", "--json"}, env);
  EXPECT_EQ(r.code, 4) << r.out << r.err;
  const auto p = property_of(r);
  EXPECT_EQ(p.at("error_kind"), "harness") << p.dump(2);
  EXPECT_TRUE(p.at("counterexample").is_null()) << p.dump(2);
}

// --- 3. A repeat is a repeat --------------------------------------------------

// The case pinned from a holds = false property says holds = false: pasted,
// it passes while the bug is there, as the property did.
TEST(property_trust, a_case_pinned_from_a_property_that_must_break_passes_as_it_did) {
  const std::string file = file_with("must.toml", R"(
[[property]]
name = "underscore_exit_loses"
command = ["{driver}"]
stdout = ["pipe"]
holds = false
[property.promise]
_exit = "all"
)");
  const auto [r, seconds] = gate(file, {"--seed", "4", "--cases", "40", "--json"});
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  const std::string toml = property_of(r).at("counterexample").at("case_toml");
  EXPECT_NE(toml.find("holds = false\n"), std::string::npos) << toml;
  const auto pinned = gate(file_with("pinned.toml", toml), {});
  EXPECT_EQ(pinned.r.code, 0) << toml << pinned.r.out << pinned.r.err;
}

// The pinned case keeps every value as the file spells it: placeholders
// unexpanded (a "{x}" inside a path of this machine made it a parse error),
// and a multi-line argument as one basic string with "\n", which pasting
// cannot indent into another argument.
TEST(property_trust, a_pinned_case_keeps_values_as_written) {
  const std::string file = file_with("raw.toml", R"(
[[property]]
name = "raw"
command = ["{driver}", "log info 5\nlog warn 6"]
env = { HOME = "{here}/home", DRIVER = "{driver}" }
watch = ["{here}"]
stdout = ["pipe"]
[property.promise]
_exit = "all"
)");
  const auto [r, seconds] = gate(file, {"--seed", "1", "--cases", "40", "--json"});
  ASSERT_EQ(r.code, 1) << r.out << r.err;
  const std::string toml = property_of(r).at("counterexample").at("case_toml");
  EXPECT_NE(toml.find("command = [\"{driver}\", \"log info 5\\nlog warn 6\", "), std::string::npos)
      << toml;
  EXPECT_NE(toml.find("\"HOME\" = \"{here}/home\""), std::string::npos) << toml;
  EXPECT_NE(toml.find("\"DRIVER\" = \"{driver}\""), std::string::npos) << toml;
  EXPECT_NE(toml.find("watch = [\"{here}\"]"), std::string::npos) << toml;
  // Pasted as the text report shows it (indented), it fails the same way.
  std::string indented;
  for (std::size_t at = 0; at < toml.size();) {
    const auto nl = toml.find('\n', at);
    indented += "        " + toml.substr(at, nl - at) + "\n";
    at = nl + 1;
  }
  const auto pinned = gate(file_with("pinned.toml", indented), {});
  EXPECT_EQ(pinned.r.code, 1) << indented << pinned.r.out << pinned.r.err;
  EXPECT_NE(pinned.r.out.find("FAIL  raw_counterexample: records_through "), std::string::npos)
      << pinned.r.out;
}

// Pasted into its own file, the pinned case runs as the property's did
// whatever [defaults] says: its args are in the command already (appended
// again, after the workload's end, the driver refused the workload, exit
// 64), and its cut, faults and reader are the case's own (the [defaults]
// KILL at marker 1 killed it).
TEST(property_trust, a_pinned_case_runs_as_it_did_whatever_the_defaults_say) {
  const std::string head = R"(
[defaults]
command = ["{driver}"]
args = ["log info 0"]
cut = "KILL@marker:1"
faults = ["EIO@write:1"]
reader = "paused"

[[case]]
name = "plain"
args = ["return 0"]
cut = "never"
faults = []
reader = "prompt"
[[case.expect]]
exit_code = 0

[[property]]
name = "underscore_exit_loses"
stdout = ["pipe"]
holds = false
[property.promise]
_exit = "all"
)";
  const auto [r, seconds] = gate(file_with("defaults.toml", head), {"--seed", "4", "--json"});
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  const auto ce = property_of(r).at("counterexample");
  const std::string toml = ce.at("case_toml");
  EXPECT_NE(toml.find("args = []\n"), std::string::npos) << toml;
  const auto pinned = gate(file_with("pasted.toml", head + "\n" + toml),
                           {"--case", "underscore_exit_loses_counterexample", "--json"})
                          .r;
  ASSERT_EQ(pinned.code, 0) << toml << pinned.out << pinned.err;
  const auto j = nlohmann::json::parse(pinned.out);
  EXPECT_EQ(j.at("cases").at(0).at("status"), ce.at("status")) << toml << pinned.out;
}

// A repro line whose argument has a newline runs under sh (dash), as a CI
// step's script does: it says bash -c, never bash's $'...' alone.
TEST(property_trust, a_repro_line_runs_under_sh) {
  const std::string file = file_with("sh.toml", R"(
[[case]]
name = "two_lines"
command = [")" FLUSHCHECK_TARGET_STDIO_SCRIPT R"(", "line 3\nexit 0"]
[[case.expect]]
exit_code = 1
)");
  const auto r = cli({"gate", file, "--json"});
  ASSERT_EQ(r.code, 1) << r.out << r.err;
  const std::string repro = nlohmann::json::parse(r.out).at("cases").at(0).at("repro");
  EXPECT_EQ(repro.rfind("bash -c 'mkdir -p ", 0), 0u) << repro;  // the whole line: sh runs it
  // Run by /bin/sh (dash on Debian): the repeated run's script parses, and exits 0.
  const auto again = cli({"run", "--json", "--", "/bin/sh", "-c", repro});
  remove_log_dirs_of(repro);
  ASSERT_EQ(again.code, 0) << again.out << again.err;
  const auto j = nlohmann::json::parse(again.out);
  EXPECT_EQ(j.at("exit").at("code"), 0) << again.out;
  const std::string inner = j.at("stdout").at("data");
  EXPECT_NE(inner.find("exit:    exited 0"), std::string::npos) << inner;
}

// "search again" with a word that has a newline (a --var) is one `bash -c`
// line that sh runs, its seed and budget inside it: the seed went after
// the closing quote, where bash took it for $0, and the search ran with
// another. --max-seconds is repeated to the digit.
TEST(property_trust, search_again_repeats_the_seed_under_sh) {
  const std::string file = file_with("again.toml", R"(
[[property]]
name = "two_line_var"
command = ["{driver}", "{ops}"]
stdout = ["pipe"]
[property.promise]
_exit = "all"
)");
  const auto [r, seconds] = gate(file, {"--var", "ops=log info 5\nlog warn 6", "--seed", "77",
                                        "--cases", "5", "--max-seconds", "12.345678", "--json"});
  ASSERT_EQ(r.code, 1) << r.out << r.err;
  const std::string again = property_of(r).at("repeat");
  EXPECT_NE(again.find("bash -c '"), std::string::npos) << again;
  EXPECT_NE(again.find(" --max-seconds 12.345678 --seed 77'"), std::string::npos) << again;
  const auto run = cli({"run", "--json", "--", "/bin/sh", "-c", again});
  const auto j = nlohmann::json::parse(run.out);
  const std::string err = j.at("stderr").at("data");
  EXPECT_NE(err.find("property two_line_var: seed 77, 5 cases"), std::string::npos) << again << err;
}

// {runtimes} is the helpers' directory of the flushcheck that runs the file:
// no gate file hard-codes PYTHONPATH or NODE_PATH.
TEST(property_trust, runtimes_names_the_helpers_directory) {
  const std::string file = file_with("runtimes.toml", R"(
[[property]]
name = "python_exit_keeps_all"
command = ["/usr/bin/python3", ")" FLUSHCHECK_WORKLOAD_DIR R"(/stdio_driver.py"]
env = { PYTHONPATH = "{runtimes}" }
stdout = ["pipe"]
[property.promise]
exit = "all"
)");
  const auto [r, seconds] = gate(file, {"--seed", "1", "--cases", "10"});
  EXPECT_EQ(r.code, 0) << r.out << r.err;
}

// [defaults] reaches [[property]] tables as it reaches cases; a key of it
// that only a case takes, in a file with no case, is refused.
TEST(property_trust, defaults_apply_to_properties_and_no_key_is_dropped) {
  const std::string file = file_with("defaults.toml", R"(
[defaults]
command = ["{driver}"]
stdout = "pipe"

[[property]]
name = "from_defaults"
[property.promise]
exit = "all"
)");
  const auto [r, seconds] = gate(file, {"--seed", "1", "--cases", "10", "--json"});
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  const std::string unused = file_with("unused.toml", R"(
[defaults]
command = ["{driver}"]
cut = "KILL@marker:1"

[[property]]
name = "p"
[property.promise]
exit = "all"
)");
  const auto refused = gate(unused, {}).r;
  EXPECT_EQ(refused.code, 2) << refused.out << refused.err;
  EXPECT_NE(refused.err.find("unused.toml:4: [defaults] cut is used by no [[case]]"),
            std::string::npos)
      << refused.err;
}

// --seed is a decimal from 0 to 2^64-1: -1 does not wrap, 2^64 is not clamped.
TEST(property_trust, a_seed_out_of_range_is_refused) {
  const std::string file = file_with("seed.toml", wrapped("exec \"$0\" \"$@\"", "exit = \"all\""));
  for (const std::string seed : {"-1", "18446744073709551616", "x"}) {
    const auto r = gate(file, {"--seed", seed}).r;
    EXPECT_EQ(r.code, 2) << seed << r.out << r.err;
  }
  const auto top = gate(file, {"--seed", "18446744073709551615", "--cases", "3", "--json"}).r;
  EXPECT_EQ(property_of(top).at("seed"), 18446744073709551615ULL) << top.out << top.err;
}

// --- 4. Budgets that bound ----------------------------------------------------

// A driver that takes 2 s a run, with a 3 s budget: the search ends by its
// budget (before, a case's run went on past it, and a 5 s budget took 50 s).
TEST(property_trust, the_budget_bounds_every_run) {
  const std::string slow =
      file_with("slow.toml", wrapped("sleep 2; exec \"$0\" \"$@\"", "_exit = \"all\""));
  const auto [r, seconds] = gate(slow, {"--seed", "1", "--max-seconds", "3", "--json"});
  EXPECT_LT(seconds, 20) << r.out;  // the budget's 2 x 3 s, and a margin for a loaded machine
  const auto p = property_of(r);
  EXPECT_TRUE(p.at("budget_hit").get<bool>() || !p.at("counterexample").is_null()) << p.dump(2);
  // A driver that never ends, with timeout_ms 600000: the budget, not the timeout.
  const std::string hangs = file_with(
      "hangs.toml", wrapped("exec sleep 1000", "exit = \"all\"", "timeout_ms = 600000\n"));
  const auto h = gate(hangs, {"--max-seconds", "2", "--json"});
  EXPECT_LT(h.seconds, 20) << h.r.out;
  EXPECT_EQ(h.r.code, 1) << h.r.out << h.r.err;
  EXPECT_EQ(property_of(h.r).at("error_kind"), "nothing_checked") << h.r.out;
}

// The re-runs that rate a counterexample stop at the budget and say so: 20
// re-runs of a 0.5 s driver take 10 s, more than the whole budget of 6 s,
// which leaves the search (a loss at _exit, found at the first cases) time
// enough on a loaded machine.
TEST(property_trust, re_runs_stop_at_the_budget_and_say_so) {
  const std::string slow =
      file_with("rate.toml", wrapped("sleep 0.5; exec \"$0\" \"$@\"", "_exit = \"all\""));
  const auto [r, seconds] = gate(slow, {"--seed", "1", "--max-seconds", "6", "--json"});
  ASSERT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_LT(seconds, 30) << r.out;
  const auto ce = property_of(r).at("counterexample");
  ASSERT_TRUE(ce.is_object()) << "no counterexample within the budget: " << r.out;
  EXPECT_TRUE(ce.at("rate_stopped")) << ce.dump(2);
  // Its repeat line keeps the run's own timeout, not what the budget left of it.
  EXPECT_NE(ce.at("repro").get<std::string>().find(" --timeout=20000 "), std::string::npos)
      << ce.dump(2);
  EXPECT_LT(ce.at("runs").get<int>(), 20) << ce.dump(2);
  const auto text = gate(slow, {"--seed", "1", "--max-seconds", "6"}).r;
  EXPECT_NE(text.out.find(" runs (stopped at --max-seconds)"), std::string::npos) << text.out;
}

// A 100 GB sparse log is read no longer than the budget.
TEST(property_trust, a_huge_log_is_read_within_the_budget) {
  const std::string file =
      file_with("sparse.toml",
                wrapped("truncate -s 100G \"$FLUSHCHECK_LOG_DIR/app.log\"; exec \"$0\" \"$@\"",
                        "return = \"prefix\"", "watch = [\"app.log\"]\nin = \"file:app.log\"\n"));
  const auto [r, seconds] = gate(file, {"--seed", "1", "--max-seconds", "2", "--json"});
  EXPECT_LT(seconds, 20) << r.out << r.err;
}

// --- 5. Results as they come ---------------------------------------------------

// With stdout a file, as in CI, each property's line is there when it ends:
// the second property's driver reads the first one's PASS from that file
// before it starts, or it fails its check run.
TEST(property_trust, each_result_is_printed_when_it_ends) {
  const std::string out = test_path("gate.out");
  const std::string file =
      file_with("live.toml", R"(
[[property]]
name = "first"
command = ["{driver}"]
stdout = ["pipe"]
[property.promise]
exit = "all"

[[property]]
name = "second"
command = ["/bin/sh", "-c", 'grep -q "PASS  first" ")" +
                                 out + R"(" || exit 1; exec "$0" "$@"', "{driver}"]
stdout = ["pipe"]
[property.promise]
exit = "all"
)");
  const auto r = cli({"run", "--", "/bin/sh", "-c",
                      "exec \"$0\" gate \"$1\" --var \"$2\" --seed 1 --cases 5 > \"$3\"",
                      FLUSHCHECK_TARGET_FLUSHCHECK, file, driver_var, out});
  std::ifstream in(out);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("PASS  second: 5 cases kept the promise"), std::string::npos)
      << text << r.out << r.err;
}

// On a terminal, stderr has a live progress line.
TEST(property_trust, a_terminal_shows_the_search_as_it_goes) {
  const std::string file =
      file_with("progress.toml", wrapped("sleep 0.2; exec \"$0\" \"$@\"", "exit = \"all\""));
  run_options o;
  o.argv = {FLUSHCHECK_TARGET_FLUSHCHECK,
            "gate",
            file,
            "--var",
            driver_var,
            "--seed",
            "1",
            "--cases",
            "6"};
  o.env = clean_environment();
  o.stderr_sink = sink_kind::pty;
  o.timeout = std::chrono::seconds(60);
  const observation obs = run(o);
  EXPECT_NE(obs.err.data.find(" cases/s"), std::string::npos) << obs.err.data;
  EXPECT_NE(obs.err.data.find("p: "), std::string::npos) << obs.err.data;
}

// gate --html: the counterexample's run drawn, its repeat line and its [[case]].
TEST(property_trust, the_html_page_draws_the_counterexample) {
  const std::string file = file_with("page.toml", wrapped("exec \"$0\" \"$@\"", "_exit = \"all\""));
  const std::string page = test_path("gate.html");
  const auto [r, seconds] = gate(file, {"--seed", "1", "--cases", "40", "--html", page});
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  std::ifstream in(page);
  const std::string html((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(html.find("<svg"), std::string::npos);
  EXPECT_NE(html.find("Pin it in the gate file"), std::string::npos);
  EXPECT_NE(html.find("p_counterexample"), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);
}

// A violation that does not happen again in a few runs is not shrunk (it
// would spend the shrinking budget on luck): shown as found, with its rate.
TEST(property_trust, a_violation_that_never_comes_again_is_shown_unshrunk) {
  const std::string count = test_path("runs"), done = test_path("done");
  // The first case that logs a record (after the driver's check run) logs
  // nothing and exits 0, once: no later run breaks the promise.
  const std::string file = file_with(
      "once.toml", wrapped("n=$(cat " + count + " 2>/dev/null || echo 0); echo $((n+1)) > " +
                               count + "; if [ \"$n\" -ge 1 ] && [ ! -e " + done +
                               " ]; then case \"$*\" in *\"log \"*) touch " + done +
                               "; exit 0;; esac; fi; exec \"$0\" \"$@\"",
                           "return = \"all\""));
  const auto [r, seconds] = gate(file, {"--seed", "6", "--cases", "30", "--json"});
  ASSERT_EQ(r.code, 1) << r.out << r.err;
  const auto ce = property_of(r).at("counterexample");
  EXPECT_EQ(ce.at("shrink_steps"), 0) << ce.dump(2);
  EXPECT_EQ(ce.at("shrink_tries"), 0) << ce.dump(2);
  EXPECT_EQ(ce.at("failed_runs"), 1) << ce.dump(2);
  EXPECT_EQ(ce.at("runs"), 21) << ce.dump(2);
  EXPECT_NE(ce.at("note").get<std::string>().find("not shrunk"), std::string::npos);
  std::filesystem::remove(count);
  std::filesystem::remove(done);
  const auto text = gate(file, {"--seed", "6", "--cases", "30"}).r;
  EXPECT_NE(text.out.find("failed 1 of 21 runs; note: "), std::string::npos) << text.out;
}

// --- 6. The vocabulary ----------------------------------------------------------

// throw: an uncaught exception, here C++'s (std::terminate): stdio's buffer dies with it.
TEST(property_trust, throw_is_an_end_of_its_own) {
  const std::string file = file_with("throw.toml", R"(
[[property]]
name = "throw_keeps_all"
command = ["{cpp}"]
stdout = ["pipe"]
[property.promise]
throw = "all"
)");
  const auto r =
      cli({"gate", file, "--var", std::string("cpp=") + FLUSHCHECK_TARGET_STDIO_DRIVER_CPP,
           "--seed", "1", "--cases", "20", "--json"});
  ASSERT_EQ(r.code, 1) << r.out << r.err;
  const auto ce = property_of(r).at("counterexample");
  EXPECT_EQ(ce.at("workload"), "log debug 0; throw") << ce.dump(2);
  EXPECT_EQ(ce.at("status"), "killed by SIGABRT") << ce.dump(2);
}

// in_order: what arrived is a subsequence of the records, in order, none
// twice; stated where a logger drops by design.
TEST(property_trust, in_order_is_a_term) {
  property_spec spec;
  spec.argv = {"driver"};
  spec.promises[property_end::kill].in_order = true;
  spec.complete();
  workload_case c;
  c.ops = {{workload_op::kind::log, 1, 10, 0}, {workload_op::kind::log, 1, 10, 0}};
  c.end = property_end::kill;
  c.cut = kill_plan::when_kind::write;
  const auto checks = promised_checks(spec, c, plan_of(spec, c));
  ASSERT_EQ(checks.size(), 1u);
  EXPECT_EQ(checks[0].term.id, promise_term_id::in_order);
  EXPECT_EQ(checks[0].term.text(), "in_order at KILL");
  EXPECT_EQ(checks[0].expect.check, check_id::in_order);
}

// A broken term is named as the gate file spells it, with its end, and
// says when `all` was checked only as a prefix.
TEST(property_trust, a_term_names_its_value_its_end_and_how_it_was_checked) {
  using id = promise_term_id;
  EXPECT_EQ(
      (promised_term{id::through_last_level, "warn", property_end::underscore_exit, false}).text(),
      "through_last_level warn at _exit");
  EXPECT_EQ((promised_term{id::all, "", property_end::kill, true}).text(),
            "all at KILL (as a prefix)");
}

// Terms combine as they read: a table inside the array.
TEST(property_trust, terms_combine_as_they_read) {
  const std::string file = file_with("combined.toml", R"(
[[property]]
name = "combined"
command = ["{driver}"]
stdout = ["pipe"]
[property.promise]
return = ["all", "no_torn_record", { max_writes_per_record = 1 }]
)");
  const auto r = gate(file, {"--list"}).r;
  EXPECT_EQ(r.code, 0) << r.out << r.err;
}

}  // namespace
}  // namespace flushcheck
