// `flushcheck durability FILE...`: the durability table (durability.hpp) of
// every [[property]] in the gate files: what each end does to the records
// of each logger configuration, each cell printed as it is known, the table
// as Markdown, JSON or an SVG heat map.
#include <algorithm>
#include <cstdint>
#include <iostream>

#include "commands.hpp"
#include "durability.hpp"
#include "escape.hpp"
#include "gate_file.hpp"
#include "install_layout.hpp"
#include "interrupts.hpp"
#include "json_document.hpp"
#include "option_values.hpp"
#include "parse_number.hpp"
#include "report_file.hpp"
#include "usage.hpp"

namespace flushcheck::cli {

namespace {

/// --var, --case, --cases, --max-seconds, --seed, --derive and --jobs: what is probed, and how.
void add_search_options(durability_command& c) {
  c.app->add_option("--var", c.vars, "NAME=VALUE, repeatable, as for gate")
      ->allow_extra_args(false);
  c.app->add_option("--case", c.only, "probe only this property (repeatable)")
      ->allow_extra_args(false);
  c.app->add_option("--cases", c.cases, "cases per end of each configuration")
      ->capture_default_str()
      ->check(CLI::Range(1L, 1000000L));
  c.app
      ->add_option("--max-seconds", c.max_seconds,
                   "bounds each end's search, and its shrinking again")
      ->capture_default_str()
      ->check(CLI::Range(0.1, 86400.0));
  c.app->add_option("--seed", c.seed, "the seed of every search (default 1: a table repeats)")
      ->capture_default_str();
  add_derive_option(c.app, c.derive,
                    "on: a case that ends with a KILL at a write is checked at every write of "
                    "its workload, derived from one traced run where that is sound, with a "
                    "sample run to check; off: at the one write it drew");
  add_jobs_option(c.app, c.jobs);
}

/// --json, --markdown and --svg, with the directory the Markdown's links start from.
void add_report_options(durability_command& c) {
  add_report_flag(c.app, "--json", c.json, "one JSON object (kind durability)");
  add_report_flag(c.app, "--markdown", c.markdown,
                  "the table, a row per configuration and a column per end");
  c.app->add_option("--svg", c.svg, "the table as an SVG heat map");
  c.app
      ->add_option("--links-from", c.links_from,
                   "the directory the Markdown's links to the gate files start from "
                   "(the page's: docs)")
      ->capture_default_str();
}

}  // namespace

durability_command::durability_command(CLI::App& parent) {
  app = parent.add_subcommand("durability",
                              "What each end does to the records of each logger configuration "
                              "(the [[property]] tables of gate files): kept, lost, torn, racy");
  add_search_options(*this);
  add_report_options(*this);
  app->add_option("files", files, "gate files (TOML, docs/gate.md)")->required();
  app->footer(exit_footer({{exit_ok, "the table was made (whatever its cells say)"},
                           {exit_usage, ""},
                           {exit_spawn, "a driver could not be started (its cells say error)"},
                           {exit_harness, ""}}));
}

namespace {

/// How every end is searched: seed, cases and budget.
search_options options_of(const durability_command& cmd) {
  search_options o;
  const auto seed = detail::parse_number(cmd.seed, 0, ~std::uint64_t{0});
  if (!seed) throw usage_error("--seed=" + printable(cmd.seed, 40) + ": expected 0 to 2^64-1");
  o.seed = *seed;
  o.cases = cmd.cases;
  o.max_seconds = cmd.max_seconds;
  o.jobs = jobs_or_cpus(cmd.jobs);
  o.derive = derive_on(cmd.derive);
  o.on_spawn = remember_child;
  return o;
}

bool named(const std::vector<std::string>& only, const std::string& name) {
  return only.empty() || std::find(only.begin(), only.end(), name) != only.end();
}

/// A configuration to probe: the first property of CMD's files that has it
/// (with every cut and fault of those that share it, and their first
/// `finding`), and its gate file.
struct configuration {
  property_spec spec;
  std::string file;
};

/// The configurations of CMD's files (--case: only those properties'), in
/// the files' order.
std::vector<configuration> configurations(const durability_command& cmd) {
  std::vector<std::string> vars = {"runtimes=" + runtimes_dir()};
  vars.insert(vars.end(), cmd.vars.begin(), cmd.vars.end());
  std::vector<configuration> all;
  for (const auto& path : cmd.files)
    for (const auto& p : parse_gate_file(path, vars).properties) {
      if (!named(cmd.only, p.name)) continue;
      const auto same = std::find_if(all.begin(), all.end(), [&](const configuration& c) {
        return same_configuration(c.spec, p);
      });
      if (same == all.end())
        all.push_back({p, path});
      else
        merge_configuration(same->spec, p);
    }
  return all;
}

/// Every configuration of CMD's files probed, each cell said on stdout when TEXT.
std::vector<durability_row> probe_all(const durability_command& cmd, bool text) {
  const search_options o = options_of(cmd);
  std::vector<durability_row> rows;
  for (const auto& c : configurations(cmd)) {
    rows.push_back(probe_durability(c.spec, c.file, o, [text](auto& row, auto& cell) {
      if (text) std::cout << to_text(row, cell) << std::flush;
    }));
    remember_child(0);
  }
  return rows;
}

/// 0, or where a cell could not be known: 4 when the harness failed (its
/// worst), else 3 when a driver could not be started; the cells say which.
int exit_status_of(const std::vector<durability_row>& rows) {
  int status = exit_ok;
  for (const auto& r : rows)
    for (const auto& c : r.cells) {
      if (c.error == property_error::harness) status = exit_harness;
      if (c.error == property_error::spawn && status == exit_ok) status = exit_spawn;
    }
  return status;
}

}  // namespace

int durability_command::execute() {
  report_file json_out("--json", json), md_out("--markdown", markdown);
  report_file svg_out = report_file::page("--svg", svg);
  one_on_stdout(json_out, md_out, "--json and --markdown");
  for (const auto& f : files) refuse_same_as({&json_out, &md_out, &svg_out}, f, "a gate file");
  const auto rows = probe_all(*this, !json_out.on_stdout() && !md_out.on_stdout());
  json_out.commit([&] { return dump_json(to_json(rows)); });
  md_out.commit([&] { return to_markdown(rows, links_from); });
  svg_out.commit([&] { return to_svg(rows); });
  return exit_status_of(rows);
}

}  // namespace flushcheck::cli
