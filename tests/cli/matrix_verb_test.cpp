// `flushcheck matrix` as a user runs it: text, JSON, HTML and Markdown,
// --all, workers, baselines and merges, on this machine and on stored records.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "clean_environment.hpp"
#include "cli_checks.hpp"
#include "cli_runner.hpp"
#include "conformance.hpp"
#include "matrix_baseline.hpp"
#include "record_cell.hpp"
#include "run.hpp"
#include "run_report.hpp"

namespace flushcheck {
namespace {

// --baseline --html wrote nothing and said nothing.
TEST(cli, matrix_baseline_reports_only_as_text_or_json) {
  expect_one_line_error(cli({"matrix", "--baseline", "x.json", "--html", "x.html"}), 2,
                        "--html: --baseline reports as text or --json");
  expect_one_line_error(cli({"matrix", "--baseline", "x.json", "--markdown"}), 2,
                        "--markdown: --baseline reports as text or --json");
}

// The text matrix had no header row, and long observed values ran together.
TEST(cli, matrix_text_names_its_columns_and_keeps_values_apart) {
  const auto r = cli({"matrix"});
  ASSERT_LT(r.code, 2) << r.err;
  std::istringstream lines(r.out);
  std::string line, header;
  while (std::getline(lines, line) && header.empty())
    if (line.find("pty") != std::string::npos) header = line;
  const auto pty = header.find("pty"), pipe = header.find("pipe"), file = header.find("file");
  ASSERT_TRUE(pty != std::string::npos && pty < pipe && pipe < file) << header;
  std::size_t rows = 0;
  while (std::getline(lines, line) && line.find(" cases, ") == std::string::npos) {
    if (line.size() <= file || line.rfind("  ", 0) != 0) continue;  // a group's title
    ++rows;
    EXPECT_EQ(line.substr(pipe - 2, 2), "  ") << "the pipe column starts after two spaces:\n"
                                              << header << "\n"
                                              << line;
    EXPECT_EQ(line.substr(file - 2, 2), "  ") << "the file column starts after two spaces:\n"
                                              << header << "\n"
                                              << line;
  }
  EXPECT_GT(rows, 50u);
}

TEST(cli, matrix_all_puts_toolchains_side_by_side) {
  auto r = cli({"matrix", "--all", "--markdown"});
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("| property | tier | default |"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("### Differences between implementations"), std::string::npos);
  if (std::string(FLUSHCHECK_MUSL_STDIO_SCRIPT).empty()) GTEST_SKIP() << "musl not built";
  // musl sends the first line to a pipe at once; glibc holds it (each value
  // with the sets that saw it and a run that repeats it).
  const auto line = r.out.find("\n- stdout.first_line_early [C] pipe:\n  - `default`");
  ASSERT_NE(line, std::string::npos) << r.out;
  const auto glibc =
      r.out.find(": first line out at once: 0 of 4 bytes; after the second: 0 of 7.", line);
  const auto musl =
      r.out.find("`musl`: first line out at once: 4 of 4 bytes; after the second: 4 of 7.", line);
  const auto repro =
      r.out.find("targets/musl/stdio_script' 'line 3; marker first; line 2; marker second'`", line);
  EXPECT_LT(glibc, musl) << r.out.substr(line, 2000);
  EXPECT_LT(musl, repro) << r.out.substr(line, 2000);
  EXPECT_NE(repro, std::string::npos);
}

TEST(cli, matrix_html_page_loads_in_headless_chromium) {
  std::string page = ::testing::TempDir() + "flushcheck_matrix.html";
  auto r = cli({"matrix", "--all", "--html", page});
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  long rows = std::stol(r.out.substr(r.out.find(": ") + 2));  // "wrote F: N rows x M sets"
  auto loaded = headless_dom(page);
  if (!loaded) GTEST_SKIP() << "chromium not installed (ci/setup installs Debian's chromium)";
  const std::string& dom = *loaded;  // the DOM after the page loaded
  // for people: the summary, the FAILs and the differences before the lines
  const auto summary = dom.find("<section id=\"summary\">");
  const auto failures = dom.find("<section id=\"failures\">");
  const auto differences = dom.find("<section id=\"differences\">");
  const auto lines = dom.find("<section id=\"lines\">");
  ASSERT_NE(summary, std::string::npos) << dom.substr(0, 2000);
  EXPECT_LT(summary, failures);
  EXPECT_LT(failures, differences);
  EXPECT_LT(differences, lines);
  EXPECT_LT(lines, dom.find("<details class=\"group\""));
  // a line per row, in a collapsible section per group of the catalogue
  EXPECT_EQ(occurrences(dom, "<tr class=\"line\">"), static_cast<std::size_t>(rows));
  std::set<std::string> groups;
  for (const auto& p : catalogue()) groups.insert(p.group);
  EXPECT_EQ(occurrences(dom, "<details class=\"group\""), groups.size());
  EXPECT_NE(dom.find("<b>musl</b>"), std::string::npos);
  // self-contained: no script, nothing fetched
  EXPECT_EQ(dom.find("<script"), std::string::npos);
  EXPECT_EQ(dom.find("src="), std::string::npos);
  EXPECT_EQ(dom.find("http://"), std::string::npos);
  EXPECT_EQ(dom.find("https://"), std::string::npos);
}

/// A matrix record names the machine it was made on, as uname and
/// os-release say, and when.
void expect_this_machine(const nlohmann::json& m) {
  struct utsname u {};
  ASSERT_EQ(::uname(&u), 0);
  EXPECT_EQ(m["kernel"], u.release);
  EXPECT_EQ(m["arch"], u.machine);
  EXPECT_EQ(m["cpus"], ::sysconf(_SC_NPROCESSORS_ONLN));
  std::ifstream os("/etc/os-release");
  std::string text((std::istreambuf_iterator<char>(os)), std::istreambuf_iterator<char>());
  const std::string id = m["id"];
  EXPECT_NE(text.find("ID=" + id.substr(0, id.find(' '))), std::string::npos) << id;
  EXPECT_NE(text.find(m["distribution"].get<std::string>()), std::string::npos);
  EXPECT_EQ(m["flushcheck"], FLUSHCHECK_PROJECT_VERSION);
  EXPECT_TRUE(std::regex_match(m["time"].get<std::string>(),
                               std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)")));
}

TEST(cli, matrix_json_has_one_schema_for_one_set_and_for_all) {
  for (bool all : {false, true}) {
    auto r = all ? cli({"matrix", "--all", "--json"}) : cli({"matrix", "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["kind"], "matrix");
    EXPECT_EQ(j["schema"], 2);
    expect_this_machine(j["machine"]);
    ASSERT_TRUE(j["columns"].is_array());
    EXPECT_EQ(j["columns"][0]["name"], "default");
    // the libraries in words: "glibc 2.36, libstdc++ 12 (20220819)"
    const std::string libs = j["columns"][0]["version"];
    EXPECT_TRUE(std::regex_search(libs, std::regex(R"(^glibc 2\.\d+, libstdc\+\+ \d+ \(\d{8}\))")))
        << libs;
    if (!all) {
      EXPECT_EQ(j["columns"].size(), 1u);
    }
    EXPECT_EQ(j["failures"], 0);
    ASSERT_FALSE(j["rows"].empty());
    std::size_t cells = 0;
    for (const auto& row : j["rows"]) {
      EXPECT_TRUE(row["property"].is_string());
      for (const auto& cell : row["cells"]) {
        EXPECT_TRUE(cell["repro"].get<std::string>().find("flushcheck run") != std::string::npos);
        ++cells;
      }
    }
    std::size_t cases = 0;
    for (const auto& c : j["columns"]) cases += c["cases"].get<std::size_t>();
    EXPECT_EQ(cells, cases) << (all ? "--all" : "one set");
  }
}

/// A directory of its own for a test's files, removed with them.
struct scratch_dir {
  std::string path = [] {
    char name[] = "/tmp/flushcheck-test-XXXXXX";
    return std::string(::mkdtemp(name));
  }();
  ~scratch_dir() { std::filesystem::remove_all(path); }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(path + "/" + name) << text;
    return path + "/" + name;
  }
};

// --jobs: a set's cases run on workers and are taken in the catalogue's
// order. The same rows and cells in the same order as on one worker, and
// each asserted-tier cell with the same verdict and value (observed-tier
// values, threads tearing lines, may differ from any run to the next).
TEST(cli, matrix_on_four_workers_has_the_cells_of_one) {
  auto one = cli({"matrix", "--json", "--jobs", "1"});
  auto four = cli({"matrix", "--json", "--jobs", "4"});
  ASSERT_EQ(one.code, 0) << one.err;
  ASSERT_EQ(four.code, 0) << four.err;
  const auto cells = [](const std::string& out) {
    std::vector<std::string> v;
    const auto j = nlohmann::json::parse(out);
    for (const auto& row : j["rows"])
      for (const auto& cell : row["cells"])
        v.push_back(
            row["property"].get<std::string>() + "/" + row["language"].get<std::string>() + "/" +
            cell["sink"].get<std::string>() + ": " +
            (row["tier"] == "observed" ? std::string("observed") : verdict_text(read_cell(cell))));
    return v;
  };
  const auto by_one = cells(one.out), by_four = cells(four.out);
  EXPECT_EQ(by_one, by_four);
  EXPECT_GT(by_one.size(), 100U);
}

// --baseline, the regression gate between two records: each changed cell
// with both values and its repro, the libraries that changed, exit 1.
TEST(cli, matrix_baseline_lists_each_changed_cell_with_both_values_and_its_repro) {
  auto made = cli({"matrix", "--json"});
  ASSERT_EQ(made.code, 0) << made.err;
  scratch_dir dir;
  const std::string before = dir.write("before.json", made.out);
  auto same = cli({"matrix", "--baseline", before, "--record", before});
  EXPECT_EQ(same.code, 0) << same.out;
  auto record = nlohmann::json::parse(made.out);
  nlohmann::json *asserted = nullptr, *observed = nullptr;
  std::size_t cells = 0;
  for (auto& row : record["rows"])
    for (auto& cell : row["cells"]) {
      ++cells;
      if (cell["skipped"] != "") continue;
      if (cell["asserted"] == true && cell["pass"] == true && asserted == nullptr) asserted = &cell;
      if (cell["asserted"] == false && observed == nullptr) observed = &cell;
    }
  ASSERT_TRUE(asserted != nullptr && observed != nullptr);
  (*asserted)["pass"] = false;
  const std::string seen = (*observed)["observed"];
  (*observed)["observed"] = seen + " (edited)";
  const std::string libs = record["columns"][0]["version"];
  record["columns"][0]["version"] = "glibc 9.99";
  const std::string after = dir.write("after.json", record.dump());

  auto r = cli({"matrix", "--baseline", before, "--record", after});
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  const std::string id = (*asserted)["id"];
  EXPECT_NE(r.out.find("changed " + id + " [default]: pass, observed "), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find(" -> FAIL, observed "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  repro: " + (*asserted)["repro"].get<std::string>()), std::string::npos);
  EXPECT_NE(r.out.find(" -> not asserted, observed " + seen + " (edited)"), std::string::npos);
  EXPECT_NE(r.out.find("libraries of default: " + libs + " -> glibc 9.99"), std::string::npos);
  EXPECT_NE(r.out.find("2 of " + std::to_string(cells) + " cells changed"), std::string::npos);
  auto j =
      nlohmann::json::parse(cli({"matrix", "--json", "--baseline", before, "--record", after}).out);
  EXPECT_EQ(j["changes"].size(), 2u);
  EXPECT_EQ(j["compared"], cells);
  EXPECT_EQ(j["confirmed"], 2u);  // nothing re-run between two saved records

  // A set only one record has is listed, and not compared.
  for (auto& row : record["rows"])
    for (auto& cell : row["cells"]) cell["column"] = "other";
  auto renamed =
      cli({"matrix", "--baseline", before, "--record", dir.write("o.json", record.dump())});
  EXPECT_EQ(renamed.code, 6) << "nothing compared is no verdict: " << renamed.out;
  EXPECT_NE(renamed.out.find("only in the baseline: default: " + std::to_string(cells) + " cells"),
            std::string::npos)
      << renamed.out;
  EXPECT_NE(renamed.out.find("0 of 0 cells changed"), std::string::npos);
}

// Against this machine's run, a changed cell is run 4 times more: a change
// that repeats fails the gate; one that does not (a race the program runs)
// varies and does not.
TEST(cli, matrix_baseline_reruns_a_change_before_it_counts) {
  auto made = cli({"matrix", "--json"});
  ASSERT_EQ(made.code, 0) << made.err;
  auto record = nlohmann::json::parse(made.out);
  nlohmann::json* cell = nullptr;
  for (auto& row : record["rows"])
    if (row["property"] == "death.exit_flushes" && row["language"] == "c")
      cell = &row["cells"][0];  // deterministic: exit flushes stdio, every run
  ASSERT_NE(cell, nullptr);
  const std::string real = verdict_text(read_cell(*cell));
  (*cell)["observed"] = "edited";
  scratch_dir dir;
  auto r = cli({"matrix", "--baseline", dir.write("edited.json", record.dump())});
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("changed " + (*cell)["id"].get<std::string>()), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("re-run 4 times here:\n    " + real + "\n    " + real), std::string::npos)
      << r.out;

  // The same change, where re-runs disagree: it varies, and no cell changed for good.
  auto now = nlohmann::json::parse(made.out);
  auto flip = [&, n = 0](const cell_change&) mutable {
    return std::vector<std::string>{real, ++n % 2 ? "not asserted, observed x" : real};
  };
  auto c = compare_records(record, now, "test", flip);
  ASSERT_EQ(c.changes.size(), 1u);
  EXPECT_TRUE(c.changes[0].varies());
  EXPECT_EQ(c.confirmed(), 0u);
  EXPECT_NE(record_changes_text(c).find("varies "), std::string::npos);
}

// --merge: saved records side by side, a column per record and set, the
// differences between them listed, in every format.
TEST(cli, matrix_merge_puts_records_side_by_side) {
  auto made = cli({"matrix", "--json"});
  ASSERT_EQ(made.code, 0) << made.err;
  auto record = nlohmann::json::parse(made.out);
  std::string id;
  for (auto& row : record["rows"])
    for (auto& cell : row["cells"])
      if (id.empty() && cell["asserted"] == false && cell["skipped"] == "") {
        cell["observed"] = "edited";
        id = cell["id"];
      }
  ASSERT_FALSE(id.empty());
  scratch_dir dir;
  const std::string a = dir.write("bookworm.json", made.out);
  const std::string b = dir.write("other.json", record.dump());

  auto j = nlohmann::json::parse(cli({"matrix", "--json", "--merge", a, b}).out);
  ASSERT_EQ(j["columns"].size(), 2u);
  EXPECT_EQ(j["columns"][0]["name"], "bookworm/default");
  EXPECT_EQ(j["columns"][1]["name"], "other/default");
  EXPECT_EQ(j["records"][1]["label"], "other");
  EXPECT_EQ(j["records"][0]["machine"], record["machine"]);
  ASSERT_EQ(j["differences"].size(), 1u) << j["differences"];
  EXPECT_EQ(j["differences"][0]["id"], id);
  std::size_t cells = 0;
  for (const auto& row : j["rows"]) cells += row["cells"].size();
  std::size_t one = 0;
  for (const auto& row : record["rows"]) one += row["cells"].size();
  EXPECT_EQ(cells, 2 * one);  // every cell of both records

  auto text = cli({"matrix", "--merge", a, b});
  EXPECT_EQ(text.code, 0) << text.err;
  EXPECT_NE(text.out.find("bookworm/default"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("edited"), std::string::npos);
  auto md = cli({"matrix", "--markdown", "--merge", a, b});
  EXPECT_NE(md.out.find("| bookworm/default | other/default |"), std::string::npos) << md.out;
  expect_one_line_error(cli({"matrix", "--merge", a, dir.write("x.json", "[]")}), 2,
                        "x: not a matrix record");
}

/// The records ci/distro made in Debian roots (docs/distros/RELEASE.json.gz),
/// unpacked into DIR as RELEASE.json, in name order.
std::vector<std::string> stored_debian_records(const scratch_dir& dir) {
  std::vector<std::string> out;
  const std::filesystem::path stored = std::string(FLUSHCHECK_SOURCE_DIR) + "/docs/distros";
  if (!std::filesystem::is_directory(stored)) return out;
  for (const auto& f : std::filesystem::directory_iterator(stored)) {
    const std::string name = f.path().filename().string();
    if (!name.ends_with(".json.gz")) continue;
    run_options o;
    o.argv = {"/bin/gzip", "-dc", f.path().string()};
    o.env = clean_environment();
    auto obs = run(o);
    EXPECT_EQ(obs.status, wait_status::exited(0)) << name << ": " << obs.err.data;
    out.push_back(dir.write(name.substr(0, name.size() - 3), obs.out.data));
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Section 4 of the distro issue: merge and baseline on records made in real
// Debian roots, not only on this machine's.
TEST(cli, matrix_merge_and_baseline_on_the_stored_debian_records) {
  scratch_dir dir;
  const auto records = stored_debian_records(dir);
  if (records.size() < 2) GTEST_SKIP() << "fewer than 2 records in docs/distros (ci/distro)";
  std::vector<std::string> args = {"matrix", "--json", "--merge"};
  args.insert(args.end(), records.begin(), records.end());
  auto merged = cli(args);
  ASSERT_LE(merged.code, 1) << merged.err;
  auto j = nlohmann::json::parse(merged.out);
  std::size_t columns = 0;
  for (std::size_t i = 0; i < records.size(); ++i) {
    auto one = nlohmann::json::parse(std::ifstream(records[i]));
    columns += one["columns"].size();
    EXPECT_EQ(j["records"][i]["label"], std::filesystem::path(records[i]).stem().string());
    EXPECT_EQ(j["records"][i]["machine"], one["machine"]);
  }
  EXPECT_EQ(j["columns"].size(), columns);
  // glibc 2.37 staged printf in a buffer of its own: releases on each side of
  // it differ on the large printf's write calls
  bool printf_differs = false;
  for (const auto& d : j["differences"])
    printf_differs |= d["id"] == "stdout.large_printf_write_calls/c/pty";
  std::set<bool> staged;  // per default set: glibc 2.37 or later?
  std::smatch minor;
  for (const auto& c : j["columns"]) {
    const std::string version = c["version"];
    if (c["name"].get<std::string>().ends_with("/default") &&
        std::regex_search(version, minor, std::regex(R"(^glibc 2\.(\d+))")))
      staged.insert(std::stoi(minor[1]) >= 37);
  }
  if (staged.size() == 2) {
    EXPECT_TRUE(printf_differs) << j["differences"].dump(1);
  }

  // the differences before the lines, in Markdown too
  args[1] = "--markdown";
  auto md = cli(args).out;
  EXPECT_LT(md.find("### Differences between implementations"),
            md.find("### Every line, by section"));

  // a record against itself: nothing changed; with one value edited: that one
  auto edited = nlohmann::json::parse(std::ifstream(records.back()));
  std::string id;
  for (auto& row : edited["rows"])
    for (auto& cell : row["cells"])
      if (id.empty() && cell["asserted"] == false && cell["skipped"] == "") {
        cell["observed"] = "edited";
        id = cell["id"];
      }
  auto same = cli({"matrix", "--baseline", records.back(), "--record", records.back()});
  EXPECT_EQ(same.code, 0) << same.out;
  auto one = cli({"matrix", "--baseline", records.back(), "--record",
                  dir.write("edited.json", edited.dump())});
  EXPECT_EQ(one.code, 1) << one.out;
  EXPECT_NE(one.out.find("changed " + id + " ["), std::string::npos) << one.out;
  EXPECT_NE(one.out.find("\n1 of "), std::string::npos) << one.out;
}

TEST(cli, matrix_baseline_refuses_what_is_not_a_record) {
  scratch_dir dir;
  expect_one_line_error(cli({"matrix", "--baseline", dir.write("a.json", "{}")}), 2,
                        "not a matrix record");
  expect_one_line_error(cli({"matrix", "--baseline", dir.write("b.json", "no")}), 2, "not JSON");
  expect_one_line_error(cli({"matrix", "--baseline", dir.path + "/none.json"}), 2,
                        "none.json: cannot read it");
  expect_one_line_error(cli({"matrix", "--record", dir.write("c.json", "{}")}), 2,
                        "compared only with a --baseline");
}

TEST(cli, matrix_markdown_has_the_table) {
  auto r = cli({"matrix", "--markdown"});
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("| property | tier | pty | pipe | file | full |"), std::string::npos);
  EXPECT_NE(r.out.find("| death.exit_flushes [C] | required | pass | pass | pass | - |"),
            std::string::npos)
      << r.out;
}

}  // namespace
}  // namespace flushcheck
