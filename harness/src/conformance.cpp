// Property framework: contexts, cases, tier-aware results, host profile.
#include "flushcheck/conformance.hpp"
#include "flushcheck/report.hpp"

#include <unistd.h>

#include <iostream>

#include "flushcheck/signals.hpp"

namespace flushcheck {

const char* to_string(tier t) noexcept {
  switch (t) {
    case tier::required: return "required";
    case tier::documented: return "documented";
    case tier::observed: return "observed";
  }
  return "?";
}

namespace {

// "libc=glibc 2.36" -> {"glibc", "glibc 2.36"}
std::pair<std::string, std::string> field(const std::string& out, const std::string& key) {
  auto at = out.find(key + "=");
  if (at == std::string::npos) return {"unknown", ""};
  auto end = out.find('\n', at);
  std::string value = out.substr(at + key.size() + 1, end - at - key.size() - 1);
  return {value.substr(0, value.find(' ')), value};
}

std::string version_output(const std::string& target) {
  run_options o;
  o.argv = {target, "--version"};
  o.env = clean_environment();
  return run(o).out.data;
}

}  // namespace

target_set probe_target_set(std::string name, std::string stdio_script,
                            std::string iostream_script) {
  target_set set{std::move(name), std::move(stdio_script), std::move(iostream_script), {}};
  auto [libc, libc_version] = field(version_output(set.stdio_script), "libc");
  set.profile.libc = libc;
  set.profile.version = libc_version;
  set.profile.cxxlib = "none";
  if (!set.iostream_script.empty()) {
    auto [cxx, cxx_version] = field(version_output(set.iostream_script), "cxxlib");
    set.profile.cxxlib = cxx;
    set.profile.version += ", " + cxx_version;
  }
  return set;
}

std::optional<target_set> probe_target_dir(std::string name, const std::string& dir) {
  std::string c = dir + "/stdio_script", cxx = dir + "/iostream_script";
  if (::access(c.c_str(), X_OK) != 0) return std::nullopt;
  if (::access(cxx.c_str(), X_OK) != 0) cxx.clear();
  return probe_target_set(std::move(name), c, cxx);
}

std::vector<std::string> clean_environment() {
  return {"PATH=/usr/local/bin:/usr/bin:/bin", "LANG=C"};
}

observation property_context::run(const std::string& script, run_options o) {
  o.argv = {lang_ == lang::c ? targets_.stdio_script : targets_.iostream_script, script};
  o.stdout_sink = sink_;
  if (o.env.empty()) o.env = clean_environment();
  if (o.timeout == std::chrono::milliseconds(10000)) o.timeout = std::chrono::milliseconds(20000);
  last_ = repro_command(o);
  return flushcheck::run(o);
}

std::string property_case::id() const {
  return prop->name + "/" + (language == lang::c ? "c" : "cxx") + "/" +
         std::string(to_string(sink));
}

std::vector<property_case> cases(const target_set& targets) {
  std::vector<property_case> out;
  for (const auto& p : catalogue())
    for (lang l : p.langs) {
      if (l == lang::cxx && targets.iostream_script.empty()) continue;
      for (sink_kind s : p.sinks) out.push_back({&p, l, s});
    }
  return out;
}

case_result run_case(const property_case& c, const target_set& targets) {
  property_context ctx(targets, c.language, c.sink);
  case_result r{c, {}, true};
  r.v = c.prop->check(ctx);
  if (r.v.repro.empty()) r.v.repro = ctx.last_command();
  r.asserted = c.prop->level == tier::required ||
               (c.prop->level == tier::documented && c.prop->applies(targets.profile));
  return r;
}

}  // namespace flushcheck

#include "detail/checks.hpp"

namespace flushcheck {

const std::vector<property>& catalogue() {
  static const std::vector<property> all = [] {
    std::vector<property> v;
    detail::add_stdio_properties(v);
    detail::add_death_properties(v);
    detail::add_iostream_properties(v);
    detail::add_merged_and_error_properties(v);
    return v;
  }();
  return all;
}

}  // namespace flushcheck
