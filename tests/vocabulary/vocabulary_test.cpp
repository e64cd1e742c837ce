// The vocabulary stage: the words every stage speaks, parsed from text and
// printed back: kill plans (SIG@WHEN), fault plans (WHAT@WHEN), file
// targets (file:PATH:WHEN) and sink kinds. No process runs here.
#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "destination.hpp"
#include "error.hpp"
#include "fault_plan.hpp"
#include "file_target.hpp"
#include "kill_plan.hpp"
#include "property_end.hpp"
#include "sink_kind.hpp"
#include "temporary.hpp"
#include "write_target.hpp"

namespace flushcheck {
namespace {

namespace fs = std::filesystem;

TEST(kill_plan, parses_the_cli_grammar) {
  auto p = kill_plan::parse("TERM@marker:2");
  EXPECT_EQ(p.when, kill_plan::when_kind::marker);
  EXPECT_EQ(p.n, 2);
  EXPECT_EQ(p.signal, SIGTERM);
  EXPECT_EQ(p.text(), "TERM@marker:2");
  EXPECT_EQ(kill_plan::parse("KILL@time:150").when_text(), "time:150");
  EXPECT_EQ(kill_plan::parse("never").when, kill_plan::when_kind::never);
  EXPECT_EQ(kill_plan::parse("TERM@after-write:3").text(), "TERM@after-write:3");
  EXPECT_TRUE(kill_plan::parse("KILL@write:1").needs_tracer());
  // A log file's path may hold colons; the last :write: or :after-write: ends it.
  const auto f = kill_plan::parse("TERM@file:/tmp/a:write:b.log:after-write:3");
  EXPECT_EQ(f.file, "/tmp/a:write:b.log");
  EXPECT_EQ(f.when, kill_plan::when_kind::after_write);
  EXPECT_EQ(f.text(), "TERM@file:/tmp/a:write:b.log:after-write:3");
  EXPECT_EQ(kill_plan::parse("KILL@file:/logs/*.INFO.*:write:2").when_text(),
            "file:/logs/*.INFO.*:write:2");
  EXPECT_EQ(kill_plan::parse("KILL@write:2").file, "");
  for (const char* bad : {"KILL", "NOPE@marker:1", "KILL@marker:0", "KILL@marker:x", "KILL@soon:1",
                          "KILL@write:0", "KILL@file:/x.log:marker:1", "KILL@file::write:1",
                          "KILL@file:/x.log", "KILL@file:write:1", "KILL@file:/x.log:write:0"})
    EXPECT_THROW(kill_plan::parse(bad), usage_error) << bad;
}

TEST(kill_plan, every_when_form_round_trips_through_text) {
  for (std::string_view form : kill_plan::when_forms()) {
    if (form == "file:") continue;  // a path comes first: below
    const std::string text = "TERM@" + std::string(form) + "7";
    EXPECT_EQ(kill_plan::parse(text).text(), text);
  }
  const std::string file = "KILL@file:" + absolute_glob("/var/log/app-*.log") + ":after-write:2";
  EXPECT_EQ(kill_plan::parse(file).text(), file);
  EXPECT_EQ(kill_plan::parse("never").text(), "never");
}

TEST(kill_plan, parse_takes_other_spellings_and_text_gives_one) {
  EXPECT_EQ(kill_plan::parse("sigterm@marker:3").text(), "TERM@marker:3");
  EXPECT_EQ(kill_plan::parse("9@time:0").text(), "KILL@time:0") << "time counts from 0";
  EXPECT_EQ(kill_plan::parse("KILL@stdout:write:2").text(), "KILL@write:2");
  EXPECT_EQ(kill_plan::parse("TERM@never").when, kill_plan::when_kind::never);
  const kill_plan p = kill_plan::parse("USR1@stderr:after-write:5");
  EXPECT_EQ(p.signal, SIGUSR1);
  EXPECT_TRUE(p.on_stderr);
  EXPECT_EQ(p.n, 5);
  EXPECT_TRUE(p.needs_tracer());
  EXPECT_FALSE(kill_plan::parse("KILL@time:5").needs_tracer());
  EXPECT_EQ(kill_plan::after_write(3).on_stderr_stream().text(), "KILL@stderr:after-write:3");
}

TEST(kill_plan, refuses_what_is_malformed_misplaced_or_out_of_range) {
  const std::string max_time = std::to_string(kill_plan::max_time_ms);
  const std::string max_count = std::to_string(kill_plan::max_count);
  EXPECT_EQ(kill_plan::parse("KILL@time:" + max_time).n, kill_plan::max_time_ms);
  EXPECT_EQ(kill_plan::parse("KILL@marker:" + max_count).n, kill_plan::max_count);
  const std::vector<std::string> bad{"",
                                     "@marker:1",
                                     "KILL@",
                                     "KILL@marker:",
                                     "KILL@marker:-1",
                                     "KILL@marker:+1",
                                     "KILL@time:1.5",
                                     "KILL@stderr:marker:1",
                                     "KILL@stderr:time:5",
                                     "KILL@stdout:never",
                                     "KILL@time:" + std::to_string(kill_plan::max_time_ms + 1),
                                     "KILL@marker:" + std::to_string(kill_plan::max_count + 1)};
  for (const std::string& text : bad) EXPECT_THROW(kill_plan::parse(text), usage_error) << text;
}

TEST(file_target, the_last_when_ends_a_path_that_holds_colons) {
  const std::vector<std::string_view> whens{"write:", "after-write:"};
  EXPECT_EQ(file_target_end("/tmp/a:b.log:write:3", whens), 12u);
  EXPECT_EQ(file_target_end("/tmp/x:after-write:2", whens), 6u);
  EXPECT_EQ(file_target_end("/tmp/a:write:b.log:write:3", whens), 18u);
  EXPECT_EQ(file_target_end("/tmp/x.log", whens), std::string_view::npos);
  EXPECT_EQ(file_target_end("write:3", whens), std::string_view::npos) << "no path before it";
}

TEST(file_target, absolute_glob_normalises_and_resolves_the_symlinks_that_exist) {
  EXPECT_EQ(absolute_glob("/nonexistent-flushcheck/./logs/../app-*.log"),
            "/nonexistent-flushcheck/app-*.log");
  const temporary_directory dir(temp_dir() + "/flushcheck-process-test-");
  fs::create_directory(dir.path() + "/real");
  fs::create_directory_symlink("real", dir.path() + "/link");
  const fs::path real = fs::canonical(dir.path()) / "real" / "*.log";
  EXPECT_EQ(absolute_glob(dir.path() + "/link/*.log"), real.string());
  const std::string relative = absolute_glob("app.log");
  EXPECT_TRUE(relative.starts_with("/") && relative.ends_with("/app.log")) << relative;
}

TEST(file_target, matches_an_open_file_by_its_glob) {
  EXPECT_TRUE(file_target_matches("/var/log/app.log", "/var/log/app.log"));
  EXPECT_TRUE(file_target_matches("/var/log/app-*.log", "/var/log/app-2024.log"));
  EXPECT_TRUE(file_target_matches("/var/log/app?.log", "/var/log/app1.log"));
  EXPECT_FALSE(file_target_matches("/var/log/app-*.log", "/var/log/app-1.txt"));
  EXPECT_FALSE(file_target_matches("/var/log/app.log", "/var/log/app.log.1"));
  EXPECT_FALSE(file_target_matches("/var/log/*.log", "pipe:[12]"));
}

// As the shell's pathname expansion (POSIX 2.13.3): a '*' stays within its
// directory, so a glob for a log directory does not reach its subdirectories.
TEST(file_target, a_star_does_not_cross_a_directory) {
  EXPECT_FALSE(file_target_matches("/var/log/*.log", "/var/log/old/app.log"));
  EXPECT_FALSE(file_target_matches("/var/log/app?log", "/var/log/app/log"));
  EXPECT_TRUE(file_target_matches("/var/log/*/app.log", "/var/log/old/app.log"));
}

TEST(fault_plan, parses_what_where_and_when_and_prints_it_back) {
  for (const char* t : {"EAGAIN@write:3", "short:1@write:2x3", "EINTR@every",
                        "ENOSPC@stderr:write:1", "EIO@random=0.25,seed=7", "EPIPE@write:1x2"})
    EXPECT_EQ(fault_plan::parse(t).text(), t);
  EXPECT_EQ(fault_plan::parse("EAGAIN@stdout:write:3").text(), "EAGAIN@write:3");
  auto f = fault_plan::parse("ENOSPC@file:/tmp/a:b.log:write:2");
  EXPECT_EQ(f.where, fault_plan::target::file);
  EXPECT_EQ(f.path, "/tmp/a:b.log");
  EXPECT_EQ(f.n, 2);
  EXPECT_EQ(fault_plan::parse("EIO@file:/x:every").path, "/x");
}

TEST(fault_plan, refuses_bad_specs_with_the_reason) {
  auto why = [](const char* t) {
    try {
      fault_plan::parse(t);
    } catch (const usage_error& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(why("EAGAN@write:1").find("unknown errno 'EAGAN'"), std::string::npos);
  EXPECT_NE(why("EAGAIN@random=0.5").find("needs a seed"), std::string::npos);
  EXPECT_NE(why("EAGAIN@random=1.5,seed=1").find("not a probability"), std::string::npos);
  EXPECT_NE(why("EAGAIN@write:0").find("not a number from 1"), std::string::npos);
  EXPECT_NE(why("EAGAIN@write:1x0").find("not a number from 1"), std::string::npos);
  EXPECT_NE(why("short:-1@write:1").find("not a number from 1"), std::string::npos);
  EXPECT_NE(why("short:0@every").find("not a number from 1"), std::string::npos);
  EXPECT_NE(why("EAGAIN").find("expected WHAT@WHEN"), std::string::npos);
  EXPECT_NE(why("EAGAIN@file:write:1").find("expected file:PATH:WHEN"), std::string::npos);
  EXPECT_NE(why("EAGAIN@sometime").find("WHEN is"), std::string::npos);
}

TEST(fault_plan, random_selection_depends_only_on_the_seed_and_the_call) {
  auto a = fault_plan::parse("EIO@random=0.3,seed=42");
  auto b = fault_plan::parse("EIO@random=0.3,seed=43");
  int picked = 0, differ = 0;
  for (int call = 1; call <= 10000; ++call) {
    picked += a.selects(call);
    differ += a.selects(call) != b.selects(call);
  }
  EXPECT_NEAR(picked, 3000, 300);
  EXPECT_GT(differ, 1000);
}

// Each end is one [property.promise] key, read back to itself; the
// harness's own signals are the cuts.
TEST(property_end, every_end_parses_from_its_name_and_only_term_and_kill_are_cuts) {
  std::vector<std::string> names;
  for (property_end e : property_ends()) {
    names.push_back(end_name(e));
    EXPECT_EQ(parse_end(end_name(e)), e) << end_name(e);
    EXPECT_EQ(is_cut(e), e == property_end::term || e == property_end::kill) << end_name(e);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"return", "exit", "_exit", "abort", "throw", "TERM",
                                             "KILL", "fault"}));
  EXPECT_EQ(parse_end("kill"), std::nullopt) << "keys are case-sensitive";
}

TEST(sink_kind, every_name_parses_to_its_kind_and_prints_back) {
  const std::vector<std::string_view> names = sink_kind_names();
  EXPECT_EQ(names,
            (std::vector<std::string_view>{"pty", "pty-cooked", "pipe", "file", "null", "full"}));
  for (std::string_view name : names) {
    const auto kind = parse_sink_kind(name);
    ASSERT_TRUE(kind) << name;
    EXPECT_EQ(to_string(*kind), name);
  }
  for (std::string_view bad : {"", "PIPE", "tty", "stdout", "pipe "})
    EXPECT_EQ(parse_sink_kind(bad), std::nullopt) << bad;
  EXPECT_TRUE(is_tty(sink_kind::pty_cooked));
  EXPECT_FALSE(is_tty(sink_kind::file));
  EXPECT_FALSE(sink_shows_data(sink_kind::full));
}

TEST(destination, is_a_sink_of_its_own_or_merged_into_stdout) {
  const destination pipe(sink_kind::pipe), merged = destination::merged_into_stdout();
  EXPECT_EQ(pipe.sink(), sink_kind::pipe);
  EXPECT_FALSE(pipe.merged());
  EXPECT_EQ(pipe.name(), "pipe");
  EXPECT_TRUE(merged.merged());
  EXPECT_EQ(merged.sink(), std::nullopt);
  EXPECT_EQ(merged.name(), "stdout");
  EXPECT_EQ(destination().name(), "");
  EXPECT_NE(pipe, merged);
  EXPECT_NE(destination(), merged);
  EXPECT_EQ(pipe, destination(sink_kind::pipe));
}

TEST(write_target, is_a_stream_or_a_named_file_and_round_trips_through_text) {
  for (const char* text : {"stdout", "stderr", "file:app.log", "file:a:b.log"}) {
    const auto t = write_target::parse(text);
    ASSERT_TRUE(t) << text;
    EXPECT_EQ(t->text(), text);
  }
  EXPECT_EQ(write_target(), write_target::out());
  EXPECT_TRUE(write_target::parse("stderr")->is_err());
  EXPECT_EQ(write_target::parse("file:app.log"), write_target::file("app.log"));
  EXPECT_EQ(write_target::file("app.log").file_name(), "app.log");
  EXPECT_EQ(write_target::out().file_name(), "");
  EXPECT_NE(write_target::file("a"), write_target::file("b"));
  for (const char* bad : {"", "file:", "stdin", "STDOUT", "file", "stdout+stderr"})
    EXPECT_EQ(write_target::parse(bad), std::nullopt) << bad;
  // ordered, as a map key: the streams first, then files by name
  EXPECT_LT(write_target::out(), write_target::err());
  EXPECT_LT(write_target::err(), write_target::file("a"));
  EXPECT_LT(write_target::file("a"), write_target::file("b"));
}

}  // namespace
}  // namespace flushcheck
