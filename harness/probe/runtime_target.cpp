// The runtimes' interpreters of the script language: how each is started,
// and which of them this machine can run.
#include "runtime_target.hpp"

#include <unistd.h>

#include <sstream>

#include "clean_environment.hpp"
#include "error.hpp"
#include "input_file.hpp"
#include "languages.hpp"
#include "run.hpp"
#include "spawn.hpp"

namespace flushcheck {

std::vector<std::string> runtime_target::command(const std::string& script,
                                                 const std::vector<std::string>& flags) const {
  std::vector<std::string> out(argv.begin(), argv.begin() + 1);
  out.insert(out.end(), flags.begin(), flags.end());
  out.insert(out.end(), argv.begin() + 1, argv.end());
  out.push_back(script);
  return out;
}

namespace {

/// Why TARGET is not there: what its compiler said (TARGET.why, written by
/// `targets build`), else that PACKAGE was missing when the targets were built.
std::string not_built(const std::string& target, const std::string& package) {
  std::istringstream why_file(read_file(target + ".why").value_or(""));
  std::string why;
  if (std::getline(why_file, why) && !why.empty()) return target + " did not build: " + why;
  return target + " is not built (Debian package " + package + " when the targets were built)";
}

/// The interpreter's ARGV with "@" replaced by DIR; a target in DIR that is
/// not built is noted in MISSING.
std::vector<std::string> with_targets(const language_facts& info, const std::string& dir,
                                      std::string& missing) {
  std::vector<std::string> argv;
  for (std::string word : info.interpreter) {
    if (word[0] == '@') word = dir + word.substr(1);
    argv.push_back(word);
    bool is_file = word.rfind(dir, 0) == 0;
    if (is_file && ::access(word.c_str(), F_OK) != 0) missing = not_built(word, info.package);
  }
  return argv;
}

/// ARGV with "@" replaced by DIR and its command resolved, or the reason
/// it cannot run (in MISSING).
std::vector<std::string> resolve(const language_facts& info, const std::string& dir,
                                 std::string& missing) {
  std::vector<std::string> argv = with_targets(info, dir, missing);
  if (!missing.empty()) return argv;  // a target not built: said above, more exactly
  try {
    argv[0] = resolve_program(argv[0], clean_environment());
  } catch (const spawn_error& e) {
    missing = std::string(e.what()) + " (Debian package " + info.package + ")";
  }
  return argv;
}

}  // namespace

std::string probe_version(runtime_target& t) {
  run_options o;
  o.argv = t.command("--version");
  o.env = clean_environment();
  observation obs = run(o);
  std::string line = obs.out.data.substr(0, obs.out.data.find('\n'));
  if (obs.status != wait_status::exited(0) || line.empty())
    t.missing = o.argv[0] + " --version failed: " + obs.status.describe();
  return line;
}

std::vector<runtime_target> discover_runtimes(const std::string& dir, bool probe) {
  std::vector<runtime_target> out;
  for (const auto& info : language_table()) {
    if (info.interpreter.empty()) continue;  // C, C++: the toolchain sets' targets
    runtime_target t{info.language, {}, {}, {}};
    t.argv = resolve(info, dir + "/runtimes", t.missing);
    if (probe && t.missing.empty()) t.version = probe_version(t);
    if (!t.missing.empty()) t.argv.clear();
    out.push_back(std::move(t));
  }
  return out;
}

}  // namespace flushcheck
