// Property framework: contexts, cases, tier-aware results.
#include "conformance.hpp"

#include "checks.hpp"
#include "repro.hpp"

namespace flushcheck {

const char* to_string(tier t) noexcept {
  switch (t) {
    case tier::required: return "required";
    case tier::documented: return "documented";
    case tier::observed: return "observed";
  }
  return "?";
}

observation property_context::run(const std::string& script, run_options o,
                                  const std::vector<std::string>& flags) {
  if (is_runtime(lang_))
    o.argv = targets_.runtime(lang_)->command(script, flags);
  else
    o.argv = {lang_ == lang::c ? targets_.stdio_script : targets_.iostream_script, script};
  o.stdout_sink = sink_;
  if (o.env.empty()) o.env = clean_environment();
  if (o.timeout == std::chrono::milliseconds(10000)) o.timeout = std::chrono::milliseconds(20000);
  last_ = repro_command(o);
  return flushcheck::run(o);
}

std::string property_case::id() const {
  return prop->name + "/" + to_string(language) + "/" + std::string(to_string(sink));
}

std::vector<property_case> cases(const target_set& targets) {
  std::vector<property_case> out;
  for (const auto& p : catalogue())
    for (lang l : p.langs) {
      if (!targets.has(l)) continue;
      for (sink_kind s : p.sinks) out.push_back({&p, l, s});
    }
  return out;
}

case_result run_case(const property_case& c, const target_set& targets) {
  property_context ctx(targets, c.language, c.sink);
  case_result r{c, {}, true};
  const runtime_target* rt = targets.runtime(c.language);
  if (rt && !rt->missing.empty())
    r.outcome.skipped = rt->missing;  // a runtime this machine lacks: say which package
  else
    r.outcome = c.prop->check(ctx);
  if (r.outcome.repro.empty()) r.outcome.repro = ctx.last_command();
  r.asserted = !r.outcome.skipped &&
               (c.prop->level == tier::required ||
                (c.prop->level == tier::documented && c.prop->applies(targets.profile)));
  return r;
}

const std::vector<property>& catalogue() {
  static const std::vector<property> all = [] {
    std::vector<property> v;
    detail::add_stdio_properties(v);
    detail::add_death_properties(v);
    detail::add_iostream_properties(v);
    detail::add_merged_and_error_properties(v);
    detail::add_fault_properties(v);
    detail::add_backpressure_properties(v);
    detail::add_pipe_properties(v);
    detail::add_concurrency_properties(v);
    detail::add_file_properties(v);
    detail::add_page_cache_properties(v);
    detail::add_runtime_properties(v);
    detail::add_runtime_switch_properties(v);
    return v;
  }();
  return all;
}

}  // namespace flushcheck
