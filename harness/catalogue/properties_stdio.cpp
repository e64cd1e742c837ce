// stdout by destination, stderr, setvbuf, line buffering, input flushes.
#include <cstdint>
#include <string>
#include <vector>

#include "checks.hpp"
#include "profile.hpp"
#include "sink.hpp"
#include "traced_call.hpp"

namespace flushcheck::detail {
namespace {

verdict stdout_mode_by_destination(property_context& ctx) {
  // Two complete lines and a partial one, then a cut: a fully buffered
  // stream with room delivers nothing; a line buffered one the two lines.
  auto obs = ctx.run("line 3; line 2; write 2; marker cut");
  std::size_t want = is_tty(ctx.sink()) ? 7 : 0;
  return visible_is(obs, 1, stream::out, want,
                    is_tty(ctx.sink()) ? "stdout to a terminal is not fully buffered"
                                       : "stdout to a pipe or file is fully buffered");
}

verdict stdout_tty_line_delivered(property_context& ctx) {
  auto obs = ctx.run("line 3; line 2; marker cut");
  return visible_is(obs, 1, stream::out, 7, "stdout to a terminal is not fully buffered");
}

verdict stdout_first_line(property_context& ctx) {
  auto obs = ctx.run("line 3; marker first; line 2; marker second");
  if (obs.markers.size() < 2) return visible_is(obs, 2, stream::out, 0, "first line");
  std::size_t a = obs.markers[0].stdout_visible, b = obs.markers[1].stdout_visible;
  verdict v =
      record("first line out at once: " + std::to_string(a) +
                 " of 4 bytes; after the second: " + std::to_string(b) + " of 7",
             a == 0 ? "the first line waits like any other (mode fixed before the first write)"
                    : "the first line went out at once, later ones wait: the stream decided "
                      "it was not a terminal only at its first write");
  v.figures = {{"visible_at_first", static_cast<std::int64_t>(a)},
               {"visible_at_second", static_cast<std::int64_t>(b)}};
  return v;
}

verdict stdout_holds_partial_line(property_context& ctx) {
  auto obs = ctx.run("write 3; marker partial; newline; marker line");
  return both(visible_is(obs, 1, stream::out, 0, "a partial line stays in the buffer"),
              visible_is(obs, 2, stream::out, 4, "the newline delivers the line"));
}

/// What the reader had at the first marker that saw any of stdout, 0 if none did.
std::size_t first_flush_size(const observation& obs) {
  for (const auto& m : obs.markers)
    if (m.stdout_visible > 0) return m.stdout_visible;
  return 0;
}

/// The verdict of stdout_buffer_size: the first flush carried SIZE bytes, and
/// the sink's st_blksize is BLK.
verdict buffer_size_is(std::size_t size, std::size_t blk) {
  std::size_t want = blk > 0 && blk < glibc_bufsiz ? blk : glibc_bufsiz;
  verdict v;
  v.pass = size == want;
  v.observed = "buffer " + std::to_string(size) + " bytes (st_blksize " + std::to_string(blk) + ")";
  v.explanation = "glibc sizes a stream's buffer as st_blksize capped at BUFSIZ (" +
                  std::to_string(glibc_bufsiz) + "): expected " + std::to_string(want) +
                  ", first flush carried " + std::to_string(size);
  v.figures = {{"buffer_bytes", static_cast<std::int64_t>(size)},
               {"st_blksize", static_cast<std::int64_t>(blk)}};
  return v;
}

verdict stdout_buffer_size(property_context& ctx) {
  // 64 steps of 256 one-byte puts, a marker after each: the first marker
  // that sees output sees exactly one full buffer.
  std::string script;
  for (int i = 0; i < 64; ++i) script += "putc 256; marker m" + std::to_string(i) + ";";
  auto obs = ctx.run(script);
  const std::size_t size = first_flush_size(obs);
  return buffer_size_is(size, st_blksize_of(ctx.sink()));
}

verdict stderr_not_fully_buffered(property_context& ctx) {
  auto obs = run_stderr_on_sink(ctx, "line 3 err; line 100 out; marker cut");
  return visible_is(obs, 1, stream::err, 4, "stderr is not fully buffered");
}

verdict stderr_unbuffered(property_context& ctx) {
  auto obs = run_stderr_on_sink(ctx, "write 3 err; marker a; putc 5 err; marker b");
  return both(visible_is(obs, 1, stream::err, 3, "stderr is unbuffered"),
              visible_is(obs, 2, stream::err, 8, "stderr is unbuffered"));
}

verdict setvbuf_none(property_context& ctx) {
  auto obs = ctx.run("setvbuf none; write 3; marker a; putc 2; marker b");
  return both(visible_is(obs, 1, stream::out, 3, "_IONBF delivers each write"),
              visible_is(obs, 2, stream::out, 5, "_IONBF delivers each putc"));
}

verdict setvbuf_line(property_context& ctx) {
  auto obs = ctx.run("setvbuf line; line 3; write 2; marker a; newline; marker b");
  return both(visible_is(obs, 1, stream::out, 4, "_IOLBF delivers at each newline"),
              visible_is(obs, 2, stream::out, 7, "_IOLBF delivers at each newline"));
}

verdict setvbuf_full_size(property_context& ctx) {
  // A 64-byte buffer: 60 bytes fit and stay; after 100 more, at most 64 wait.
  auto obs = ctx.run("setvbuf full 64; putc 60; marker a; putc 100; marker b");
  auto first = visible_is(obs, 1, stream::out, 0, "a full buffer with room delivers nothing");
  if (!first.pass || obs.markers.size() < 2) return first;
  std::size_t got = obs.markers[1].stdout_visible;
  verdict v;
  v.pass = got >= 160 - 64 && got <= 160;
  v.observed = "after 160 bytes into a 64-byte buffer: " + std::to_string(got) + " visible";
  v.explanation =
      "_IOFBF with size 64 holds back at most 64 bytes: expected 96..160 visible, saw " +
      std::to_string(got);
  return v;
}

verdict large_write(property_context& ctx) {
  constexpr std::size_t large = 100000;  // one write far larger than any default buffer
  auto obs = ctx.run("write " + std::to_string(large) + "; marker a");
  if (obs.markers.empty()) return visible_is(obs, 1, stream::out, 0, "large write");
  std::size_t got = obs.markers[0].stdout_visible;
  verdict v;
  v.pass = got >= large - glibc_bufsiz;
  v.observed = std::to_string(got) + " of " + std::to_string(large) + " visible";
  v.explanation =
      "a write larger than the buffer goes out at once, but for at most one buffer "
      "(<= BUFSIZ): expected >= " +
      std::to_string(large - glibc_bufsiz) + " visible, saw " + std::to_string(got);
  return v;
}

/// SIZES in words, runs of one size folded: "19 x 1024, 544".
std::string size_runs(const std::vector<std::int64_t>& sizes) {
  std::string out;
  for (std::size_t i = 0, j = 0; i < sizes.size(); i = j) {
    while (j < sizes.size() && sizes[j] == sizes[i]) ++j;
    out += (out.empty() ? "" : ", ") + (j - i > 1 ? std::to_string(j - i) + " x " : "") +
           std::to_string(sizes[i]);
  }
  return out;
}

/// The verdict of a run that has no trace: skipped, saying so.
verdict no_trace() {
  verdict none;
  none.skipped = none.observed = "the run has no trace";
  return none;
}

/// The size of each write-family call on stdout's sink, in order.
std::vector<std::int64_t> stdout_write_sizes(const trace_summary& trace) {
  std::vector<std::int64_t> sizes;
  for (const auto& e : trace.events)
    if (trace.on_stdout(e) && is_write_family(e.call)) sizes.push_back(e.bytes);
  return sizes;
}

/// The verdict of large_printf_write_calls from its run OBS, which has a trace.
verdict printf_write_calls(const observation& obs) {
  const std::vector<std::int64_t> sizes = stdout_write_sizes(*obs.trace);
  const std::int64_t calls = obs.trace->stdout_write_calls();
  verdict v =
      record(std::to_string(calls) + (calls == 1 ? " write: " : " writes: ") + size_runs(sizes),
             "how printf hands a string larger than the buffer to the kernel: glibc "
             "2.37 and later stage printf's output in a buffer of its own");
  v.figures = {{"write_calls", calls}, {"bytes", static_cast<std::int64_t>(obs.out.bytes)}};
  if (obs.trace->events_dropped > 0) v.observed += " (event log capped)";
  return v;
}

/// The size of each write(2) a printf of 20,000 bytes makes on stdout's sink,
/// its buffered rest flushed at exit: "5 writes: 4 x 4096, 3616".
verdict large_printf_write_calls(property_context& ctx) {
  run_options o;
  o.trace = true;
  auto obs = ctx.run("printf 20000; exit 0", o);
  if (!obs.trace)
    return no_trace();  // a traced run always has one; never index a marker that is not there
  return printf_write_calls(obs);
}

verdict fflush_delivers(property_context& ctx) {
  auto obs = ctx.run("write 3; line 2; write 1; flush; marker a");
  return visible_is(obs, 1, stream::out, 7, "fflush / flush() delivers everything buffered");
}

// ISO C 7.21.3p3 ties the flush to the *input* stream: a read on an
// unbuffered or line buffered stream (stdin on a terminal) flushes line
// buffered output; glibc does it for stdout only. stdin on a pipe is fully
// buffered, and then nothing is flushed.
verdict input_flushes_line_buffered(property_context& ctx, stdin_kind in) {
  run_options o;
  o.input = in;
  o.input_data = "x\n";
  auto obs = ctx.run("setvbuf line; write 3; read 1; marker a", o);
  bool tty_in = in == stdin_kind::pty;
  return visible_is(obs, 1, stream::out, tty_in ? 3 : 0,
                    tty_in ? "a read from a terminal stdin flushes the line buffered stdout"
                           : "a read from a pipe stdin (fully buffered) flushes nothing");
}

const property k_stdout_by_destination[] = {
    {.name = "stdout.tty_line_delivered",
     .group = "stdout by destination",
     .level = tier::required,
     .source = "ISO C 7.21.3p7 (not fully buffered on an interactive device), 7.21.3p3",
     .claim = "on a pty, complete lines written to stdout reach the terminal at once",
     .langs = both_langs,
     .sinks = tty_sinks,
     .check = stdout_tty_line_delivered},
    {.name = "stdout.mode_by_destination",
     .group = "stdout by destination",
     .level = tier::documented,
     .source = "ISO C 7.21.3p7, 7.21.3p3 (\"intended\"); glibc libio/filedoalloc.c",
     .claim = "stdout is fully buffered iff it is not an interactive device: lines "
              "appear at once on a pty, nothing appears on a pipe or file before a "
              "flush point",
     .langs = both_langs,
     .sinks = all_sinks,
     .applies = is_glibc,
     .check = stdout_mode_by_destination},
    {.name = "stdout.first_line_early",
     .group = "stdout by destination",
     .level = tier::observed,
     .source = "ISO C 7.21.3p7; musl src/stdio/__stdout_write.c",
     .claim = "bytes at the reader after the first line / after the second, on a pipe "
              "or file",
     .langs = both_langs,
     .sinks = buffered_sinks,
     .check = stdout_first_line},
    {.name = "stdout.tty_holds_partial_line",
     .group = "stdout by destination",
     .level = tier::documented,
     .source = "glibc libio/fileops.c (_IO_LINE_BUF); musl src/stdio/__stdout_write.c "
               "(lbf on a tty)",
     .claim = "on a pty a partial line waits in the buffer until its newline",
     .langs = both_langs,
     .sinks = tty_sinks,
     .applies = is_glibc_or_musl,
     .check = stdout_holds_partial_line},
    {.name = "stdout.buffer_size",
     .group = "stdout by destination",
     .level = tier::documented,
     .source = "glibc libio/filedoalloc.c (_IO_file_doallocate)",
     .claim = "the default buffer is st_blksize of the destination, capped at BUFSIZ "
              "(8192)",
     .langs = both_langs,
     .sinks = all_sinks,
     .applies = is_glibc,
     .check = stdout_buffer_size},
};

const property k_stderr[] = {
    {.name = "stderr.not_fully_buffered",
     .group = "stderr",
     .level = tier::required,
     .source = "ISO C 7.21.3p7",
     .claim = "stderr is never fully buffered: a line on stderr is delivered at once",
     .langs = both_langs,
     .sinks = all_sinks,
     .check = stderr_not_fully_buffered},
    {.name = "stderr.unbuffered",
     .group = "stderr",
     .level = tier::documented,
     .source = "glibc libio/stdfiles.c (_IO_UNBUFFERED); musl src/stdio/stderr.c "
               "(buf_size 0)",
     .claim = "stderr is unbuffered: every byte is delivered by the call that "
              "writes it",
     .langs = c_only,
     .sinks = all_sinks,
     .applies = is_glibc_or_musl,
     .check = stderr_unbuffered},
};

const property k_setvbuf[] = {
    {.name = "setvbuf.none",
     .group = "setvbuf",
     .level = tier::required,
     .source = "ISO C 7.21.3p3, 7.21.5.6",
     .claim = "_IONBF: characters appear as soon as possible (every call)",
     .langs = c_only,
     .sinks = all_sinks,
     .check = setvbuf_none},
    {.name = "setvbuf.line",
     .group = "setvbuf",
     .level = tier::required,
     .source = "ISO C 7.21.3p3, 7.21.5.6",
     .claim = "_IOLBF: characters are transmitted when a newline is written",
     .langs = c_only,
     .sinks = all_sinks,
     .check = setvbuf_line},
    {.name = "setvbuf.full_size",
     .group = "setvbuf",
     .level = tier::documented,
     .source = "ISO C 7.21.3p3 (\"intended\"), 7.21.5.6; glibc libio/iosetvbuf.c",
     .claim = "_IOFBF with a size: nothing is sent while the buffer has room, and no "
              "more than the size is held back",
     .langs = c_only,
     .sinks = all_sinks,
     .applies = is_glibc,
     .check = setvbuf_full_size},
    {.name = "stdout.large_write",
     .group = "setvbuf",
     .level = tier::documented,
     .source = "glibc libio/fileops.c (_IO_new_file_xsputn)",
     .claim = "a write larger than the buffer is delivered by the call, except at most "
              "one buffer's worth",
     .langs = both_langs,
     .sinks = buffered_sinks,
     .applies = is_glibc_or_musl,
     .check = large_write},
    {.name = "stdout.large_printf_write_calls",
     .group = "setvbuf",
     .level = tier::observed,
     .source = "glibc stdio-common/printf_buffer_to_file.c (2.37 on), "
               "libio/fileops.c (_IO_new_file_xsputn); musl src/stdio/vfprintf.c",
     .claim = "the write(2) calls, and their sizes, of one printf larger than the "
              "buffer",
     .langs = c_only,
     .sinks = all_sinks,
     .check = large_printf_write_calls},
};

const property k_flush[] = {
    {.name = "fflush.delivers",
     .group = "flush",
     .level = tier::required,
     .source = "ISO C 7.21.5.2; C++ [ostream.unformatted] flush",
     .claim = "fflush(stdout) / cout.flush() hands every buffered byte to the system",
     .langs = both_langs,
     .sinks = all_sinks,
     .check = fflush_delivers},
    {.name = "stdin.tty_read_flushes_stdout",
     .group = "flush",
     .level = tier::documented,
     .source = "ISO C 7.21.3p3 (\"intended\"); glibc libio/fileops.c "
               "(_IO_new_file_underflow)",
     .claim = "a read from a terminal stdin (line buffered) flushes a line buffered "
              "stdout",
     .langs = c_only,
     .sinks = all_sinks,
     .applies = is_glibc,
     .check =
         [](property_context& ctx) { return input_flushes_line_buffered(ctx, stdin_kind::pty); }},
    {.name = "stdin.pipe_read_no_flush",
     .group = "flush",
     .level = tier::documented,
     .source = "ISO C 7.21.3p3; glibc libio/fileops.c (_IO_new_file_underflow)",
     .claim = "a read from a pipe stdin (fully buffered) does not flush a line "
              "buffered stdout",
     .langs = c_only,
     .sinks = all_sinks,
     .applies = is_glibc,
     .check =
         [](property_context& ctx) { return input_flushes_line_buffered(ctx, stdin_kind::pipe); }},
};

}  // namespace

void add_stdio_properties(std::vector<property>& out) {
  append(out, k_stdout_by_destination);
  append(out, k_stderr);
  append(out, k_setvbuf);
  append(out, k_flush);
}

}  // namespace flushcheck::detail
