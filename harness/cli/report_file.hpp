#pragma once
// Where a verb's report goes: one convention for every verb (docs/cli.md,
// "Reports"). --json, --markdown: stdout with no value, a file with =FILE.
#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "output_file.hpp"

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
/// file (output_file: a device or FIFO written in place, a regular file
/// replaced whole). It is opened when this is made, so that a path that
/// cannot be written is a usage error before anything runs, and written only
/// by commit(), so that a failed or interrupted verb leaves FILE as it was.
class report_file {
 public:
  report_file(std::string flag, std::string target);

  /// A page (--html FILE): a file, never stdout (a usage error).
  static report_file page(std::string flag, std::string target);

  /// A report was asked for: the verb makes it (a picture costs time).
  explicit operator bool() const { return !target_.empty(); }
  /// The report is what the verb prints: it prints no text report then.
  bool on_stdout() const { return target_ == "-"; }
  /// The report MAKE makes, to stdout or into the file; when the report was
  /// not asked for, nothing, and MAKE is not called (a JSON document of a
  /// run's 256 MiB costs seconds and ten times that in memory).
  void commit(const std::function<std::string()>& make);
  /// Throws a usage error when the report would replace INPUT, a file the
  /// verb reads or runs: FILE and INPUT name one regular file (the same
  /// st_dev and st_ino, symlinks followed, as the report is written through
  /// them). WHAT says what INPUT is ("the gate file").
  void refuse_same_as(const std::string& input, const std::string& what) const;

 private:
  std::string flag_, target_;
  std::optional<output_file> file_;
};

/// Throws a usage error when A and B both go to stdout.
void one_on_stdout(const report_file& a, const report_file& b, const std::string& names);

/// report_file::refuse_same_as for each of REPORTS.
void refuse_same_as(std::initializer_list<const report_file*> reports, const std::string& input,
                    const std::string& what);

/// refuse_same_as for the program ARGV runs: ARGV[0] as exec finds it (on
/// the caller's PATH when it has no '/'). One not found is no file: the run
/// says so.
void refuse_program(std::initializer_list<const report_file*> reports,
                    const std::vector<std::string>& argv);

}  // namespace flushcheck::cli
