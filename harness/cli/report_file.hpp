#pragma once
// Where a verb's report goes: one convention for every verb (docs/cli.md,
// "Reports"). --json, --markdown: stdout with no value, a file with =FILE.
#include <fstream>
#include <string>

#include <CLI/CLI.hpp>

#include "temporary.hpp"

namespace flushcheck::cli {

/// The help of every verb: CLI11's layout, with a report flag shown as
/// "--json[=FILE]" (set on the top app before its verbs are added, which
/// inherit it).
class help_formatter : public CLI::Formatter {
 public:
  std::string make_option_name(const CLI::Option* opt, bool positional) const override;
};

/// --NAME[=FILE] on APP into TARGET: "--json" alone sets "-" (stdout),
/// "--json=FILE" sets FILE; not given leaves it empty.
CLI::Option* add_report_flag(CLI::App* app, const std::string& name, std::string& target,
                             const std::string& what);

/// One report asked for by FLAG: nowhere (TARGET empty), stdout ("-"), or a
/// file: FILE.tmp is opened when this is made, so that a path that cannot be
/// written is a usage error before anything runs, and renamed to FILE only by
/// commit(), so that a failed or interrupted verb leaves FILE as it was.
class report_file {
 public:
  report_file(std::string flag, std::string target);
  ~report_file();
  report_file(const report_file&) = delete;
  report_file& operator=(const report_file&) = delete;

  /// A page (--html FILE): a file, never stdout (a usage error).
  static report_file page(std::string flag, std::string target);

  /// A report was asked for: the verb makes it (a picture costs time).
  explicit operator bool() const { return !target_.empty(); }
  /// The report is what the verb prints: it prints no text report then.
  bool on_stdout() const { return target_ == "-"; }
  /// TEXT to stdout or into the file; nothing when the report was not asked for.
  void commit(const std::string& text);

 private:
  std::string flag_, target_;
  std::ofstream f_;
  detail::listed_path listed_;  ///< FILE.tmp, removed by an interrupted CLI
  bool done_ = false;
};

/// Throws a usage error when A and B both go to stdout.
void one_on_stdout(const report_file& a, const report_file& b, const std::string& names);

}  // namespace flushcheck::cli
