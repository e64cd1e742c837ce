#include <unistd.h>

#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>
#include "commands.hpp"
#include "flushcheck/conformance.hpp"

#include "flushcheck/error.hpp"

namespace flushcheck::cli {

namespace {

const std::vector<sink_kind> k_columns = {sink_kind::pty, sink_kind::pipe, sink_kind::file,
                                          sink_kind::full};

std::string cell(const case_result& r) {
  if (!r.asserted)
    return r.c.prop->level == tier::observed ? r.v.observed : "(" + r.v.observed + ")";
  return r.v.pass ? "pass" : "FAIL";
}

struct row {
  const property* prop;
  lang language;
  std::map<sink_kind, case_result> cells;
};

std::vector<row> rows_of(const std::vector<case_result>& results) {
  std::vector<row> rows;
  for (const auto& r : results) {
    if (rows.empty() || rows.back().prop != r.c.prop || rows.back().language != r.c.language)
      rows.push_back({r.c.prop, r.c.language, {}});
    rows.back().cells.emplace(r.c.sink, r);
  }
  return rows;
}

std::string row_name(const row& r) {
  return r.prop->name + (r.language == lang::c ? " [C]" : " [C++]");
}

}  // namespace

matrix_command::matrix_command(CLI::App& parent) {
  app = parent.add_subcommand("matrix",
                              "Run the conformance properties on this machine's "
                              "toolchain and print the matrix");
  app->add_flag("--json", json, "print one JSON object");
  app->add_flag("--markdown", markdown, "print a Markdown table (docs/matrix.md)");
  app->add_flag("--properties", properties,
                "list the properties (tier, clause or source, claim) as Markdown; run nothing");
  app->add_option("--targets", targets_dir, "directory with stdio_script and iostream_script")
      ->default_str(FLUSHCHECK_TARGETS_DIR);
  app->footer(
      "Cells: pass / FAIL for asserted properties; the observed value for observed ones,\n"
      "in parentheses where a documented property is not asserted for this profile.\n"
      "Exit status: 0 all asserted cells pass, 1 some FAIL, 4 harness failure.");
}

int matrix_command::execute() {
  if (properties) {
    std::string group;
    for (const auto& p : catalogue()) {
      if (p.group != group) std::cout << "\n### " << (group = p.group) << "\n\n";
      std::cout << "- `" << p.name << "` (" << to_string(p.level) << "; " << p.source
                << "): " << p.claim << "\n";
    }
    return 0;
  }
  std::string dir = targets_dir.empty() ? FLUSHCHECK_TARGETS_DIR : targets_dir;
  std::string c_target = dir + "/stdio_script";
  std::string cxx_target = dir + "/iostream_script";
  if (::access(c_target.c_str(), X_OK) != 0)
    throw usage_error("--targets=" + dir + ": no stdio_script there (build the project first)");
  if (::access(cxx_target.c_str(), X_OK) != 0) cxx_target.clear();  // a C-only toolchain
  target_set set = probe_target_set(targets_dir.empty() ? "default" : dir, c_target, cxx_target);

  std::vector<case_result> results;
  auto all = cases(set);
  bool progress = !json && !markdown && ::isatty(2);
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (progress)
      std::cerr << "\r[" << i + 1 << "/" << all.size() << "] " << std::left << std::setw(60)
                << all[i].id() << std::flush;
    results.push_back(run_case(all[i], set));
  }
  if (progress) std::cerr << "\r" << std::string(80, ' ') << "\r";
  int failures = 0;
  for (const auto& r : results) failures += r.asserted && !r.v.pass;

  if (json) {
    nlohmann::json j;
    j["toolchain"] = set.name;
    j["profile"] = {{"libc", set.profile.libc},
                    {"cxxlib", set.profile.cxxlib},
                    {"version", set.profile.version}};
    j["cases"] = nlohmann::json::array();
    for (const auto& r : results)
      j["cases"].push_back({{"id", r.c.id()},
                            {"property", r.c.prop->name},
                            {"group", r.c.prop->group},
                            {"tier", to_string(r.c.prop->level)},
                            {"source", r.c.prop->source},
                            {"asserted", r.asserted},
                            {"pass", r.v.pass},
                            {"observed", r.v.observed},
                            {"explanation", r.v.explanation},
                            {"repro", r.v.repro}});
    j["failures"] = failures;
    std::cout << j.dump(2) << "\n";
    return failures ? 1 : 0;
  }

  auto rows = rows_of(results);
  std::ostringstream out;
  const bool md = markdown;
  out << (md ? "" : "flushcheck matrix: ") << "toolchain " << set.name << " ("
      << set.profile.version << ")\n\n";
  std::size_t w = 12;
  for (const auto& r : rows) w = std::max(w, row_name(r).size());
  std::string group;
  if (md) out << "| property | tier | pty | pipe | file | full |\n|---|---|---|---|---|---|\n";
  for (const auto& r : rows) {
    if (!md && r.prop->group != group) {
      group = r.prop->group;
      out << "\n" << group << "\n";
    }
    if (md)
      out << "| " << row_name(r) << " | " << to_string(r.prop->level) << " |";
    else
      out << "  " << std::left << std::setw(static_cast<int>(w)) << row_name(r) << " "
          << std::setw(10) << to_string(r.prop->level);
    for (sink_kind s : k_columns) {
      auto it = r.cells.find(s);
      std::string c = it == r.cells.end() ? "-" : cell(it->second);
      if (md)
        out << " " << c << " |";
      else
        out << " " << std::setw(7) << c;
    }
    out << "\n";
  }
  out << "\n" << results.size() << " cases, " << failures << " FAIL\n";
  for (const auto& r : results) {
    if (r.v.pass && r.c.prop->level != tier::observed) continue;
    const char* tag = r.v.pass ? "" : r.asserted ? "FAIL " : "not asserted for this profile: ";
    out << (md ? "\n- " : "\n") << tag << r.c.id() << ": " << r.v.explanation
        << (md ? "\n  `" : "\n    ") << r.v.repro << (md ? "`" : "") << "\n";
  }
  std::cout << out.str();
  return failures ? 1 : 0;
}

}  // namespace flushcheck::cli
