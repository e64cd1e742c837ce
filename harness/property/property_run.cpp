// A property case, run and checked (property_run.hpp).
#include "property_run.hpp"

#include <chrono>
#include <sstream>

#include <toml++/toml.h>

#include "error.hpp"

namespace flushcheck {

std::optional<std::size_t> workload_outcome::first_broken() const {
  for (std::size_t i = 0; i < checks.size(); ++i)
    if (!checks[i].pass()) return i;
  return std::nullopt;
}

std::string workload_outcome::broken() const {
  const auto i = first_broken();
  return i ? terms[*i] + ": " + checks[*i].expect.check : "";
}

namespace {

gate_run make_run(const property_spec& spec, const case_plan& plan,
                  const std::vector<promised_check>& checks) {
  std::vector<std::string> argv = spec.argv;
  argv.insert(argv.end(), plan.workload.begin(), plan.workload.end());
  gate_run g(argv);
  g.sinks(plan.sink, spec.stderr_sink);
  for (const auto& e : spec.env) g.env(e);
  for (const auto& w : spec.watch) g.watch(w);
  if (plan.fault) g.fault(*plan.fault);
  for (const auto& c : checks) g.expect(c.expect);
  g.cut(plan.cut).timeout(std::chrono::milliseconds(spec.timeout_ms));
  g.keep({keep_policy::kind::tail, 4096});  // stderr's last words, for a driver that refuses
  if (!spec.traced) g.untraced();
  return g;
}

/// Why a run says nothing about the promise, or "".
std::string run_error(const gate_result& r) {
  const wait_status& s = r.obs.status;
  if (s.type() == wait_status::kind::timeout) return "the driver ran past its timeout_ms";
  if (s.type() != wait_status::kind::exited || s.code() != 64) return "";
  std::string why = r.obs.err.data;
  while (!why.empty() && (why.back() == '\n' || why.back() == '\r')) why.pop_back();
  const auto nl = why.rfind('\n');
  return "the driver refused the workload (exit 64): " +
         (nl == std::string::npos ? why : why.substr(nl + 1));
}

/// Into OUT, the run R of CHECKS: how it ended, and each check's term and outcome.
void add_run(const gate_result& r, const std::vector<promised_check>& checks,
             workload_outcome& out) {
  out.status = r.obs.status.describe();
  out.repro = r.repro;
  out.error = run_error(r);
  for (std::size_t i = 0; i < checks.size(); ++i) {
    out.terms.push_back(checks[i].term);
    out.checks.push_back({checks[i].expect, r.checks[i]});
  }
}

}  // namespace

workload_outcome run_workload_case(const property_spec& spec, const workload_case& c,
                                   std::function<void(int)> on_spawn) {
  workload_outcome out;
  out.plan = plan_of(spec, c);
  const auto checks = promised_checks(spec, c, out.plan);
  gate_result r;
  try {
    r = make_run(spec, out.plan, checks).on_spawn(std::move(on_spawn)).run();
  } catch (const spawn_error& e) {
    out.error = std::string("cannot start ") + e.what();
    return out;
  }
  add_run(r, checks, out);
  return out;
}

}  // namespace flushcheck

namespace flushcheck {

namespace {

/// S as a TOML basic string, escaped as toml++ writes it.
std::string quoted(const std::string& s) {
  std::ostringstream os;
  os << toml::value<std::string>(s);
  return os.str();
}

std::string quoted_list(const std::vector<std::string>& v) {
  std::string out = "[";
  for (std::size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + quoted(v[i]);
  return out + "]";
}

/// The [[case.expect]] table of one check.
std::string expect_toml(const gate_expect& e) {
  std::string out = "[[case.expect]]\nin = " + quoted(e.in) + "\n" + e.check + " = ";
  if (e.check == "no_torn_record") return out + (e.text.empty() ? "true" : quoted(e.text)) + "\n";
  if (e.check == "max_writes_per_record") {
    std::ostringstream os;
    os << e.ratio;
    return out + os.str() + "\n";
  }
  return out + std::to_string(e.number) + "\n";
}

/// The case's first lines: "[[case]]", its NAME, the driver's command with
/// PLAN's workload, and its sinks.
std::string case_head(const property_spec& spec, const case_plan& plan, const std::string& name) {
  std::vector<std::string> command = spec.command;
  command.insert(command.end(), plan.workload.begin(), plan.workload.end());
  return "[[case]]\nname = " + quoted(name) + "\ncommand = " + quoted_list(command) +
         "\nstdout = " + quoted(plan.sink) + "\nstderr = " + quoted(spec.stderr_sink) + "\n";
}

/// "env = { "NAME" = "value", ... }" of ENV's "NAME=value"s.
std::string env_toml(const std::vector<std::string>& env) {
  std::string out = "env = {";
  for (std::size_t i = 0; i < env.size(); ++i) {
    const auto eq = env[i].find('=');
    out += (i ? ", " : " ") + quoted(env[i].substr(0, eq)) + " = " + quoted(env[i].substr(eq + 1));
  }
  return out + " }\n";
}

}  // namespace

std::string case_toml(const property_spec& spec, const workload_case& c, const gate_expect& check,
                      const std::string& name) {
  const case_plan plan = plan_of(spec, c);
  std::string out = case_head(spec, plan, name);
  if (!spec.watch.empty()) out += "watch = " + quoted_list(spec.watch) + "\n";
  if (!spec.env.empty()) out += env_toml(spec.env);
  if (plan.cut != "never") out += "cut = " + quoted(plan.cut) + "\n";
  if (plan.fault) out += "faults = [" + quoted(*plan.fault) + "]\n";
  out += "timeout_ms = " + std::to_string(spec.timeout_ms) + "\n";
  if (!spec.traced) out += "traced = false\n";
  return out + expect_toml(check);
}

}  // namespace flushcheck
