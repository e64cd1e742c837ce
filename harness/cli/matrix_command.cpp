// `flushcheck matrix`: runs the cases of each toolchain set, builds the matrix
// value once and hands it to the reporter of the format asked for.
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <string>
#include <utility>

#include "commands.hpp"
#include "conformance.hpp"
#include "error.hpp"
#include "escape.hpp"
#include "input_file.hpp"
#include "install_layout.hpp"
#include "json_document.hpp"
#include "matrix.hpp"
#include "matrix_baseline.hpp"
#include "matrix_merge.hpp"
#include "matrix_report.hpp"
#include "record_cell.hpp"
#include "report_file.hpp"
#include "result_wire.hpp"
#include "usage.hpp"
#include "workers.hpp"

namespace flushcheck::cli {

namespace {

/// Every case of each of SETS, a column each: one queue of the sets' cases
/// on JOBS workers (none waits for the last case of a set), each taken in
/// the sets' order and the catalogue's, with a progress line on stderr when
/// asked (a terminal).
std::vector<column_results> run_all_cases(const std::vector<target_set>& sets, bool progress,
                                          int jobs) {
  std::vector<column_results> ran;
  std::vector<std::vector<property_case>> todo;
  std::vector<std::pair<std::size_t, std::size_t>> tasks;  // (set, case)
  std::map<std::string, property_case> by_id;              // a case is the same in every set
  for (std::size_t s = 0; s < sets.size(); ++s) {
    ran.push_back({matrix_column::of(sets[s]), {}});
    todo.push_back(cases(sets[s]));
    for (std::size_t c = 0; c < todo[s].size(); ++c) {
      tasks.emplace_back(s, c);
      by_id.emplace(todo[s][c].id(), todo[s][c]);
    }
  }
  run_in_workers<case_result>(
      jobs, static_cast<long>(tasks.size()),
      [&](long i) {
        const auto [s, c] = tasks[static_cast<std::size_t>(i)];
        return run_case(todo[s][c], sets[s]);
      },
      [&](long i, case_result r) {
        const auto [s, c] = tasks[static_cast<std::size_t>(i)];
        if (progress)
          std::cerr << "\r[" << sets[s].name << " " << c + 1 << "/" << todo[s].size() << "] "
                    << std::left << std::setw(60) << r.prop_case.id() << std::flush;
        ran[s].results.push_back(std::move(r));
        return true;
      },
      encode_conformance_result,
      [&](const std::string& bytes) { return decode_conformance_result(bytes, by_id); });
  if (progress) std::cerr << "\r" << std::string(90, ' ') << "\r";
  return ran;
}

/// The sets found: with --all every one; with --html alone the first (the
/// default set); otherwise the one in DIR, named "default" unless --targets
/// named it. Throws usage_error when there is none.
std::vector<target_set> sets_found(const matrix_command& cmd, const std::string& dir) {
  std::vector<target_set> sets;
  if (cmd.all || !cmd.html.empty()) {
    sets = discover_target_sets(dir);
    if (!cmd.all && sets.size() > 1) sets.resize(1);
  } else if (auto set = probe_target_dir(cmd.targets_dir.empty() ? "default" : dir, dir)) {
    sets.push_back(std::move(*set));
  }
  if (sets.empty())
    throw usage_error("--targets=" + dir + ": no stdio_script there (build the project first)");
  return sets;
}

/// The sets to run (sets_found). With --all or --runtimes the first set gets
/// the runtimes; with --runtimes alone it keeps only them.
std::vector<target_set> sets_to_run(const matrix_command& cmd, const std::string& dir) {
  std::vector<target_set> sets = sets_found(cmd, dir);
  if (cmd.all)  // a set not built here, or not in the package: say so, not a silent gap
    for (const auto& [name, why] : skipped_target_sets(dir))
      std::cerr << "note: toolchain set " << error_line(name) << " not run: " << error_line(why)
                << "\n";
  if (cmd.all || cmd.runtimes) sets.front().runtimes = discover_runtimes(dir);
  if (cmd.runtimes && !cmd.all) sets.front().stdio_script = sets.front().iostream_script = "";
  return sets;
}

void print_properties() {
  std::string group;
  for (const auto& p : catalogue()) {
    if (p.group != group) std::cout << "\n### " << (group = p.group) << "\n\n";
    std::cout << "- `" << p.name << "` (" << to_string(p.level) << "; " << p.source
              << "): " << p.claim << "\n";
  }
}

void write_html(report_file& page, const std::string& path, const matrix& m) {
  page.commit([&] { return to_html(m); });
  std::cout << "wrote " << path << ": " << m.line_count() << " rows x " << m.columns.size()
            << " toolchain sets, " << m.failures.size() << " FAIL\n";
}

/// A saved matrix record; OPTION names it in errors ("--baseline=FILE").
nlohmann::json read_record(const std::string& path, const std::string& option) {
  try {  // bounded: a record is about 1 MiB; gzipped as docs/distros/ stores them
    return parse_json_input(read_input_file(path, std::size_t{64} << 20));
  } catch (const usage_error& e) {
    throw usage_error(option + "=" + printable(path, 200) + ": " + e.what());
  }
}

/// The verdict_text of case C run once more on SET, in the record's form.
std::string verdict_of_rerun(const property_case& c, const target_set& set) {
  return verdict_text(cell_of(run_case(c, set), matrix_column::of(set).name));
}

/// CHANGE's case run again on its set (one of SETS), TIMES times: each
/// run's verdict_text.
std::vector<std::string> rerun_case(const std::vector<target_set>& sets, const cell_change& change,
                                    int times) {
  std::vector<std::string> seen;
  const auto set = std::find_if(sets.begin(), sets.end(),
                                [&](const target_set& s) { return s.name == change.column; });
  if (set == sets.end()) return seen;
  for (const auto& c : cases(*set)) {
    if (c.id() != change.id) continue;
    for (int i = 0; i < times; ++i) seen.push_back(verdict_of_rerun(c, *set));
  }
  return seen;
}

/// The targets' directory CMD runs: --targets, else the default (which a
/// portable flushcheck builds first). Only a verb that runs asks for it:
/// --merge, --properties and --baseline with --record run nothing.
std::string targets_to_run(const matrix_command& cmd) {
  return cmd.targets_dir.empty() ? targets_dir_to_run() : cmd.targets_dir;
}

/// The changes from BEFORE, the saved record WHAT names: to the record given
/// by --record, or to this machine's run (each change then run 4 times more:
/// one that does not repeat varies).
record_changes changes_since(const nlohmann::json& before, const std::string& what,
                             const matrix_command& cmd, bool progress) {
  if (!cmd.record.empty())
    return compare_records(before, read_record(cmd.record, "--record"), what);
  const auto sets = sets_to_run(cmd, targets_to_run(cmd));
  std::vector<column_results> ran = run_all_cases(sets, progress, jobs_or_cpus(cmd.jobs));
  return compare_records(before, to_json(make_matrix(std::move(ran))), what,
                         [&](const cell_change& c) { return rerun_case(sets, c, 4); });
}

/// --baseline: the saved record against the one given by --record or this
/// machine's run (changes_since). Exit 1 when a cell changed for good.
int compare_with_baseline(const matrix_command& cmd, bool progress, report_file& json_out) {
  const auto before = read_record(cmd.baseline, "--baseline");
  const std::string what = "--baseline=" + cmd.baseline;
  const record_changes changes = changes_since(before, what, cmd, progress);
  if (!json_out.on_stdout()) std::cout << record_changes_text(changes);
  json_out.commit([&] { return record_changes_json(changes); });
  if (changes.compared == 0) {  // nothing held is not a pass
    std::cerr << "flushcheck: " << what
              << ": no cell is in both records (no rows, or no toolchain set of the same "
                 "name): nothing was checked\n";
    return exit_no_verdict;
  }
  return changes.confirmed() == 0 ? exit_ok : exit_failed;
}

/// "records/trixie.json" or "trixie.json.gz" -> "trixie": the label of a record's columns.
std::string label_of(const std::string& path) {
  std::string name = path.substr(path.find_last_of('/') + 1);
  for (const std::string ext : {".gz", ".json"})
    if (name.size() > ext.size() && name.ends_with(ext)) name.resize(name.size() - ext.size());
  return name;
}

/// RECORDS side by side; the cells this flushcheck does not know are left
/// out, and said so on stderr.
matrix merged_matrix(const std::vector<labelled_record>& records) {
  std::size_t unknown = 0;
  matrix m = merge_records(records, unknown);
  if (unknown > 0)
    std::cerr << "flushcheck: " << unknown
              << " cells of properties, languages or sinks this flushcheck does not know were "
                 "left out\n";
  return m;
}

/// --merge: the records side by side, a column per record and set, printed
/// by the reporter of the format asked for. Exit 1 when a cell FAILs.
int merge(const matrix_command& cmd, report_file& json_out, report_file& md_out,
          report_file& html_out) {
  std::vector<labelled_record> records;
  for (const auto& path : cmd.merge)
    records.push_back({label_of(path), read_record(path, "--merge")});
  const matrix m = merged_matrix(records);
  if (html_out) write_html(html_out, cmd.html, m);
  if (!json_out.on_stdout() && !md_out.on_stdout() && !html_out)
    std::cout << to_text(m, matrix_layout::by_column);
  json_out.commit([&] { return dump_json(to_json(m, records), 2); });
  md_out.commit([&] { return to_markdown(m, matrix_layout::by_column); });
  return m.failures.empty() ? 0 : 1;
}

/// --all, --runtimes and --html: which sets and which rows run.
void add_set_options(matrix_command& c) {
  c.app->add_flag("--all", c.all,
                  "every toolchain set: the default targets and each directory under them "
                  "with a stdio_script (musl, clang-libcxx, ...), side by side");
  c.app->add_flag("--runtimes", c.runtimes,
                  "the runtimes' rows (Python, Node.js, Perl, Ruby, Java, Go, Rust: "
                  "docs/runtimes.md) instead of the C and C++ ones; --all has both");
  c.app->add_option("--html", c.html,
                    "write the matrix as one self-contained HTML page to FILE (with --all: every "
                    "toolchain set)");
}

/// --baseline, --merge and --record: saved records, compared or side by side.
void add_record_options(matrix_command& c) {
  c.app->add_option("--baseline", c.baseline,
                    "compare with a saved record (matrix --json > FILE): each cell whose verdict "
                    "or observed value changed, with both values and its repro; exit 1 if any");
  c.app
      ->add_option("--merge", c.merge,
                   "print saved records (matrix --json > NAME.json) side by side, a column per "
                   "record and set (NAME/SET), in the format asked for; run nothing")
      ->expected(1, -1);
  c.app->add_option("--record", c.record,
                    "with --baseline: compare this saved record instead of running the matrix");
}

/// The help's footer: what the cells say, and the exit statuses.
std::string matrix_footer() {
  return "Cells: pass / FAIL for asserted properties; the observed value for observed ones,\n"
         "in parentheses where a documented property is not asserted for this profile.\n" +
         exit_footer({{exit_ok, "all asserted cells pass"},
                      {exit_failed, "some FAIL (with --baseline: some cell changed)"},
                      {exit_usage, ""},
                      {exit_harness, ""},
                      {exit_no_verdict, "(--baseline) no cell in both records"}});
}

}  // namespace

matrix_command::matrix_command(CLI::App& parent) {
  app = parent.add_subcommand("matrix",
                              "Run the conformance properties on this machine's "
                              "toolchain and print the matrix");
  add_report_flag(app, "--json", json, "one JSON object (docs/cli.md)");
  add_report_flag(app, "--markdown", markdown, "a Markdown table (docs/matrix.md)");
  app->add_flag("--properties", properties,
                "list the properties (tier, clause or source, claim) as Markdown; run nothing");
  add_set_options(*this);
  add_record_options(*this);
  add_jobs_option(app, jobs);
  app->add_option("--targets", targets_dir,
                  "directory with stdio_script and iostream_script (default: the targets "
                  "beside flushcheck, BIN/../lib/flushcheck, or its build tree's)");
  app->footer(matrix_footer());
}

namespace {

/// The matrix of the sets CMD runs, every case of each run here.
matrix run_sets(const matrix_command& cmd, bool progress) {
  return make_matrix(
      run_all_cases(sets_to_run(cmd, targets_to_run(cmd)), progress, jobs_or_cpus(cmd.jobs)));
}

/// --all and --html put the sets side by side, even when only one was found;
/// --runtimes alone the languages.
matrix_layout layout_of(const matrix_command& cmd) {
  return cmd.all || !cmd.html.empty() ? matrix_layout::by_column
         : cmd.runtimes               ? matrix_layout::by_language
                                      : matrix_layout::by_sink;
}

/// The matrix of this machine, printed by the reporter of the format asked
/// for. Exit 1 when an asserted property fails.
int run_matrix(const matrix_command& cmd, bool progress, report_file& json_out, report_file& md_out,
               report_file& html_out) {
  const matrix m = run_sets(cmd, progress);
  const auto layout = layout_of(cmd);
  if (html_out) write_html(html_out, cmd.html, m);
  if (!json_out.on_stdout() && !md_out.on_stdout() && !html_out) std::cout << to_text(m, layout);
  json_out.commit([&] { return dump_json(to_json(m), 2); });
  md_out.commit([&] { return to_markdown(m, layout); });
  return m.failures.empty() ? 0 : 1;  // 1: an asserted property fails
}

/// No report of CMD's replaces a record it reads: --merge's, --baseline's, --record's.
void refuse_records(const matrix_command& cmd, std::initializer_list<const report_file*> reports) {
  for (const auto& path : cmd.merge) refuse_same_as(reports, path, "a --merge record");
  refuse_same_as(reports, cmd.baseline, "the --baseline record");
  refuse_same_as(reports, cmd.record, "the record --record names");
}

/// With the report files open: --baseline, --merge, or a run of the matrix.
int compare_merge_or_run(const matrix_command& cmd, report_file& json_out, report_file& md_out,
                         report_file& html_out) {
  const bool progress = !json_out.on_stdout() && !md_out.on_stdout() && ::isatty(2);
  if (!cmd.record.empty() && cmd.baseline.empty())
    throw usage_error("--record=" + cmd.record + ": compared only with a --baseline");
  if (!cmd.baseline.empty()) return compare_with_baseline(cmd, progress, json_out);
  if (!cmd.merge.empty()) return cli::merge(cmd, json_out, md_out, html_out);
  return run_matrix(cmd, progress, json_out, md_out, html_out);
}

}  // namespace

int matrix_command::execute() {
  if (properties) {
    print_properties();
    return 0;
  }
  if (!baseline.empty() && (!markdown.empty() || !html.empty()))
    throw usage_error(std::string(html.empty() ? "--markdown" : "--html") +
                      ": --baseline reports as text or --json");
  report_file json_out("--json", json), md_out("--markdown", markdown);  // before any run
  report_file html_out = report_file::page("--html", html);
  one_on_stdout(json_out, md_out, "--json and --markdown");
  refuse_records(*this, {&json_out, &md_out, &html_out});
  return compare_merge_or_run(*this, json_out, md_out, html_out);
}

}  // namespace flushcheck::cli
