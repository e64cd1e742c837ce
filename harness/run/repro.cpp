// run_options back into the `flushcheck run` flags that make them.
#include "repro.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>

#include "escape.hpp"
#include "temporary.hpp"

namespace flushcheck {

namespace {

/// " TMPDIR=DIR" when a file sink is made under the harness's $TMPDIR: the
/// file system the repro's file lands on is the run's (tmpfs or a disk).
std::string sink_dir(const run_options& o) {
  const bool file = o.stdout_sink == sink_kind::file || o.stderr_sink == sink_kind::file;
  return file && temp_dir() != "/tmp" ? " TMPDIR=" + shell_quote(temp_dir()) : "";
}

/// S as it is when a shell takes it so, else quoted.
std::string shell_word(const std::string& s) {
  const bool plain = !s.empty() && s.find_first_not_of(
                                       "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                       "0123456789_-./:,+=@%") == std::string::npos;
  return plain ? s : shell_quote(s);
}

/// NAME=VALUE with VALUE quoted for the shell when it needs it.
std::string quoted_variable(const std::string& kv) {
  const auto eq = kv.find('=');
  const std::string value = kv.substr(eq + 1);
  return kv.substr(0, eq + 1) + (value.empty() ? value : shell_word(value));
}

/// Whether the repro line of O names the variable KV.
bool shown(const run_options& o, const std::string& kv) {
  if (!o.repro_names) return true;
  const std::string name = kv.substr(0, kv.find('='));
  return std::find(o.repro_names->begin(), o.repro_names->end(), name) != o.repro_names->end();
}

std::string& the_binary() {
  static std::string binary;  // "": not set (a program of your own with the gate API)
  return binary;
}

/// Whether `flushcheck`, looked up on DIRS (a PATH) as execvp does, is BINARY.
bool on_path_as_flushcheck(const std::string& dirs, const std::string& binary) {
  struct stat want {};
  if (::stat(binary.c_str(), &want) != 0) return false;
  for (std::size_t from = 0; from <= dirs.size();) {
    std::size_t colon = dirs.find(':', from);
    if (colon == std::string::npos) colon = dirs.size();
    std::string dir = dirs.substr(from, colon - from);
    std::string candidate = (dir.empty() ? "." : dir) + "/flushcheck";
    struct stat st {};
    if (::access(candidate.c_str(), X_OK) == 0 && ::stat(candidate.c_str(), &st) == 0)
      return st.st_dev == want.st_dev && st.st_ino == want.st_ino;  // the first one found runs
    from = colon + 1;
  }
  return false;
}

/// The PATH `env -i NAME=VALUE... flushcheck` looks flushcheck up on: the
/// line's own PATH, else execvp's default.
std::string path_of(const std::vector<std::string>& env) {
  for (const auto& kv : env)
    if (kv.starts_with("PATH=")) return kv.substr(5);
  return "/bin:/usr/bin";
}

/// `flushcheck` when the line's PATH finds the binary that prints it, else its path.
std::string program_for(const run_options& o) { return flushcheck_word(path_of(o.env)); }

/// " --stdout=pipe --stderr=stdout" and stdin's flags, if not the defaults.
std::string stream_flags(const run_options& o) {
  std::string flags = " --stdout=" + std::string(to_string(o.stdout_sink));
  flags += " --stderr=" + (o.stderr_sink ? std::string(to_string(*o.stderr_sink)) : "stdout");
  if (o.input == stdin_kind::pipe) flags += " --stdin=pipe";
  if (o.input == stdin_kind::pty) flags += " --stdin=pty";
  if (!o.input_data.empty()) flags += " --input=" + shell_quote(o.input_data);
  return flags;
}

/// The cut, faults, reader and the other flags that differ from their
/// defaults (--trace when nothing else implies it).
std::string run_flags(const run_options& o) {
  std::string flags;
  if (o.kill.when != kill_plan::when_kind::never) flags += " --kill=" + shell_word(o.kill.text());
  for (const auto& f : o.faults) flags += " --fault=" + shell_quote(f.text());
  if (o.reader.what != reader_policy::kind::prompt) flags += " --reader=" + o.reader.text();
  if (o.pipe_size != 0) flags += " --pipe-size=" + std::to_string(o.pipe_size);
  if (o.nonblock) flags += " --nonblock";
  if (o.timeline) flags += " --timeline";
  if (o.timeout != run_options{}.timeout)
    flags += " --timeout=" + std::to_string(o.timeout.count());
  if (o.trace && !o.kill.needs_tracer() && o.faults.empty() && !o.timeline) flags += " --trace";
  return flags;
}

/// " count --backend=bpf --stdout=null ...": `run` counts with ptrace only,
/// so a run counted by another backend is repeated by `count`, which has
/// no stderr sink, stdin, cut or reader (a counted run has none of those).
std::string count_flags(const run_options& o) {
  std::string flags =
      o.backend == trace_backend::bpf ? " count --backend=bpf" : " count --backend=perf";
  flags += " --stdout=" + std::string(to_string(o.stdout_sink));
  for (const auto& f : o.faults) flags += " --fault=" + shell_quote(f.text());
  return flags + " --timeout=" + std::to_string(o.timeout.count());
}

/// Whether a word of O's line has a newline (shell_quote's $'...').
bool has_newline(const run_options& o) {
  const auto nl = [](const std::string& s) { return s.find('\n') != std::string::npos; };
  return std::any_of(o.argv.begin(), o.argv.end(), nl) ||
         std::any_of(o.env.begin(), o.env.end(), nl) || nl(o.input_data) ||
         std::any_of(o.faults.begin(), o.faults.end(), [&](auto& f) { return nl(f.text()); }) ||
         nl(o.kill.text()) || nl(temp_dir());
}

}  // namespace

void set_repro_program(const std::string& binary) { the_binary() = binary; }

std::string flushcheck_word(const std::string& dirs) {
  const std::string& binary = the_binary();
  if (binary.empty() || on_path_as_flushcheck(dirs, binary)) return "flushcheck";
  return shell_word(binary);
}

std::string repro_command(const run_options& o, const std::string& first) {
  std::string cmd = first + "env -i" + sink_dir(o);
  for (const auto& kv : o.env)
    if (shown(o, kv)) cmd += " " + quoted_variable(kv);
  cmd += " " + program_for(o);
  cmd += o.trace && o.backend != trace_backend::ptrace ? count_flags(o)
                                                       : " run" + stream_flags(o) + run_flags(o);
  cmd += " --";
  for (const auto& a : o.argv) cmd += " " + shell_quote(a);
  return posix_line(cmd, has_newline(o));
}

std::string command_line(const std::vector<std::string>& argv, std::size_t max) {
  std::string line;
  for (const auto& a : argv) line += (line.empty() ? "" : " ") + shell_word(a);
  return cut_text(line, max);
}

}  // namespace flushcheck
