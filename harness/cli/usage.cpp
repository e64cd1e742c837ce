#include "usage.hpp"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "workers.hpp"

namespace flushcheck::cli {

namespace {

/// Levenshtein distance: the edits from A to B.
std::size_t distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1] ? 1 : 0)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

bool has_double_dash(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--") == 0) return true;
  return false;
}

}  // namespace

std::optional<std::string> unknown_verb(CLI::App& app, int argc, char** argv) {
  if (argc < 2 || argv[1][0] == '-') return std::nullopt;  // an option: CLI11 says what is wrong
  const std::string word = argv[1];
  std::string verbs, closest;
  std::size_t best = 3;  // at most two edits away: a typo, not another word
  for (const CLI::App* sub : app.get_subcommands({})) {
    const std::string& name = sub->get_name();
    if (name == word) return std::nullopt;
    verbs += (verbs.empty() ? "" : ", ") + name;
    if (std::size_t d = distance(word, name); d < best) best = d, closest = name;
  }
  return "'" + word + "' is not a verb (" + verbs + ")" +
         (closest.empty() ? "" : ": did you mean " + closest + "?");
}

std::string parse_error_text(const CLI::ParseError& e, int argc, char** argv) {
  std::string text = e.what();
  if (dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr && !has_double_dash(argc, argv))
    text += std::string(": the program and its arguments follow --, as in flushcheck ") +
            (argc > 1 ? argv[1] : "run") + " -- python3 -c CODE";
  return text;
}

const std::vector<std::pair<int, std::string>>& exit_statuses() {
  static const std::vector<std::pair<int, std::string>> all{
      {exit_ok,
       "It ran: run and count whatever the program did; gate every case passed; "
       "matrix every asserted cell passed; doctor nothing lost."},
      {exit_failed,
       "A finding: a gate case failed, a matrix cell FAILs or changed against "
       "--baseline, a bench row moved against --compare, doctor lost or held "
       "output."},
      {exit_usage,
       "Usage error: a flag, a value, a gate file or a saved report that cannot "
       "be used; one line on stderr says what and why."},
      {exit_spawn, "The program could not be started (not found, not executable)."},
      {exit_harness,
       "Harness failure: something flushcheck needs failed (a tracer, a pty, "
       "the report's file)."},
      {exit_no_output, "doctor: the program wrote nothing to stdout or stderr."},
      {exit_no_verdict,
       "No verdict: doctor's output differs between runs, so no run is a reference; "
       "matrix --baseline found no cell in both records, so nothing was checked."},
  };
  return all;
}

namespace {

/// Joins a status to its meaning's first word: no line ends after a number.
constexpr char glue = '\x01';

/// TEXT broken into lines of at most 90 columns, at spaces (not at glue).
std::string wrapped(const std::string& text) {
  std::string out, line;
  std::istringstream words(text);
  for (std::string w; words >> w;) {
    if (!line.empty() && line.size() + 1 + w.size() > 90) out += line + "\n", line.clear();
    line += (line.empty() ? "" : " ") + w;
  }
  out += line;
  std::replace(out.begin(), out.end(), glue, ' ');
  return out;
}

}  // namespace

std::string exit_footer(const std::vector<std::pair<int, std::string>>& own) {
  static const std::map<int, std::string> usual = {{exit_usage, "usage error"},
                                                   {exit_spawn, "PROG could not be started"},
                                                   {exit_harness, "harness failure"}};
  std::string text = "Exit status:";
  for (std::size_t i = 0; i < own.size(); ++i) {
    const auto& [status, meaning] = own[i];
    const auto it = usual.find(status);
    text += " " + std::to_string(status) + glue +
            (meaning.empty() && it != usual.end() ? it->second : meaning) +
            (i + 1 < own.size() ? "," : ".");
  }
  return wrapped(text);
}

CLI::Option* add_jobs_option(CLI::App* app, int& jobs) {
  return app
      ->add_option("--jobs", jobs,
                   "worker processes that run independent runs side by side; the report is the "
                   "same for any number (default: the CPUs this process may use)")
      ->check(in_range(1, 1024));
}

int jobs_or_cpus(int jobs) { return jobs > 0 ? jobs : usable_cpus(); }

CLI::Validator in_range(long lo, long hi) {
  const std::string bounds = std::to_string(lo) + " to " + std::to_string(hi);
  return CLI::Validator(
      [lo, hi, bounds](std::string& value) -> std::string {
        long n = 0;
        const char* end = value.data() + value.size();
        auto [stop, error] = std::from_chars(value.data(), end, n);
        if (error == std::errc{} && stop == end && n >= lo && n <= hi) return "";
        return value + " is not a number from " + bounds;
      },
      "NUMBER from " + bounds);
}

std::vector<std::string> with_old_spellings(int argc, char** argv) {
  std::vector<std::string> out(argv, argv + argc);
  const bool bench = argc > 1 && std::string(argv[1]) == "bench";
  for (std::size_t i = 2; bench && i + 1 < out.size() && out[i] != "--"; ++i) {
    if ((out[i] == "--json" || out[i] == "--markdown") && !out[i + 1].starts_with("-")) {
      out[i] += "=" + out[i + 1];
      out.erase(out.begin() + static_cast<std::ptrdiff_t>(i) + 1);
    }
  }
  return out;
}

}  // namespace flushcheck::cli
