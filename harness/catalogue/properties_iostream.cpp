// C++ iostreams: endl, flush, unitbuf, cerr, tie, sync_with_stdio.
#include "checks.hpp"

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
  return record("clog's output before a flush: " + std::to_string(got) + " of 3 bytes",
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
  bool in_order = obs.out.data == "BBCCDDEE\n";
  verdict v = record(show(obs.out.data),
                     in_order ? "cout and printf still came out in program order"
                              : "cout's own buffer and stdout's are flushed separately: printf "
                                "output and cout output are reordered");
  v.figures = {{"in_program_order", in_order ? 1 : 0}};
  return v;
}

const property k_stream_flags[] = {
    {.name = "iostream.endl_flushes",
     .group = "iostreams",
     .level = tier::required,
     .source = "C++ [ostream.manip] endl",
     .claim = "std::endl writes '\\n' and flushes",
     .langs = cxx_only,
     .sinks = all_sinks,
     .check = endl_flushes},
    {.name = "iostream.newline_no_flush",
     .group = "iostreams",
     .level = tier::documented,
     .source = "libstdc++ stdio_sync_filebuf over glibc's fully buffered stdout",
     .claim = "'\\n' without endl does not flush cout to a pipe or file",
     .langs = cxx_only,
     .sinks = buffered_sinks,
     .applies = is_glibc_libstdcxx,
     .check = newline_does_not_flush},
    {.name = "iostream.unitbuf",
     .group = "iostreams",
     .level = tier::required,
     .source = "C++ [ostream.sentry] (~sentry flushes if unitbuf), [fmtflags.manip]",
     .claim = "with unitbuf, every output operation flushes",
     .langs = cxx_only,
     .sinks = buffered_sinks,
     .check = unitbuf_flushes},
    {.name = "iostream.cerr_unitbuf",
     .group = "iostreams",
     .level = tier::required,
     .source = "C++ [narrow.stream.objects] cerr",
     .claim = "cerr has unitbuf: its output is delivered at once",
     .langs = cxx_only,
     .sinks = all_sinks,
     .check = cerr_unitbuf},
    {.name = "iostream.clog_unflushed",
     .group = "iostreams",
     .level = tier::observed,
     .source = "C++ [narrow.stream.objects] clog (no unitbuf required)",
     .claim = "bytes of clog at the reader before any flush",
     .langs = cxx_only,
     .sinks = all_sinks,
     .check = clog_without_flush},
};

const property k_ties[] = {
    {.name = "tie.cerr_flushes_cout",
     .group = "tie/sync",
     .level = tier::required,
     .source = "C++ [narrow.stream.objects] (cerr.tie() == &cout), [ostream.sentry]",
     .claim = "output to cerr flushes cout first",
     .langs = cxx_only,
     .sinks = buffered_sinks,
     .check = cerr_tied_to_cout},
    {.name = "tie.cin_flushes_cout",
     .group = "tie/sync",
     .level = tier::required,
     .source = "C++ [narrow.stream.objects] (cin.tie() == &cout), [istream.sentry]",
     .claim = "a read from cin flushes cout first",
     .langs = cxx_only,
     .sinks = buffered_sinks,
     .check = [](property_context& ctx) { return cin_tie(ctx, true); }},
    {.name = "tie.untied_cin_no_flush",
     .group = "tie/sync",
     .level = tier::documented,
     .source = "C++ [istream.sentry]; libstdc++ + glibc (no other flush on a fully "
               "buffered stdout)",
     .claim = "after cin.tie(nullptr) a read from cin leaves cout's buffer alone",
     .langs = cxx_only,
     .sinks = buffered_sinks,
     .applies = is_glibc_libstdcxx,
     .check = [](property_context& ctx) { return cin_tie(ctx, false); }},
};

const property k_sync[] = {
    {.name = "sync.keeps_order",
     .group = "tie/sync",
     .level = tier::required,
     .source = "C++ [ios.members.static] sync_with_stdio, [iostream.objects.overview]",
     .claim = "synchronized cout and printf output keep program order",
     .langs = cxx_only,
     .sinks = all_sinks,
     .check = sync_keeps_order},
    {.name = "sync.off_exit_flushes",
     .group = "tie/sync",
     .level = tier::required,
     .source = "C++ [ios.init] (~Init flushes cout)",
     .claim = "with sync_with_stdio(false), normal exit still flushes cout",
     .langs = cxx_only,
     .sinks = all_sinks,
     .check = unsync_exit_flushes},
    {.name = "sync.off_order",
     .group = "tie/sync",
     .level = tier::observed,
     .source = "C++ [ios.members.static] (unspecified)",
     .claim = "the order of cout and printf output after sync_with_stdio(false)",
     .langs = cxx_only,
     .sinks = all_sinks,
     .check = unsync_order},
};

}  // namespace

void add_iostream_properties(std::vector<property>& out) {
  append(out, k_stream_flags);
  append(out, k_ties);
  append(out, k_sync);
}

}  // namespace flushcheck::detail
