// The pictures of run, explore and doctor (--html FILE) as a user sees them:
// each page loaded by headless Chromium with no network, its DOM's lanes,
// marks and legend found, a screenshot of the size asked for, and the marks
// compared with the JSON of the same run (--json=FILE beside --html FILE):
// every write call and every read drawn once, as a mark or in a bin.
#include <gtest/gtest.h>
#include <cstdint>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "cli_runner.hpp"
#include "test_targets.hpp"
#include "traced_calls.hpp"

namespace flushcheck {
namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// The page as the DOM Chromium built from it; the test skips without Chromium.
#define LOAD_DOM(dom, page)                                                  \
  const auto dom##_opt = headless_dom(page);                                 \
  if (!dom##_opt) GTEST_SKIP() << "no /usr/bin/chromium (package chromium)"; \
  const std::string& dom = *dom##_opt

/// (t_us, bytes) of a mark or a read.
using mark = std::pair<std::int64_t, std::int64_t>;

/// The marks of DOM whose class attribute is CLS exactly, sorted.
std::vector<mark> marks(const std::string& dom, const std::string& cls) {
  std::vector<mark> out;
  const std::regex element("<rect[^>]*class=\"" + cls + "\"[^>]*>");
  const std::regex t("data-t-us=\"(-?[0-9]+)\""), bytes("data-bytes=\"(-?[0-9]+)\"");
  for (std::sregex_iterator it(dom.begin(), dom.end(), element), end; it != end; ++it) {
    const std::string e = it->str();
    std::smatch mt, mb;
    EXPECT_TRUE(std::regex_search(e, mt, t) && std::regex_search(e, mb, bytes)) << e;
    out.emplace_back(std::stoll(mt[1]), std::stoll(mb[1]));
  }
  std::sort(out.begin(), out.end());
  return out;
}

/// The calls in DOM's bins of class "bin KIND".
std::int64_t binned(const std::string& dom, const std::string& kind) {
  std::int64_t n = 0;
  const std::regex element("<rect[^>]*class=\"bin " + kind + "\"[^>]*data-calls=\"([0-9]+)\"");
  for (std::sregex_iterator it(dom.begin(), dom.end(), element), end; it != end; ++it)
    n += std::stoll((*it)[1]);
  return n;
}

/// The write-family calls of a run's JSON (the stopped one too), sorted.
std::vector<mark> json_writes(const nlohmann::json& j) {
  std::vector<mark> out;
  for (const auto& e : j["trace"]["events"]) {
    const std::string call = e[2];
    for (const auto& info : traced_calls)
      if (call == info.name && info.family == call_family::write)
        out.emplace_back(e[0].get<std::int64_t>(), e[4].get<std::int64_t>());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<mark> json_reads(const nlohmann::json& j) {
  std::vector<mark> out;
  for (const char* stream : {"stdout", "stderr"})
    for (const auto& c : j[stream].value("chunks", nlohmann::json::array()))
      out.emplace_back(c["t_us"].get<std::int64_t>(), c["bytes"].get<std::int64_t>());
  std::sort(out.begin(), out.end());
  return out;
}

/// A page is self-contained: no script, nothing it would fetch.
void expect_self_contained(const std::string& page) {
  for (const char* s : {"<script", "src=", "href=", "url(", "@import"})
    EXPECT_EQ(page.find(s), std::string::npos) << s;
  EXPECT_EQ(occurrences(page, "http"), occurrences(page, "http://www.w3.org/2000/svg"));
}

/// The width and height a PNG's IHDR says.
std::pair<std::uint32_t, std::uint32_t> png_size(const std::string& png) {
  auto be32 = [&](std::size_t at) {
    std::uint32_t v = 0;
    for (std::size_t i = 0; i < 4; ++i) v = v << 8 | static_cast<unsigned char>(png.at(at + i));
    return v;
  };
  EXPECT_EQ(png.substr(1, 3), "PNG");
  return {be32(16), be32(20)};
}

struct page_run {
  cli_result cli;
  std::string page;
  nlohmann::json json;
};

/// `flushcheck VERB --json=... --html ... ARGS`.
page_run with_page(const std::string& verb, std::vector<std::string> args) {
  const std::string page = test_path(verb + ".html"), json = test_path(verb + ".json");
  args.insert(args.begin(), {verb, "--json=" + json, "--html", page});
  page_run r{cli(args), page, {}};
  r.json = nlohmann::json::parse(slurp(json));
  return r;
}

std::vector<std::string> script(const std::string& text) {
  return {"--", FLUSHCHECK_TARGET_STDIO_SCRIPT, text};
}

/// `flushcheck run FLAGS... --json=... --html ... -- stdio_script SCRIPT`.
page_run run_page(const std::vector<std::string>& flags, const std::string& text) {
  std::vector<std::string> args = flags;
  for (auto& a : script(text)) args.push_back(a);
  return with_page("run", args);
}

TEST(pages, run_draws_every_write_and_every_read_once) {
  const page_run r = run_page({"--stdout=pipe", "--trace", "--timeline", "--kill=KILL@write:3"},
                              "setvbuf line out; line 5; marker m; line 3; line 4; exit 0");
  ASSERT_EQ(r.cli.code, 0) << r.cli.err;
  expect_self_contained(slurp(r.page));
  LOAD_DOM(dom, r.page);
  auto drawn = marks(dom, "mark write");
  const auto stopped = marks(dom, "mark write stopped");
  ASSERT_EQ(stopped.size(), 1u) << "the write the cut stopped at its entry, drawn apart";
  EXPECT_EQ(stopped[0].second, r.json["trace"]["stopped"]["bytes"].get<std::int64_t>());
  drawn.insert(drawn.end(), stopped.begin(), stopped.end());
  std::sort(drawn.begin(), drawn.end());
  EXPECT_EQ(drawn, json_writes(r.json));
  EXPECT_EQ(marks(dom, "mark chunk"), json_reads(r.json));
  EXPECT_FALSE(json_reads(r.json).empty());
  for (const char* lane : {"data-lane=\"write(2) → stdout\"", "data-lane=\"reader ← stdout\"",
                           "class=\"legend\"", "class=\"cut\"", "class=\"marker\""})
    EXPECT_EQ(occurrences(dom, lane), 1u) << lane;
  EXPECT_EQ(occurrences(dom, "class=\"reached\""), 2u) << "a bar per stream";
  // The script gave stdout 6 + 4 + 5 bytes by the cut; the third write, "xxxx\n", never ran.
  EXPECT_NE(dom.find("5 bytes, 1 line lost (by the script, as the model runs it)"),
            std::string::npos);
  EXPECT_NE(dom.find("id=\"repro\""), std::string::npos);
}

TEST(pages, run_without_a_trace_says_which_lanes_are_missing) {
  const page_run r = run_page({"--stdout=pty"}, "line 3; line 3; exit 0");
  ASSERT_EQ(r.cli.code, 0) << r.cli.err;
  LOAD_DOM(dom, r.page);
  EXPECT_TRUE(marks(dom, "mark write").empty());
  EXPECT_EQ(marks(dom, "mark chunk"), json_reads(r.json));
  EXPECT_NE(dom.find("the run was not traced (run --trace draws each call)"), std::string::npos);
}

// Where a time cut lands is a matter of time: the script cannot say what was
// produced by then, so the page claims no loss.
TEST(pages, run_cut_by_time_claims_no_loss_it_cannot_know) {
  const page_run r =
      run_page({"--stdout=pipe", "--kill=KILL@time:200"}, "line 3; sleep 3000; line 3; exit 0");
  ASSERT_EQ(r.cli.code, 0) << r.cli.err;
  LOAD_DOM(dom, r.page);
  EXPECT_EQ(occurrences(dom, "class=\"lost\""), 0u);
  EXPECT_NE(dom.find("what was lost is not known here"), std::string::npos);
}

// Both streams on one /dev/null: one write lane for the one sink, no reader,
// and no bar that would weigh bytes nobody could read.
TEST(pages, run_on_null_draws_one_sink_and_no_reader) {
  const page_run r =
      run_page({"--stdout=null", "--stderr=null", "--trace"}, "line 3; line 3 err; exit 0");
  ASSERT_EQ(r.cli.code, 0) << r.cli.err;
  LOAD_DOM(dom, r.page);
  EXPECT_EQ(occurrences(dom, "class=\"lane\""), 1u);
  EXPECT_EQ(occurrences(dom, "data-lane=\"write(2) → stdout+stderr\""), 1u);
  EXPECT_EQ(occurrences(dom, "on null: no reader"), 2u);
  EXPECT_EQ(occurrences(dom, "class=\"reached\""), 0u);
}

// 2>&1: the reader has both streams, so what was produced counts both.
TEST(pages, run_merged_weighs_both_streams) {
  const page_run r = run_page({"--stdout=pipe", "--stderr=stdout", "--kill=KILL@marker:1"},
                              "line 3; line 4 err; marker m; exit 0");
  ASSERT_EQ(r.cli.code, 0) << r.cli.err;
  LOAD_DOM(dom, r.page);
  // stderr's "xxxx\n" arrived at once (unbuffered); stdout's "xxx\n" died in its buffer.
  EXPECT_EQ(r.json["stdout"]["bytes"], 5);
  EXPECT_NE(dom.find("4 bytes, 1 line lost (by the script"), std::string::npos);
}

TEST(pages, a_page_goes_to_a_file_not_stdout) {
  for (const char* verb : {"run", "explore", "doctor"}) {
    const cli_result r = cli({verb, "--html", "-", "--", FLUSHCHECK_TARGET_STDIO_SCRIPT, "exit 0"});
    EXPECT_EQ(r.code, 2) << verb;
    EXPECT_NE(r.err.find("--html -: a page goes to a FILE"), std::string::npos) << r.err;
  }
}

// 100,000 one-byte writes: the lane is binned, every call in one bin, and the
// page stays small.
TEST(pages, a_dense_lane_is_binned_with_every_call_in_a_bin) {
  const page_run r = run_page({"--stdout=pipe", "--trace", "--keep=none"},
                              "setvbuf none out; putc 100000; exit 0");
  ASSERT_EQ(r.cli.code, 0) << r.cli.err;
  EXPECT_LT(slurp(r.page).size(), 2u << 20) << "bytes of the page";
  LOAD_DOM(dom, r.page);
  EXPECT_TRUE(marks(dom, "mark write").empty());
  std::int64_t writes = 0;
  for (const auto& w : r.json["writes"]) writes += w["calls"].get<std::int64_t>();
  EXPECT_GE(writes, 100000);
  EXPECT_EQ(binned(dom, "write"), static_cast<std::int64_t>(json_writes(r.json).size()));
  EXPECT_EQ(r.json["trace"]["events_dropped"], 0);
}

TEST(pages, a_screenshot_has_the_size_asked_for) {
  const page_run r = with_page("run", script("line 3; exit 0"));
  ASSERT_EQ(r.cli.code, 0) << r.cli.err;
  const std::string png = test_path("run.png");
  if (!headless_chromium(r.page,
                         {"--screenshot=" + png, "--window-size=1100,700", "--hide-scrollbars"}))
    GTEST_SKIP() << "no /usr/bin/chromium (package chromium)";
  EXPECT_EQ(png_size(slurp(png)), (std::pair<std::uint32_t, std::uint32_t>{1100, 700}));
}

// The loss map: a cell per run, the pty's rows first, each cell's lines lost
// those of the JSON's run.
TEST(pages, explore_maps_each_run_to_one_cell) {
  auto args = script("line 2; marker m; line 1; line 1; exit 0");
  args.insert(args.begin(), {"--stdout=pipe", "--signal=KILL,TERM,9"});  // KILL twice
  const page_run r = with_page("explore", args);
  ASSERT_EQ(r.cli.code, 0) << r.cli.err;
  expect_self_contained(slurp(r.page));
  LOAD_DOM(dom, r.page);
  std::size_t runs = 0;
  for (const auto& s : r.json["runs"]) runs += s["cuts"].size();
  EXPECT_EQ(occurrences(dom, "class=\"cell"), runs);
  const std::regex cell(
      "class=\"cell\"[^>]*data-row=\"([a-z-]+) · "
      "SIG([A-Z]+)\"[^>]*data-cut=\"([a-z:0-9-]+)\"[^>]*data-lines-lost=\"([0-9]+)\"");
  std::vector<std::string> rows;
  std::size_t checked = 0;
  for (std::sregex_iterator it(dom.begin(), dom.end(), cell), end; it != end; ++it, ++checked) {
    rows.push_back((*it)[1]);
    for (const auto& s : r.json["runs"])
      for (const auto& c : s["cuts"]) {
        if (s["stdout"] != (*it)[1].str() || c["signal"] != (*it)[2].str() ||
            c["cut"] != (*it)[3].str())
          continue;
        EXPECT_EQ(c["lines_lost"].get<std::size_t>(), std::stoul((*it)[4])) << it->str();
      }
  }
  EXPECT_EQ(checked, runs) << "every cut was reached: no cell is grey";
  ASSERT_FALSE(rows.empty());
  EXPECT_EQ(rows.front(), "pty") << "the baseline first";
  EXPECT_EQ(occurrences(dom, "class=\"legend\""), 1u);
}

// The doctor's page: the worst cut, then the same cut under each fix that
// helped, one timeline each.
TEST(pages, doctor_draws_the_worst_cut_and_each_fix_that_helped) {
  const page_run r = with_page("doctor", script("line 3; line 3; exit 0"));
  ASSERT_EQ(r.cli.code, 1) << r.cli.out << r.cli.err;
  expect_self_contained(slurp(r.page));
  LOAD_DOM(dom, r.page);
  std::size_t helped = 0;
  for (const auto& f : r.json["fixes"]) helped += f["helps"].get<bool>() ? 1 : 0;
  EXPECT_GE(helped, 1u) << "stdbuf -oL, a terminal";
  EXPECT_EQ(occurrences(dom, "<figure"), 1 + helped);
  EXPECT_EQ(occurrences(dom, "class=\"lost\""), 1u) << "only the run as it is loses";
  EXPECT_EQ(occurrences(dom, "<tr class="), r.json["fixes"].size());
}

}  // namespace
}  // namespace flushcheck
