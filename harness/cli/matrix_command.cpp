#include <dirent.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <set>

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

/// Every case of SET, with a progress line on stderr when asked (a terminal).
std::vector<case_result> run_all_cases(const target_set& set, bool progress) {
  std::vector<case_result> results;
  auto todo = cases(set);
  for (std::size_t i = 0; i < todo.size(); ++i) {
    if (progress)
      std::cerr << "\r[" << set.name << " " << i + 1 << "/" << todo.size() << "] " << std::left
                << std::setw(60) << todo[i].id() << std::flush;
    results.push_back(run_case(todo[i], set));
  }
  if (progress) std::cerr << "\r" << std::string(90, ' ') << "\r";
  return results;
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
  app->add_flag("--all", all,
                "every toolchain set: the default targets and each directory under them "
                "with a stdio_script (musl, clang-libcxx, ...), side by side");
  app->add_option("--html", html,
                  "write the matrix as one self-contained HTML page to FILE (with --all: every "
                  "toolchain set)");
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
  if (all || !html.empty()) return execute_all(dir);
  auto found = probe_target_dir(targets_dir.empty() ? "default" : dir, dir);
  if (!found)
    throw usage_error("--targets=" + dir + ": no stdio_script there (build the project first)");
  const target_set& set = *found;
  std::vector<case_result> results = run_all_cases(set, !json && !markdown && ::isatty(2));
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

namespace {

std::vector<target_set> discover_sets(const std::string& dir) {
  std::vector<target_set> sets;
  auto add = [&](const std::string& name, const std::string& d) {
    if (auto set = probe_target_dir(name, d)) sets.push_back(std::move(*set));
  };
  add("default", dir);
  std::vector<std::string> names;
  if (DIR* d = ::opendir(dir.c_str())) {
    while (dirent* e = ::readdir(d))
      if (e->d_name[0] != '.' && std::string(e->d_name) != "CMakeFiles") names.push_back(e->d_name);
    ::closedir(d);
  }
  std::sort(names.begin(), names.end());
  for (const auto& n : names) add(n, dir + "/" + n);
  return sets;
}

std::string escape_html(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '&')
      out += "&amp;";
    else if (c == '"')
      out += "&quot;";
    else
      out += c;
  }
  return out;
}

const char* css_class(const case_result& r) {
  if (!r.asserted) return "obs";
  return r.v.pass ? "pass" : "fail";
}

std::string row_label(const property_case& c) {
  return c.prop->name + (c.language == lang::c ? " [C] " : " [C++] ") +
         std::string(to_string(c.sink));
}

}  // namespace

int matrix_command::execute_all(const std::string& dir) {
  auto sets = discover_sets(dir);
  if (!all && sets.size() > 1) sets.resize(1);  // --html alone: the default set
  if (sets.empty())
    throw usage_error("--targets=" + dir + ": no stdio_script there (build the project first)");
  // results[s][id]
  std::vector<std::map<std::string, case_result>> results(sets.size());
  std::vector<property_case> rows;
  std::set<std::string> seen;
  int failures = 0;
  for (std::size_t s = 0; s < sets.size(); ++s)
    for (auto& r : run_all_cases(sets[s], !json && !markdown && ::isatty(2))) {
      failures += r.asserted && !r.v.pass;
      results[s].emplace(r.c.id(), std::move(r));
    }
  // Rows in catalogue order, union over the sets.
  for (const auto& p : catalogue())
    for (lang l : p.langs)
      for (sink_kind k : p.sinks) {
        property_case c{&p, l, k};
        for (const auto& r : results)
          if (r.count(c.id()) != 0 && seen.insert(c.id()).second) rows.push_back(c);
      }

  if (json) {
    nlohmann::json j;
    j["toolchains"] = nlohmann::json::array();
    for (std::size_t s = 0; s < sets.size(); ++s) {
      nlohmann::json cs = nlohmann::json::array();
      for (const auto& [id, r] : results[s])
        cs.push_back({{"id", id},
                      {"tier", to_string(r.c.prop->level)},
                      {"asserted", r.asserted},
                      {"pass", r.v.pass},
                      {"observed", r.v.observed},
                      {"repro", r.v.repro}});
      j["toolchains"].push_back({{"name", sets[s].name},
                                 {"libc", sets[s].profile.libc},
                                 {"cxxlib", sets[s].profile.cxxlib},
                                 {"version", sets[s].profile.version},
                                 {"cases", cs}});
    }
    j["failures"] = failures;
    std::cout << j.dump(2) << "\n";
    return failures ? 1 : 0;
  }

  if (!html.empty()) {
    std::ostringstream h;
    h << "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      << "<title>flushcheck conformance matrix</title><style>"
      << "body{font-family:sans-serif;margin:1.5em}table{border-collapse:collapse}"
      << "td,th{border:1px solid #ccc;padding:2px 6px;font-size:13px;text-align:left}"
      << ".pass{background:#d9f2d9}.fail{background:#f7c6c6;font-weight:bold}"
      << ".obs{background:#eef}code{font-size:12px}</style></head><body>\n"
      << "<h1>flushcheck conformance matrix</h1>\n<ul id=\"toolchains\">\n";
    for (const auto& set : sets)
      h << "<li><b>" << escape_html(set.name) << "</b>: " << escape_html(set.profile.version)
        << "</li>\n";
    h << "</ul>\n<p>" << failures << " FAIL. Green: pass; red: FAIL; blue: observed value "
      << "(observed tier, or documented for another implementation).</p>\n"
      << "<table id=\"matrix\"><thead><tr><th>property</th><th>tier</th>";
    for (const auto& set : sets) h << "<th>" << escape_html(set.name) << "</th>";
    h << "</tr></thead><tbody>\n";
    for (const auto& c : rows) {
      h << "<tr><td title=\"" << escape_html(c.prop->claim + " [" + c.prop->source + "]") << "\">"
        << escape_html(row_label(c)) << "</td><td>" << to_string(c.prop->level) << "</td>";
      for (std::size_t s = 0; s < sets.size(); ++s) {
        auto it = results[s].find(c.id());
        if (it == results[s].end())
          h << "<td>-</td>";
        else
          h << "<td class=\"" << css_class(it->second) << "\" title=\""
            << escape_html(it->second.v.repro) << "\">" << escape_html(cell(it->second)) << "</td>";
      }
      h << "</tr>\n";
    }
    h << "</tbody></table>\n</body></html>\n";
    std::ofstream f(html);
    f << h.str();
    if (!f) throw usage_error("--html=" + html + ": cannot write it");
    std::cout << "wrote " << html << ": " << rows.size() << " rows x " << sets.size()
              << " toolchain sets, " << failures << " FAIL\n";
    return failures ? 1 : 0;
  }

  std::ostringstream out;
  const bool md = markdown;
  out << (md ? "" : "flushcheck matrix --all: ") << sets.size() << " toolchain sets\n\n";
  for (const auto& set : sets)
    out << (md ? "- `" : "  ") << set.name << (md ? "`: " : ": ") << set.profile.version << "\n";
  out << "\n";
  std::size_t w = 12;
  for (const auto& c : rows) w = std::max(w, row_label(c).size());
  std::size_t cw = 12;
  for (const auto& set : sets) cw = std::max(cw, set.name.size() + 2);
  if (md) {
    out << "| property | tier |";
    for (const auto& set : sets) out << " " << set.name << " |";
    out << "\n|---|---|";
    for (std::size_t i = 0; i < sets.size(); ++i) out << "---|";
    out << "\n";
  } else {
    out << "  " << std::left << std::setw(static_cast<int>(w)) << ""
        << " " << std::setw(10) << "";
    for (const auto& set : sets) out << " " << std::setw(static_cast<int>(cw)) << set.name;
    out << "\n";
  }
  std::string group;
  for (const auto& c : rows) {
    if (!md && c.prop->group != group) out << "\n" << (group = c.prop->group) << "\n";
    if (md)
      out << "| " << row_label(c) << " | " << to_string(c.prop->level) << " |";
    else
      out << "  " << std::left << std::setw(static_cast<int>(w)) << row_label(c) << " "
          << std::setw(10) << to_string(c.prop->level);
    for (std::size_t s = 0; s < sets.size(); ++s) {
      auto it = results[s].find(c.id());
      std::string v = it == results[s].end() ? "-" : cell(it->second);
      if (md)
        out << " " << v << " |";
      else
        out << " " << std::setw(static_cast<int>(cw)) << v;
    }
    out << "\n";
  }
  out << "\n" << failures << " FAIL across " << sets.size() << " toolchain sets\n";
  // Every difference between implementations, with the run that shows it.
  out << (md ? "\n### Differences between implementations\n" : "\nDifferences:\n");
  for (const auto& c : rows) {
    if (c.prop->level == tier::required) continue;
    std::map<std::string, std::vector<std::size_t>> by_value;
    for (std::size_t s = 0; s < sets.size(); ++s) {
      auto it = results[s].find(c.id());
      if (it != results[s].end()) by_value[it->second.v.observed].push_back(s);
    }
    if (by_value.size() < 2) continue;
    out << (md ? "\n- " : "\n") << row_label(c) << ":";
    for (const auto& [value, idx] : by_value)
      for (std::size_t s : idx) out << " " << sets[s].name << " = " << value << ";";
    out << "\n";
    for (const auto& [value, idx] : by_value)  // what each outcome means for a program
      out << (md ? "  - " : "    ") << sets[idx.front()].name
          << (idx.size() > 1 ? " and others like it" : "") << ": "
          << results[idx.front()].at(c.id()).v.explanation << "\n";
    for (std::size_t s = 0; s < sets.size(); ++s) {
      auto it = results[s].find(c.id());
      if (it != results[s].end())
        out << (md ? "  - `" : "    ") << it->second.v.repro << (md ? "`" : "") << "\n";
    }
  }
  for (std::size_t s = 0; s < sets.size(); ++s)
    for (const auto& [id, r] : results[s])
      if (r.asserted && !r.v.pass)
        out << (md ? "\n- " : "\n") << "FAIL " << sets[s].name << " " << id << ": "
            << r.v.explanation << (md ? "\n  `" : "\n    ") << r.v.repro << (md ? "`" : "") << "\n";
  std::cout << out.str();
  return failures ? 1 : 0;
}

}  // namespace flushcheck::cli
