// `flushcheck bench [SUITE...]`: runs the bench suites (bench.hpp), prints
// the text report, writes the JSON, HTML and Markdown reports asked for,
// and with --compare says which rows moved against a saved JSON report.
#include <sys/stat.h>
#include <unistd.h>
#include <wordexp.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <tuple>

#include "bench.hpp"
#include "bench_report.hpp"
#include "commands.hpp"
#include "error.hpp"
#include "escape.hpp"
#include "input_file.hpp"
#include "install_layout.hpp"
#include "json_document.hpp"
#include "option_values.hpp"
#include "report_file.hpp"
#include "spawn.hpp"
#include "usage.hpp"

namespace flushcheck::cli {

namespace {

/// The suites to run, and the toolchain sets of stdio and iostream.
void add_suite_options(bench_command& c) {
  add_option_with_values(c.app, "suite", c.suites, "suites to run, in order (default: all)",
                         word_values(bench_suite_names()));
  c.app
      ->add_option("--toolchain", c.toolchain,
                   "toolchain set for stdio and iostream: default, all, or a set's name")
      ->default_str("default");
}

/// --repeat, --timeout and --quick: how the suites run.
void add_run_options(bench_command& c) {
  c.app->add_option("--repeat", c.repeat, "untraced runs per row (min / median / max)")
      ->default_val(3);
  c.app
      ->add_option("--timeout", c.timeout_ms,
                   "deadline in ms of each run of a program: one still running then is killed, "
                   "and its row FAILS")
      ->capture_default_str()
      ->check(in_range(1, 86400000));
  c.app->add_flag("--quick", c.quick, "small sizes: every suite in a few seconds");
}

/// --json, --html and --markdown: the report files.
void add_report_options(bench_command& c) {
  add_report_flag(c.app, "--json", c.json_file, "the report as JSON (docs/bench.md)");
  c.app->add_option("--html", c.html_file, "write one self-contained HTML page with the plots");
  add_report_flag(c.app, "--markdown", c.markdown_file,
                  "the report as Markdown, its plots as SVG files in a bench/ directory beside "
                  "it (docs/bench.md)");
}

/// --compare and --threshold: which rows moved against a saved report.
void add_compare_options(bench_command& c) {
  c.app->add_option("--compare", c.compare_file,
                    "a saved --json report: flag each row whose ratio moved by more than the "
                    "threshold, or whose write count changed");
  c.app->add_option("--threshold", c.threshold, "--compare's threshold, a fraction")
      ->default_val(0.2);
}

/// --program: the program suite's command.
void add_program_option(bench_command& c) {
  c.app->add_option(
      "--program", c.program,
      "a program of yours that says 'bench ns=T ops=N' on stderr (docs/bench.md): "
      "the program suite runs it on a file and a pipe beside plain stdio lines; "
      "split into words as sh would (quotes; variables, ~ and globs expanded; no command "
      "substitution)");
}

/// The help's footer: what each exit status of bench means.
std::string bench_footer() {
  return exit_footer({{exit_ok, "measured (and nothing moved, with --compare)"},
                      {exit_failed, "a row moved"},
                      {exit_usage,
                       "a bad flag, suite, toolchain set, saved report or output path (before "
                       "anything runs)"},
                      {exit_spawn, "a bench program could not start"},
                      {exit_harness, "a bench program failed (no report file is written)"}});
}

}  // namespace

bench_command::bench_command(CLI::App& parent) {
  app = parent.add_subcommand(
      "bench",
      "Measure the seeds' workloads (stdio, iostream, pipe, pagecache), "
      "the harness's own costs (tracer, capture, explore, jobs) and your own (--program): "
      "times, write counts, the "
      "seeds' claims, plots");
  add_suite_options(*this);
  add_run_options(*this);
  add_report_options(*this);
  add_compare_options(*this);
  add_program_option(*this);
  app->footer(bench_footer());
}

namespace {

/// COMMAND split into words as sh would (quotes, backslashes, variables, ~
/// and globs), without command substitution.
std::vector<std::string> words(const std::string& command) {
  wordexp_t w{};
  int rc = ::wordexp(command.c_str(), &w, WRDE_NOCMD | WRDE_UNDEF);
  std::vector<std::string> out;
  if (rc == 0) out.assign(w.we_wordv, w.we_wordv + w.we_wordc);
  if (rc == 0 || rc == WRDE_NOSPACE) ::wordfree(&w);
  if (rc != 0 || out.empty())
    throw usage_error("--program=" + printable(command, 200) +
                      ": not a command line (unbalanced quotes, an unset $VARIABLE, a ` or "
                      "$(...), or nothing)");
  return out;
}

/// The suites: as named, with `program` added when --program is given.
std::vector<std::string> suites_with_program(std::vector<std::string> suites, bool program) {
  bool named = std::find(suites.begin(), suites.end(), "program") != suites.end();
  if (program && !suites.empty() && !named) suites.push_back("program");
  return suites;
}

bool has_bench_programs(const target_set& set) {
  return ::access(bench_program(set, "bench_stdio").c_str(), X_OK) == 0;
}

/// The sets of SETS with bench programs that NAME asks for ("all": each);
/// throws usage_error, naming those built, when there is none.
std::vector<target_set> chosen_sets(const std::vector<target_set>& sets, const std::string& name) {
  std::vector<target_set> chosen;
  std::string known;
  for (const auto& s : sets) {
    if (!has_bench_programs(s)) continue;
    known += (known.empty() ? "" : ", ") + s.name;
    if (name == "all" || s.name == name) chosen.push_back(s);
  }
  if (chosen.empty())
    throw usage_error("--toolchain=" + name +
                      ": no toolchain set of that name with bench "
                      "programs is built (built: " +
                      known + ")");
  return chosen;
}

/// The sets NAME asks for ("all": each with bench programs; ci/distro's sets
/// have none), and the default set.
std::pair<std::vector<target_set>, target_set> toolchains(const std::string& name) {
  auto sets = discover_target_sets(targets_dir_to_run());
  if (sets.empty() || !has_bench_programs(sets.front()))
    throw usage_error("the bench programs are not built (build the project first)");
  return {chosen_sets(sets, name), sets.front()};
}

/// The plot directory of --markdown FILE: bench/ beside it, made now.
std::string plot_dir(const std::string& markdown) {
  auto slash = markdown.rfind('/');
  std::string dir = (slash == std::string::npos ? "" : markdown.substr(0, slash + 1)) + "bench";
  if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST)
    throw usage_error("--markdown=" + markdown + ": cannot make " + dir);
  return dir;
}

void write_plots(const bench_report& r, const std::string& dir) {
  for (const auto& s : r.suites)
    for (std::size_t k = 0; k < s.plots.size(); ++k) {
      std::string path = dir + "/" + s.name + "-" + std::to_string(k) + ".svg";
      try {
        output_file::open(path).commit(to_svg(s.plots[k]));
      } catch (const std::exception& e) {  // after the run: exit 4
        throw std::runtime_error("--markdown: cannot write " + printable(path, 200) + ": " +
                                 e.what());
      }
    }
}

/// R's FAILED rows, each "NAME: why".
std::vector<std::string> failed_rows(const bench_report& r) {
  std::vector<std::string> out;
  for (const auto& s : r.suites)
    for (const auto& row : s.rows)
      if (row.failed) out.push_back(row.name + ": " + row.skipped);
  return out;
}

/// Prints what moved against the saved report to OUT; true when something did.
bool compare(const bench_report& before, const bench_report& now, double threshold,
             std::ostream& out) {
  auto result = bench_compare(before, now, threshold);
  if (result.compared == 0)
    throw usage_error("--compare: no measured row of the saved report is in a suite run now");
  out << "\ncompared with the saved report (threshold " << threshold * 100
      << "%): " << result.compared << " rows compared, " << result.moved.size() << " moved\n";
  for (const auto& c : result.moved)
    out << "  MOVED " << c.suite << ": " << c.row << ": " << c.what << "\n";
  return !result.moved.empty();
}

/// The flags' values that bench_options does not check: --threshold, --repeat,
/// and the program suite without --program; throws usage_error.
void check_flags(const bench_command& c) {
  if (!(c.threshold > 0) || !std::isfinite(c.threshold))
    throw usage_error("--threshold must be a number above 0");
  if (c.repeat < 1) throw usage_error("--repeat must be at least 1");
  if (c.program.empty() && std::find(c.suites.begin(), c.suites.end(), "program") != c.suites.end())
    throw usage_error("the program suite needs --program=COMMAND");
}

/// The saved report in PATH (--compare's); throws usage_error naming the flag.
bench_report read_saved_report(const std::string& path) {
  try {
    return bench_from_json(read_input_file(path, std::size_t{16} << 20));
  } catch (const usage_error& e) {
    const std::string what = e.what();
    if (what.starts_with("--compare=")) throw;
    throw usage_error("--compare=" + printable(path, 200) + ": " + what);
  }
}

}  // namespace

bench_options bench_command::options() const {
  check_flags(*this);
  bench_options o;
  o.suites = suites_with_program(suites, !program.empty());
  if (!program.empty()) o.program = words(program);
  o.repeat = repeat;
  o.quick = quick;
  o.timeout = std::chrono::milliseconds(timeout_ms);
  std::tie(o.toolchains, o.default_set) = toolchains(toolchain);
  check_bench_options(o);
  return o;
}

std::optional<bench_report> bench_command::saved_report(const bench_options& o) const {
  if (compare_file.empty()) return std::nullopt;
  bench_report before = read_saved_report(compare_file);
  if (before.quick != quick)
    throw usage_error("--compare=" + compare_file + ": saved " +
                      (before.quick ? "with" : "without") + " --quick, and this run is " +
                      (quick ? "with" : "without") + " it: their sizes differ");
  auto run_now = bench_suites_to_run(o);
  for (const auto& s : before.suites)
    if (std::find(run_now.begin(), run_now.end(), s.name) != run_now.end()) return before;
  throw usage_error("--compare=" + compare_file + ": none of its suites is run now");
}

namespace {

/// Runs O's suites: --program's command found first (or exit 3), each row
/// said on stderr as it ends when that is a terminal.
bench_report run_suites(bench_options& o) {
  if (!o.program.empty()) resolve_program(o.program.front(), clean_environment());  // or exit 3
  if (::isatty(2)) o.progress = [](const std::string& row) { std::cerr << "  " << row << "\n"; };
  return run_bench(o);
}

/// Where the text goes: stdout, or stderr when a report takes stdout.
std::ostream& text_stream(const report_file& json, const report_file& md) {
  // A report on stdout takes the text's place; the text's comparison goes to stderr.
  return json.on_stdout() || md.on_stdout() ? std::cerr : std::cout;
}

/// Says on stderr, in one line, which rows FAILED (the first, and how many
/// more are above) and that no report was written: exit_harness.
int report_failed(const std::vector<std::string>& failed) {
  std::cerr << "flushcheck: a bench program failed: " << failed.front();
  if (failed.size() > 1) std::cerr << " (and " << failed.size() - 1 << " more FAILED rows above)";
  std::cerr << "; no report file was written\n";
  return exit_harness;
}

/// R's report files asked for; with --markdown, its plots first, in PLOTS.
void write_reports(const bench_report& r, report_file& json, report_file& html, report_file& md,
                   const std::string& plots) {
  json.commit([&] { return dump_json(to_json(r), 2); });
  html.commit([&] { return to_html(r); });
  if (md) write_plots(r, plots);
  md.commit([&] { return to_markdown(r, "bench"); });
}

}  // namespace

int bench_command::execute() {
  bench_options o = options();
  report_file json("--json", json_file);
  report_file html = report_file::page("--html", html_file);
  report_file md("--markdown", markdown_file);
  one_on_stdout(json, md, "--json and --markdown");
  refuse_same_as({&json, &html, &md}, compare_file, "the --compare report");  // before it is read
  auto before = saved_report(o);
  std::ostream& text = text_stream(json, md);
  std::string plots = md ? plot_dir(md.on_stdout() ? "" : markdown_file) : "";
  bench_report r = run_suites(o);
  const auto failed = failed_rows(r);
  if (&text == &std::cout || !failed.empty()) text << to_text(r);
  if (!failed.empty()) return report_failed(failed);
  write_reports(r, json, html, md, plots);
  return before && compare(*before, r, threshold, text) ? exit_failed : exit_ok;
}

}  // namespace flushcheck::cli
