#include "script_output.hpp"

#include <algorithm>
#include <cstdint>
#include <filesystem>

#include "error.hpp"
#include "model_check.hpp"
#include "script.hpp"
#include "target_set.hpp"

namespace flushcheck {
namespace {

/// The language of a script target, by its file name.
std::optional<lang> script_language(const std::string& path) {
  const std::string name = std::filesystem::path(path).filename();
  if (name == "stdio_script") return lang::c;
  if (name == "iostream_script") return lang::cxx;
  return std::nullopt;
}

model_setup setup_of(const run_options& o, lang language) {
  model_setup s;
  s.language = language;
  s.profile = (language == lang::c ? probe_target_set("run", o.argv[0], "")
                                   : probe_target_set("run", "", o.argv[0]))
                  .profile;
  s.stdout_sink = o.stdout_sink;
  s.stderr_sink = o.stderr_sink;
  s.input = o.input == stdin_kind::pipe ? o.input_data : "";
  s.faults = o.faults;
  return with_st_blksize(s);
}

/// What P's channels that reach stdout's reader (ON_STDERR: stderr's) were
/// given by the cut, with O's 2>&1 or not.
std::string given_to_reader(const prediction& p, const run_options& o, bool on_stderr) {
  std::string given;  // bytes and lines are counted: the channels' order does not matter
  for (channel c : {channel::c_out, channel::c_err, channel::cxx_out, channel::cxx_err})
    if (!o.stderr_sink || (fd_of(c) == 2) == on_stderr)  // 2>&1: the reader has all four
      given += p.given[static_cast<std::size_t>(c)];
  return given;
}

}  // namespace

std::optional<produced_output> script_produced(const run_options& o, bool on_stderr) {
  const auto language = o.argv.size() == 2 ? script_language(o.argv[0]) : std::nullopt;
  // A time cut lands wherever the program is then: the script cannot say where.
  if (!language || o.input == stdin_kind::pty || o.kill.when == kill_plan::when_kind::time)
    return std::nullopt;
  try {
    const prediction p = predict(setup_of(o, *language), script::parse(o.argv[1]), o.kill);
    const std::string given = given_to_reader(p, o, on_stderr);
    return produced_output{given.size(),
                           static_cast<std::uint64_t>(std::count(given.begin(), given.end(), '\n')),
                           "the script, as the model runs it"};
  } catch (const std::exception&) {  // usage_error: not covered; spawn_error: --version failed
    return std::nullopt;
  }
}

}  // namespace flushcheck
