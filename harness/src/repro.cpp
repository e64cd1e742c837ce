// run_options back into the `flushcheck run` flags that make them.
#include "flushcheck/repro.hpp"

#include "flushcheck/escape.hpp"

namespace flushcheck {

std::string repro_command(const run_options& o) {
  std::string cmd = "env -i";
  for (const auto& kv : o.env) cmd += " " + kv;
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
  if (o.trace && !o.kill.needs_tracer() && o.faults.empty() && !o.timeline) cmd += " --trace";
  cmd += " --";
  for (const auto& a : o.argv) cmd += " " + shell_quote(a);
  return cmd;
}

}  // namespace flushcheck
