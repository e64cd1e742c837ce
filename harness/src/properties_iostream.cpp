// C++ iostreams: endl, flush, unitbuf, cerr, tie, sync_with_stdio.
#include "detail/checks.hpp"

namespace flushcheck::detail {
namespace {

verdict endl_flushes(property_context& ctx) {
  auto obs = ctx.run("write 3; endl; marker a");
  return visible_is(obs, 1, stream::out, 4, "std::endl is put('\\n') then flush()");
}

verdict newline_does_not_flush(property_context& ctx) {
  auto obs = ctx.run("write 3; newline; marker a");
  return visible_is(obs, 1, stream::out, 0, "'\\n' alone does not flush cout to a pipe or file");
}

verdict unitbuf_flushes(property_context& ctx) {
  auto obs = ctx.run("unitbuf on; write 3; marker a; putc 2; marker b");
  return both(visible_is(obs, 1, stream::out, 3, "unitbuf flushes after each output operation"),
              visible_is(obs, 2, stream::out, 5, "unitbuf flushes after each output operation"));
}

verdict cerr_unitbuf(property_context& ctx) {
  auto obs = run_stderr_on_sink(ctx, "write 3 err; marker a");
  return visible_is(obs, 1, stream::err, 3, "cerr has unitbuf set");
}

verdict clog_without_flush(property_context& ctx) {
  auto obs = run_stderr_on_sink(ctx, "write 3 log; marker a");
  if (obs.markers.empty()) return visible_is(obs, 1, stream::err, 0, "clog");
  std::size_t got = obs.markers[0].stderr_visible;
  return record(std::to_string(got) + " of 3",
                got == 3 ? "clog is not unitbuf, but with sync_with_stdio(true) it writes "
                           "through to the unbuffered stderr: its output appears at once"
                         : "clog holds its output until a flush");
}

verdict cerr_tied_to_cout(property_context& ctx) {
  auto obs = ctx.run("write 3 out; write 2 err; marker a");
  return visible_is(obs, 1, stream::out, 3, "cerr.tie() == &cout: output to cerr flushes cout");
}

verdict cin_tie(property_context& ctx, bool tied) {
  run_options o;
  o.input = stdin_kind::pipe;
  o.input_data = "x\n";
  auto obs = ctx.run(std::string(tied ? "" : "tie in off; ") + "write 3; read 1; marker a", o);
  return visible_is(obs, 1, stream::out, tied ? 3 : 0,
                    tied ? "cin.tie() == &cout: a read from cin flushes cout"
                         : "after cin.tie(nullptr) a read does not flush cout");
}

verdict sync_keeps_order(property_context& ctx) {
  auto obs = ctx.run("write 2; printf 2; write 2; printf 2; newline; return 0");
  return data_is(obs, stream::out, "AABBCCDD\n",
                 "with sync_with_stdio(true) cout and printf interleave in program order");
}

verdict unsync_exit_flushes(property_context& ctx) {
  auto obs = ctx.run("sync_with_stdio off; write 3; exit 0");
  return data_is(obs, stream::out, "BBB", "after sync_with_stdio(false) exit still flushes cout");
}

verdict unsync_order(property_context& ctx) {
  auto obs =
      ctx.run("sync_with_stdio off; write 2; printf 2; write 2; printf 2; newline; return 0");
  std::string in_order = "BBCCDDEE\n";
  return record(show(obs.out.data),
                obs.out.data == in_order
                    ? "cout and printf still came out in program order"
                    : "cout's own buffer and stdout's are flushed separately: printf output and "
                      "cout output are reordered");
}

}  // namespace

void add_iostream_properties(std::vector<property>& out) {
  auto add = [&](std::string name, std::string group, tier t, std::string source, std::string claim,
                 std::vector<sink_kind> sinks, std::function<bool(const impl_profile&)> applies,
                 std::function<verdict(property_context&)> check) {
    out.push_back({std::move(name), std::move(group), t, std::move(source), std::move(claim),
                   cxx_only, std::move(sinks), std::move(applies), std::move(check)});
  };
  add("iostream.endl_flushes", "iostreams", tier::required, "C++ [ostream.manip] endl",
      "std::endl writes '\\n' and flushes", all_sinks, {}, endl_flushes);
  add("iostream.newline_no_flush", "iostreams", tier::documented,
      "libstdc++ stdio_sync_filebuf over glibc's fully buffered stdout",
      "'\\n' without endl does not flush cout to a pipe or file", buffered_sinks,
      is_glibc_libstdcxx, newline_does_not_flush);
  add("iostream.unitbuf", "iostreams", tier::required,
      "C++ [ostream.sentry] (~sentry flushes if unitbuf), [fmtflags.manip]",
      "with unitbuf, every output operation flushes", buffered_sinks, {}, unitbuf_flushes);
  add("iostream.cerr_unitbuf", "iostreams", tier::required, "C++ [narrow.stream.objects] cerr",
      "cerr has unitbuf: its output is delivered at once", all_sinks, {}, cerr_unitbuf);
  add("iostream.clog_unflushed", "iostreams", tier::observed,
      "C++ [narrow.stream.objects] clog (no unitbuf required)",
      "bytes of clog at the reader before any flush", all_sinks, {}, clog_without_flush);
  add("tie.cerr_flushes_cout", "tie/sync", tier::required,
      "C++ [narrow.stream.objects] (cerr.tie() == &cout), [ostream.sentry]",
      "output to cerr flushes cout first", buffered_sinks, {}, cerr_tied_to_cout);
  add("tie.cin_flushes_cout", "tie/sync", tier::required,
      "C++ [narrow.stream.objects] (cin.tie() == &cout), [istream.sentry]",
      "a read from cin flushes cout first", buffered_sinks, {},
      [](property_context& ctx) { return cin_tie(ctx, true); });
  add("tie.untied_cin_no_flush", "tie/sync", tier::documented,
      "C++ [istream.sentry]; libstdc++ + glibc (no other flush on a fully buffered stdout)",
      "after cin.tie(nullptr) a read from cin leaves cout's buffer alone", buffered_sinks,
      is_glibc_libstdcxx, [](property_context& ctx) { return cin_tie(ctx, false); });
  add("sync.keeps_order", "tie/sync", tier::required,
      "C++ [ios.members.static] sync_with_stdio, [iostream.objects.overview]",
      "synchronized cout and printf output keep program order", all_sinks, {}, sync_keeps_order);
  add("sync.off_exit_flushes", "tie/sync", tier::required, "C++ [ios.init] (~Init flushes cout)",
      "with sync_with_stdio(false), normal exit still flushes cout", all_sinks, {},
      unsync_exit_flushes);
  add("sync.off_order", "tie/sync", tier::observed, "C++ [ios.members.static] (unspecified)",
      "the order of cout and printf output after sync_with_stdio(false)", all_sinks, {},
      unsync_order);
}

}  // namespace flushcheck::detail
