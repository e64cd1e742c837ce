// run_options back into the `flushcheck run` flags that make them.
#include "flushcheck/repro.hpp"

#include <cstdlib>

#include "flushcheck/escape.hpp"

namespace flushcheck {

namespace {

/// " TMPDIR=DIR" when a file sink is made under the harness's $TMPDIR: the
/// file system the repro's file lands on is the run's (tmpfs or a disk).
std::string sink_dir(const run_options& o) {
  const char* t = std::getenv("TMPDIR");
  const bool file = o.stdout_sink == sink_kind::file || o.stderr_sink == sink_kind::file;
  return file && t != nullptr && *t != '\0' ? " TMPDIR=" + shell_quote(t) : "";
}

/// NAME=VALUE with VALUE quoted for the shell when it needs it.
std::string quoted_variable(const std::string& kv) {
  const auto eq = kv.find('=');
  const std::string value = kv.substr(eq + 1);
  const bool plain = value.find_first_not_of(
                         "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                         "0123456789_-./:,+=@%") == std::string::npos;
  return plain ? kv : kv.substr(0, eq + 1) + shell_quote(value);
}

}  // namespace

std::string repro_command(const run_options& o) {
  std::string cmd = "env -i" + sink_dir(o);
  for (const auto& kv : o.env) cmd += " " + quoted_variable(kv);
  cmd += " flushcheck run --stdout=" + std::string(to_string(o.stdout_sink));
  cmd += " --stderr=" + (o.stderr_sink ? std::string(to_string(*o.stderr_sink)) : "stdout");
  if (o.input == stdin_kind::pipe) cmd += " --stdin=pipe";
  if (o.input == stdin_kind::pty) cmd += " --stdin=pty";
  if (!o.input_data.empty()) cmd += " --input=" + shell_quote(o.input_data);
  if (o.kill.when != kill_plan::when_kind::never) cmd += " --kill=" + o.kill.text();
  for (const auto& f : o.faults) cmd += " --fault=" + shell_quote(f.text());
  if (o.reader.what != reader_policy::kind::prompt) cmd += " --reader=" + o.reader.text();
  if (o.pipe_size != 0) cmd += " --pipe-size=" + std::to_string(o.pipe_size);
  if (o.nonblock) cmd += " --nonblock";
  if (o.timeline) cmd += " --timeline";
  if (o.timeout != run_options{}.timeout) cmd += " --timeout=" + std::to_string(o.timeout.count());
  if (o.trace && !o.kill.needs_tracer() && o.faults.empty() && !o.timeline) cmd += " --trace";
  cmd += " --";
  for (const auto& a : o.argv) cmd += " " + shell_quote(a);
  return cmd;
}

}  // namespace flushcheck
