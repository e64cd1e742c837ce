// stdout by destination, stderr, setvbuf, line buffering, input flushes.
#include "detail/checks.hpp"

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
  return record(std::to_string(a) + "/" + std::to_string(b),
                a == 0 ? "the first line waits like any other (mode fixed before the first write)"
                       : "the first line went out at once, later ones wait: the stream decided "
                         "it was not a terminal only at its first write");
}

verdict stdout_holds_partial_line(property_context& ctx) {
  auto obs = ctx.run("write 3; marker partial; newline; marker line");
  return both(visible_is(obs, 1, stream::out, 0, "a partial line stays in the buffer"),
              visible_is(obs, 2, stream::out, 4, "the newline delivers the line"));
}

verdict stdout_buffer_size(property_context& ctx) {
  // 64 steps of 256 one-byte puts, a marker after each: the first marker
  // that sees output sees exactly one full buffer.
  std::string script;
  for (int i = 0; i < 64; ++i) script += "putc 256; marker m" + std::to_string(i) + ";";
  auto obs = ctx.run(script);
  std::size_t size = 0;
  for (const auto& m : obs.markers)
    if (m.stdout_visible > 0) {
      size = m.stdout_visible;
      break;
    }
  std::size_t blk = sink_blksize(ctx.sink());
  std::size_t want = blk > 0 && blk < 8192 ? blk : 8192;
  verdict v;
  v.pass = size == want;
  v.observed = "buffer " + std::to_string(size) + " bytes (st_blksize " + std::to_string(blk) + ")";
  v.explanation = "glibc sizes a stream's buffer as st_blksize capped at BUFSIZ (8192): expected " +
                  std::to_string(want) + ", first flush carried " + std::to_string(size);
  return v;
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
  // One write far larger than any default buffer.
  auto obs = ctx.run("write 100000; marker a");
  if (obs.markers.empty()) return visible_is(obs, 1, stream::out, 0, "large write");
  std::size_t got = obs.markers[0].stdout_visible;
  verdict v;
  v.pass = got >= 100000 - 8192;
  v.observed = std::to_string(got) + " of 100000 visible";
  v.explanation =
      "a write larger than the buffer goes out at once, but for at most one buffer "
      "(<= BUFSIZ): expected >= 91808 visible, saw " +
      std::to_string(got);
  return v;
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

}  // namespace

void add_stdio_properties(std::vector<property>& out) {
  auto add = [&](std::string name, std::string group, tier t, std::string source, std::string claim,
                 std::vector<lang> langs, std::vector<sink_kind> sinks,
                 std::function<bool(const impl_profile&)> applies,
                 std::function<verdict(property_context&)> check) {
    out.push_back({std::move(name), std::move(group), t, std::move(source), std::move(claim),
                   std::move(langs), std::move(sinks), std::move(applies), std::move(check)});
  };
  const auto any = [](const impl_profile&) { return true; };
  add("stdout.tty_line_delivered", "stdout by destination", tier::required,
      "ISO C 7.21.3p7 (not fully buffered on an interactive device), 7.21.3p3",
      "on a pty, complete lines written to stdout reach the terminal at once", both_langs,
      tty_sinks, any, stdout_tty_line_delivered);
  add("stdout.mode_by_destination", "stdout by destination", tier::documented,
      "ISO C 7.21.3p7, 7.21.3p3 (\"intended\"); glibc libio/filedoalloc.c",
      "stdout is fully buffered iff it is not an interactive device: lines appear at once on a "
      "pty, nothing appears on a pipe or file before a flush point",
      both_langs, all_sinks, is_glibc, stdout_mode_by_destination);
  add("stdout.first_line_early", "stdout by destination", tier::observed,
      "ISO C 7.21.3p7; musl src/stdio/__stdout_write.c",
      "bytes at the reader after the first line / after the second, on a pipe or file", both_langs,
      buffered_sinks, any, stdout_first_line);
  add("stdout.tty_holds_partial_line", "stdout by destination", tier::documented,
      "glibc libio/fileops.c (_IO_LINE_BUF); musl src/stdio/__stdout_write.c (lbf on a tty)",
      "on a pty a partial line waits in the buffer until its newline", both_langs, tty_sinks,
      is_glibc_or_musl, stdout_holds_partial_line);
  add("stdout.buffer_size", "stdout by destination", tier::documented,
      "glibc libio/filedoalloc.c (_IO_file_doallocate)",
      "the default buffer is st_blksize of the destination, capped at BUFSIZ (8192)", both_langs,
      all_sinks, is_glibc, stdout_buffer_size);
  add("stderr.not_fully_buffered", "stderr", tier::required, "ISO C 7.21.3p7",
      "stderr is never fully buffered: a line on stderr is delivered at once", both_langs,
      all_sinks, any, stderr_not_fully_buffered);
  add("stderr.unbuffered", "stderr", tier::documented,
      "glibc libio/stdfiles.c (_IO_UNBUFFERED); musl src/stdio/stderr.c (buf_size 0)",
      "stderr is unbuffered: every byte is delivered by the call that writes it", c_only, all_sinks,
      is_glibc_or_musl, stderr_unbuffered);
  add("setvbuf.none", "setvbuf", tier::required, "ISO C 7.21.3p3, 7.21.5.6",
      "_IONBF: characters appear as soon as possible (every call)", c_only, all_sinks, any,
      setvbuf_none);
  add("setvbuf.line", "setvbuf", tier::required, "ISO C 7.21.3p3, 7.21.5.6",
      "_IOLBF: characters are transmitted when a newline is written", c_only, all_sinks, any,
      setvbuf_line);
  add("setvbuf.full_size", "setvbuf", tier::documented,
      "ISO C 7.21.3p3 (\"intended\"), 7.21.5.6; glibc libio/iosetvbuf.c",
      "_IOFBF with a size: nothing is sent while the buffer has room, and no more than the size "
      "is held back",
      c_only, all_sinks, is_glibc, setvbuf_full_size);
  add("stdout.large_write", "setvbuf", tier::documented,
      "glibc libio/fileops.c (_IO_new_file_xsputn)",
      "a write larger than the buffer is delivered by the call, except at most one buffer's "
      "worth",
      both_langs, buffered_sinks, is_glibc_or_musl, large_write);
  add("fflush.delivers", "flush", tier::required, "ISO C 7.21.5.2; C++ [ostream.unformatted] flush",
      "fflush(stdout) / cout.flush() hands every buffered byte to the system", both_langs,
      all_sinks, any, fflush_delivers);
  add("stdin.tty_read_flushes_stdout", "flush", tier::documented,
      "ISO C 7.21.3p3 (\"intended\"); glibc libio/fileops.c (_IO_new_file_underflow)",
      "a read from a terminal stdin (line buffered) flushes a line buffered stdout", c_only,
      all_sinks, is_glibc,
      [](property_context& ctx) { return input_flushes_line_buffered(ctx, stdin_kind::pty); });
  add("stdin.pipe_read_no_flush", "flush", tier::documented,
      "ISO C 7.21.3p3; glibc libio/fileops.c (_IO_new_file_underflow)",
      "a read from a pipe stdin (fully buffered) does not flush a line buffered stdout", c_only,
      all_sinks, is_glibc,
      [](property_context& ctx) { return input_flushes_line_buffered(ctx, stdin_kind::pipe); });
}

}  // namespace flushcheck::detail
