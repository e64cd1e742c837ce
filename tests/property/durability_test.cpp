// `flushcheck durability` (docs/loggers.md, "Durability"): what each end
// does to a configuration's records, found by search. C stdio on a pipe
// (stdio_driver) keeps every record at return and exit, loses what its
// buffer holds at _exit, abort and a KILL at a marker, and refuses throw (C
// has no exceptions): the table says so, as Markdown, JSON and SVG, in one
// row for the two properties of that configuration.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "clean_environment.hpp"
#include "cli_runner.hpp"

namespace flushcheck {
namespace {

const std::string driver_var = std::string("driver=") + FLUSHCHECK_TARGET_STDIO_DRIVER;

// C stdio on a pipe, once as a promise that holds and once as one that
// must break at _exit, with a finding: one configuration.
const std::string stdio_properties = R"(
[[property]]
name = "stdio_on_a_pipe"
command = ["{driver}"]
stdout = ["pipe"]
cuts = ["marker"]
[property.promise]
return = "prefix"

[[property]]
name = "stdio_loses_at_exit"
command = ["{driver}"]
stdout = ["pipe"]
cuts = ["marker"]
holds = false
finding = "findings.md#stdio"
[property.promise]
_exit = "all"
)";

TEST(durability, each_end_is_kept_lost_or_not_tested_as_the_library_does) {
  const std::string file = file_with("stdio.property.toml", stdio_properties);
  const std::string svg = test_path("durability.svg");
  const auto r = cli({"durability", "--var", driver_var, "--cases", "40", "--max-seconds", "20",
                      "--json", "--svg", svg, file});
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j.at("kind"), "durability");
  // The second property is the first's configuration: one row, its finding.
  ASSERT_EQ(j.at("rows").size(), 1u) << j.dump(2);
  const auto& ends = j.at("rows").at(0).at("ends");
  EXPECT_EQ(ends.at("return").at("kind"), "kept") << ends.dump(2);
  EXPECT_EQ(ends.at("exit").at("kind"), "kept") << ends.dump(2);
  EXPECT_EQ(ends.at("_exit").at("kind"), "lost") << ends.dump(2);
  EXPECT_EQ(ends.at("_exit").at("workload"), "log debug 0; _exit 0") << ends.dump(2);
  EXPECT_EQ(ends.at("_exit").at("ended"), "stdout on pipe") << ends.dump(2);
  // A cut's place is said apart from the workload.
  EXPECT_NE(ends.at("KILL").at("ended").get<std::string>().find("KILL at marker"),
            std::string::npos)
      << ends.dump(2);
  EXPECT_EQ(ends.at("abort").at("kind"), "lost") << ends.dump(2);
  EXPECT_EQ(ends.at("KILL").at("kind"), "lost") << ends.dump(2);
  EXPECT_EQ(ends.at("throw").at("kind"), "n/a") << ends.dump(2);
  EXPECT_NE(ends.at("throw").at("what").get<std::string>().find("refused"), std::string::npos);
  // An end the language lacks carries no repro line with this machine's paths.
  EXPECT_EQ(ends.at("throw").at("what").get<std::string>().find("; repeat: "), std::string::npos)
      << ends.dump(2);
  EXPECT_EQ(j.at("rows").at(0).at("finding"), "findings.md#stdio");
  std::ifstream in(svg);
  const std::string picture((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(picture.find("stdio_on_a_pipe at _exit: lost: log debug 0; _exit 0 (stdout on pipe; "),
            std::string::npos);
}

// The Markdown table: a row linked to its file and finding, a column per end.
TEST(durability, the_markdown_table_links_each_row_to_its_file_and_finding) {
  const std::string file = file_with("stdio_md.property.toml", stdio_properties);
  const auto md = cli({"durability", "--var", driver_var, "--cases", "40", "--max-seconds", "20",
                       "--markdown", "--links-from", "/", "--case", "stdio_on_a_pipe", "--case",
                       "stdio_loses_at_exit", file});
  ASSERT_EQ(md.code, 0) << md.err;
  EXPECT_NE(md.out.find("| configuration | return | exit | _exit | abort | throw | TERM | KILL | "
                        "fault |"),
            std::string::npos)
      << md.out;
  EXPECT_NE(md.out.find("`stdio_on_a_pipe` ([finding](findings.md#stdio)) | kept (40) | kept (40) "
                        "| lost: `log debug 0; _exit 0` (stdout on pipe) |"),
            std::string::npos)
      << md.out;
}

// A program that does not end at one end is "hung" there, not n/a; a
// driver that cannot start is no table of n/a with exit 0: its cells say
// error, and the exit status is 3.
// A case that breaks the promise is shrunk once the search's workers have
// ended: the shrinking's runs ended them as their orphans, mid-case, and
// each left its case's log directory behind (about 10 a search here).
TEST(durability, workers_end_their_cases_and_leave_nothing_behind) {
  const std::string tmp = test_path("tmp");
  std::filesystem::create_directories(tmp);
  auto env = clean_environment();
  env.push_back("TMPDIR=" + tmp);
  const std::string file = file_with("stdio.property.toml", stdio_properties);
  const auto r = cli({"durability", "--var", driver_var, "--cases", "40", "--max-seconds", "20",
                      "--jobs", "2", "--json", file},
                     env);
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  // A case broke the promise and was shrunk (what once killed the workers still running).
  const auto ends = nlohmann::json::parse(r.out).at("rows").at(0).at("ends");
  EXPECT_EQ(ends.at("_exit").at("workload"), "log debug 0; _exit 0") << ends.dump(2);
  std::vector<std::string> left;
  for (const auto& e : std::filesystem::directory_iterator(tmp))
    left.push_back(e.path().filename().string());
  EXPECT_TRUE(left.empty()) << left.size() << " left in TMPDIR, the first " << left.front();
}

TEST(durability, a_hang_and_a_driver_that_cannot_start_are_said) {
  const std::string file = file_with("hangs.toml", R"(
[[property]]
name = "hangs_at_underscore_exit"
command = ["/bin/sh", "-c", 'case "$*" in *_exit*) sleep 60;; esac; exec "$0" "$@"', "{driver}"]
stdout = ["pipe"]
cuts = ["marker"]
timeout_ms = 1000
[property.promise]
return = "prefix"
)");
  const auto r = cli(
      {"durability", "--var", driver_var, "--cases", "10", "--max-seconds", "20", "--json", file});
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  const auto ends = nlohmann::json::parse(r.out).at("rows").at(0).at("ends");
  EXPECT_EQ(ends.at("_exit").at("kind"), "hung") << ends.dump(2);
  EXPECT_EQ(ends.at("return").at("kind"), "kept") << ends.dump(2);
  const std::string direct = file_with("direct.toml", R"(
[[property]]
name = "direct"
command = ["{driver}"]
[property.promise]
return = "prefix"
)");
  const auto missing = cli({"durability", "--var", "driver=/nonexistent/flushcheck-driver",
                            "--cases", "2", "--json", direct});
  EXPECT_EQ(missing.code, 3) << missing.out << missing.err;
  const auto cells = nlohmann::json::parse(missing.out).at("rows").at(0).at("ends");
  EXPECT_EQ(cells.at("return").at("kind"), "error") << cells.dump(2);
}

}  // namespace
}  // namespace flushcheck
