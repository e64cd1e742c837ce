// Each runtime's buffering switches (the language table's, languages.cpp),
// each doing what its documentation says, on a pipe and a file (and a pty
// where the switch makes a difference there). One table, one check.
#include "checks.hpp"
#include "languages.hpp"

namespace flushcheck::detail {
namespace {

/// Of "AAA\nBB", the bytes the docs promise at the marker.
verdict visible_at_marker(property_context& ctx, const buffer_switch& s) {
  run_options o;
  if (!s.env.empty()) {
    o.env = clean_environment();
    o.env.push_back(s.env);
  }
  auto obs = ctx.run(s.before + "line 3; write 2; marker m; exit 0", o, s.flags);
  verdict v = buffering_at_marker(obs, stream::out, s.visible,
                                  std::string(s.claim) + " (" + s.source + ")");
  if (!s.env.empty()) v.observed += " (" + s.env + " set)";
  return v;
}

/// Node's stdout on a pipe queues what the pipe cannot take, and process.exit
/// drops the queue; setBlocking(true) makes every write wait instead.
verdict large_write_survives_exit(property_context& ctx, const buffer_switch& s) {
  constexpr std::size_t n = 1 << 20;
  auto obs = ctx.run(s.before + "write " + std::to_string(n) + "; _exit 0");
  verdict v = data_is(obs, stream::out, payload(1, n),
                      "after process.stdout._handle.setBlocking(true), a 1 MiB write then "
                      "process.exit loses nothing");
  v.observed = std::to_string(obs.out.data.size()) + " of " + std::to_string(n) + " bytes";
  return v;
}

verdict switch_holds(property_context& ctx, const buffer_switch& s) {
  return s.promise == switch_promise::visible_at_marker ? visible_at_marker(ctx, s)
                                                        : large_write_survives_exit(ctx, s);
}

}  // namespace

void add_runtime_switch_properties(std::vector<property>& out) {
  for (const auto& f : language_table())
    for (const auto& s : f.switches)
      out.push_back({.name = s.name,
                     .group = "switches",
                     .level = tier::documented,
                     .source = s.source,
                     .claim = s.claim,
                     .langs = {f.language},
                     .sinks = s.sinks,
                     .check = [&s](property_context& ctx) { return switch_holds(ctx, s); }});
}

}  // namespace flushcheck::detail
