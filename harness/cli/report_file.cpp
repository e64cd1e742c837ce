// Reports to stdout or to a file, the same way in every verb.
#include "report_file.hpp"

#include <sys/stat.h>

#include <iostream>
#include <stdexcept>

#include "error.hpp"
#include "escape.hpp"
#include "run.hpp"
#include "spawn.hpp"

namespace flushcheck::cli {

std::string help_formatter::make_option_name(const CLI::Option* opt, bool positional) const {
  std::string name = CLI::Formatter::make_option_name(opt, positional);
  if (const auto at = name.find("{-}"); at != std::string::npos) name.replace(at, 3, "[=FILE]");
  return name;
}

CLI::Option* add_report_flag(CLI::App* app, const std::string& name, std::string& target,
                             const std::string& what) {
  return app->add_flag(name + "{-}", target, what + " on stdout; with =FILE, into FILE");
}

report_file::report_file(std::string flag, std::string target)
    : flag_(std::move(flag)), target_(std::move(target)) {
  if (target_.empty() || on_stdout()) return;
  try {
    file_ = output_file::open(target_);
  } catch (const usage_error& e) {
    throw usage_error(flag_ + "=" + printable(target_, 200) + ": " + e.what());
  }
}

report_file report_file::page(std::string flag, std::string target) {
  if (target == "-") throw usage_error(flag + " -: a page goes to a FILE, not to stdout");
  return report_file(std::move(flag), std::move(target));
}

void report_file::commit(const std::function<std::string()>& make) {
  if (target_.empty()) return;
  if (on_stdout()) {
    std::cout << make();
    return;
  }
  try {
    file_->commit(make());
  } catch (const harness_error& e) {  // after the run: exit 4
    throw std::runtime_error(flag_ + "=" + printable(target_, 200) +
                             ": the report could not be written: " + e.code().message());
  }
}

namespace {

/// PATH's file, symlinks followed, when it is a regular file.
std::optional<struct stat> regular_file(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  return st;
}

}  // namespace

void report_file::refuse_same_as(const std::string& input, const std::string& what) const {
  if (target_.empty() || on_stdout() || input.empty()) return;
  const auto report = regular_file(target_), read = regular_file(input);
  if (!report || !read || report->st_dev != read->st_dev || report->st_ino != read->st_ino) return;
  throw usage_error(flag_ + "=" + printable(target_, 200) + ": is " + what +
                    (input == target_ ? "" : " " + printable(input, 200)) +
                    "; a report never replaces its input");
}

void one_on_stdout(const report_file& a, const report_file& b, const std::string& names) {
  if (a.on_stdout() && b.on_stdout())
    throw usage_error(names + ": both would print to stdout; give one of them =FILE");
}

void refuse_same_as(std::initializer_list<const report_file*> reports, const std::string& input,
                    const std::string& what) {
  for (const report_file* r : reports) r->refuse_same_as(input, what);
}

void refuse_program(std::initializer_list<const report_file*> reports,
                    const std::vector<std::string>& argv) {
  if (argv.empty()) return;
  std::string program = argv.front();
  if (program.find('/') == std::string::npos) {
    try {  // as exec finds it, on the caller's PATH
      program = resolve_program(program, current_environment());
    } catch (const spawn_error&) {
      return;  // no such program: the run says so (exit 3)
    }
  }
  refuse_same_as(reports, program, "the program");
}

}  // namespace flushcheck::cli
