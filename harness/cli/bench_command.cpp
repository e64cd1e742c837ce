// `flushcheck bench [SUITE...]`: runs the bench suites (bench.hpp), prints
// the text report, writes the JSON, HTML and Markdown reports asked for,
// and with --compare says which rows moved against a saved JSON report.
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "commands.hpp"
#include "flushcheck/bench.hpp"
#include "flushcheck/bench_report.hpp"
#include "flushcheck/error.hpp"

namespace flushcheck::cli {

bench_command::bench_command(CLI::App& parent) {
  app = parent.add_subcommand("bench",
                              "Measure the seeds' workloads (stdio, iostream, pipe, pagecache, "
                              "tracer): times, write counts, the seeds' claims, plots");
  app->add_option("suite", suites, "suites to run, in order (default: all)");
  app->add_option("--toolchain", toolchain,
                  "toolchain set for stdio and iostream: default, all, or a set's name")
      ->default_str("default");
  app->add_option("--repeat", repeat, "untraced runs per row (min / median / max)")->default_val(3);
  app->add_flag("--quick", quick, "small sizes: every suite in a few seconds");
  app->add_option("--json", json_file, "write the report as JSON (docs/bench.md) to this file");
  app->add_option("--html", html_file, "write one self-contained HTML page with the plots");
  app->add_option("--markdown", markdown_file,
                  "write the report as Markdown, its plots as SVG files in a bench/ directory "
                  "beside it (docs/bench.md)");
  app->add_option("--compare", compare_file,
                  "a saved --json report: flag each row whose ratio moved by more than the "
                  "threshold, or whose write count changed");
  app->add_option("--threshold", threshold, "--compare's threshold, a fraction")->default_val(0.2);
  app->footer(
      "Exit status: 0 measured (and nothing moved, with --compare), 1 a row moved, 2 a bad\n"
      "flag, suite, toolchain set or output path, 3 a bench program could not start,\n"
      "4 a bench program failed (a harness failure).");
}

namespace {

/// A file opened before anything runs, so that a bad path costs no bench.
std::unique_ptr<std::ofstream> open_output(const std::string& flag, const std::string& path) {
  if (path.empty()) return nullptr;
  auto f = std::make_unique<std::ofstream>(path);
  if (!*f) throw usage_error(flag + "=" + path + ": cannot write it");
  return f;
}

void write_to(std::ofstream* f, const std::string& flag, const std::string& path,
              const std::string& text) {
  if (!f) return;
  *f << text;
  f->flush();
  if (!*f) throw usage_error(flag + "=" + path + ": cannot write it");
}

std::string read_file(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw usage_error("--compare=" + path + ": cannot read it");
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

std::vector<target_set> toolchains(const std::string& name) {
  auto sets = discover_target_sets(FLUSHCHECK_TARGETS_DIR);
  if (sets.empty()) throw usage_error("no toolchain set is built (build the project first)");
  if (name == "all") return sets;
  std::string known;
  for (const auto& s : sets) {
    if (s.name == name) return {s};
    known += (known.empty() ? "" : ", ") + s.name;
  }
  throw usage_error("--toolchain=" + name + ": no such toolchain set is built (built: " + known +
                    ")");
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
      std::ofstream f(path);
      f << bench_svg(s.plots[k]);
      if (!f) throw usage_error("--markdown: cannot write " + path);
    }
}

bool any_failed(const bench_report& r) {
  for (const auto& s : r.suites)
    for (const auto& row : s.rows)
      if (row.failed) return true;
  return false;
}

/// Prints what moved against the saved report; true when something did.
bool compare(const bench_report& before, const bench_report& now, double threshold) {
  auto changes = bench_compare(before, bench_from_json(bench_json(now)), threshold);
  std::cout << "\ncompared with the saved report (threshold " << threshold * 100
            << "%): " << changes.size() << " rows moved\n";
  for (const auto& c : changes)
    std::cout << "  MOVED " << c.suite << ": " << c.row << ": " << c.what << "\n";
  return !changes.empty();
}

}  // namespace

int bench_command::execute() {
  if (!(threshold > 0) || !std::isfinite(threshold))
    throw usage_error("--threshold must be a number above 0");
  bench_options o;
  o.suites = suites;
  o.repeat = repeat;
  o.quick = quick;
  o.toolchains = toolchains(toolchain);
  std::optional<bench_report> before;
  if (!compare_file.empty()) before = bench_from_json(read_file(compare_file));
  auto json = open_output("--json", json_file), html = open_output("--html", html_file);
  auto md = open_output("--markdown", markdown_file);
  std::string plots = md ? plot_dir(markdown_file) : "";
  if (::isatty(2)) o.progress = [](const std::string& row) { std::cerr << "  " << row << "\n"; };
  bench_report r = run_bench(o);
  std::cout << bench_text(r);
  write_to(json.get(), "--json", json_file, bench_json(r));
  write_to(html.get(), "--html", html_file, bench_html(r));
  if (md) write_plots(r, plots);
  write_to(md.get(), "--markdown", markdown_file, bench_markdown(r, "bench"));
  bool moved = before && compare(*before, r, threshold);
  if (any_failed(r)) return exit_harness;
  return moved ? exit_failed : exit_ok;
}

}  // namespace flushcheck::cli
