// Writes that fail or come up short (--fault, injected by the tracer): what
// the C library and the iostreams do with the bytes and whether they say so.
#include <cerrno>
#include <cstdint>

#include "checks.hpp"

namespace flushcheck::detail {
namespace {

const int k_errnos[] = {EAGAIN, EINTR, ENOSPC, EIO};

observation run_faulted(property_context& ctx, const std::string& script,
                        const std::string& fault) {
  run_options o;
  o.faults.push_back(fault_plan::parse(fault));
  return ctx.run(script, o);
}

/// "fflush: " in C, "ostream::flush: " in C++: how the targets report a failed flush.
std::string flush_call(const property_context& ctx) {
  return ctx.language() == lang::c ? "fflush: " : "ostream::flush: ";
}

/// The run's one fault hit a call, and the program went on to its "exit 0":
/// what the check reads is the library's doing, not a crash's.
bool fault_hit_and_exited(const observation& obs) {
  return obs.trace && !obs.trace->faults.empty() && obs.trace->faults[0].applied() &&
         obs.status == wait_status::exited(0);
}

/// Keeps the first failure of several runs, with the repro of its run.
void note_failure(verdict& v, bool ok, const property_context& ctx, const std::string& why) {
  if (ok || !v.pass) return;
  v.pass = false;
  v.explanation = why;
  v.repro = ctx.last_command();
}

/// One errno E of flush_reports_error, added to V: the flush's write fails
/// with E, and the target must report it.
void check_flush_reports(property_context& ctx, int e, verdict& v) {
  auto obs = run_faulted(ctx, "write 3; flush; exit 0", errno_name(e) + "@write:1");
  // C: fflush's errno (the targets print its number); C++ says no errno.
  std::string errno_part = " (errno " + std::to_string(e) + ")";
  bool told = fault_hit_and_exited(obs) &&
              obs.err.data.find(flush_call(ctx)) != std::string::npos &&
              (ctx.language() == lang::cxx || obs.err.data.find(errno_part) != std::string::npos);
  std::string said = flush_call(ctx) + (ctx.language() == lang::c ? "..." + errno_part : "");
  v.observed +=
      (v.observed.empty() ? "" : ", ") + errno_name(e) + (told ? ": reported" : ": silent");
  note_failure(v, told, ctx,
               "with " + errno_name(e) + " at the flush's write, expected '" + said +
                   "' on stderr, got " + show(obs.err.data));
}

verdict flush_reports_error(property_context& ctx) {
  verdict v;
  v.pass = true;
  v.explanation = "each failed write at a flush point makes the flush fail, and says why";
  for (int e : k_errnos) check_flush_reports(ctx, e, v);
  return v;
}

/// One errno E of failed_bytes_dropped, added to V: the first flush's write
/// fails with E, and the second flush must send nothing.
void check_bytes_dropped(property_context& ctx, int e, verdict& v) {
  auto obs = run_faulted(ctx, "write 3; flush; flush; exit 0", errno_name(e) + "@write:1");
  bool dropped = fault_hit_and_exited(obs) && obs.out.bytes == 0;
  v.observed +=
      (v.observed.empty() ? "" : ", ") + errno_name(e) + (dropped ? ": dropped" : ": kept");
  v.figures[errno_name(e) + "_bytes_later"] = static_cast<std::int64_t>(obs.out.bytes);
  note_failure(v, dropped, ctx,
               "after " + errno_name(e) + " the second flush sent " + show(obs.out.data) +
                   ": the buffer was kept for a retry");
}

verdict failed_bytes_dropped(property_context& ctx) {
  verdict v;
  v.pass = true;
  v.explanation =
      "a failed write empties the buffer: the bytes it carried are gone, a second flush sends "
      "nothing";
  for (int e : {EAGAIN, EINTR, ENOSPC}) check_bytes_dropped(ctx, e, v);
  return v;
}

verdict short_write_completed(property_context& ctx) {
  auto obs = run_faulted(ctx, "write 30; flush; exit 0", "short:1@write:1");
  std::int64_t calls = obs.trace ? obs.trace->stdout_write_calls() : -1;
  verdict v;
  v.pass = fault_hit_and_exited(obs) && obs.out.data == payload(0, 30) && calls == 2;
  v.observed =
      std::to_string(obs.out.bytes) + " of 30 bytes in " + std::to_string(calls) + " calls";
  v.explanation =
      "a write that takes 1 of 30 bytes is followed by one for the other 29: saw " + v.observed;
  v.figures = {{"bytes", static_cast<std::int64_t>(obs.out.bytes)}, {"write_calls", calls}};
  return v;
}

verdict output_after_failed_flush(property_context& ctx) {
  auto obs = run_faulted(ctx, "write 3; flush; line 2; flush; exit 0", "EAGAIN@write:1");
  return record(
      obs.out.bytes == 3 ? "later output goes out" : "later output: " + show(obs.out.data),
      "the error indicator stays set (ISO C 7.21.10.3) but does not stop later "
      "writes: after a failed flush, " +
          show(obs.out.data) + " reached the reader");
}

verdict cout_bad_after_failed_flush(property_context& ctx) {
  auto obs = run_faulted(ctx, "clear off; write 3; flush; line 2; flush; exit 0", "EAGAIN@write:1");
  bool bad = obs.err.data.find("ostream::flush") != std::string::npos;
  verdict v;
  v.pass = fault_hit_and_exited(obs) && bad && obs.out.bytes == 0;
  v.observed = std::string(bad ? "badbit" : "no error") + ", " + std::to_string(obs.out.bytes) +
               " bytes later";
  v.explanation =
      "flush() sets badbit when pubsync() fails, and a stream that is not good() refuses later "
      "output (its sentry is false): expected a reported flush failure and nothing at the "
      "reader, saw " +
      v.observed + ", stdout " + show(obs.out.data);
  return v;
}

/// One run of failed_line_flush_reported.
struct line_flush_run {
  const char* what;    ///< the output whose line flush fails
  const char* script;  ///< its second line is the failing one
  const char* call;    ///< how the target names the call when it reports it
};

/// The runs of failed_line_flush_reported in language L: fwrite in C; in
/// C++, ostream::write and std::endl.
std::vector<line_flush_run> line_flush_runs(lang l) {
  return l == lang::c
             ? std::vector<line_flush_run>{{"fwrite", "line 3; line 3; exit 0", "fwrite: "}}
             : std::vector<line_flush_run>{
                   {"write", "line 3; line 3; exit 0", "ostream::write: "},
                   {"endl", "line 3; write 3; endl; exit 0", "std::endl: "}};
}

/// Line buffered, already putting: the failing flush is the one at the
/// newline of an output that fit in the buffer. Reported, or lost silently?
verdict failed_line_flush_reported(property_context& ctx) {
  const std::vector<line_flush_run> runs = line_flush_runs(ctx.language());
  std::string seen;
  for (const auto& r : runs) {
    auto obs = run_faulted(ctx, r.script, "ENOSPC@write:2");
    const bool told = obs.err.data.find(r.call) != std::string::npos;
    seen += std::string(seen.empty() ? "" : ", ") + r.what +
            (!fault_hit_and_exited(obs) ? " (fault not reached)"
             : told                     ? " reported"
                                        : " silent");
  }
  return record(seen, "on a line-buffered stdout the write of a line fails (ENOSPC): " + seen +
                          "; the line is gone either way (the buffer is dropped)");
}

/// What a failed or short write does to the bytes and to the flush.
const property k_failed_write_properties[] = {
    {.name = "fault.flush_reports_error",
     .group = "faults",
     .level = tier::required,
     .source = "ISO C 7.21.5.2 (fflush returns EOF, sets the error indicator); POSIX "
               "fflush (errno as write); C++ [ostream.unformatted] (flush: "
               "setstate(badbit))",
     .claim = "EAGAIN, EINTR, ENOSPC or EIO at the write of a flush fails the flush, "
              "and C's fflush leaves that errno",
     .langs = both_langs,
     .sinks = buffered_sinks,
     .check = flush_reports_error},
    {.name = "fault.failed_bytes_dropped",
     .group = "faults",
     .level = tier::documented,
     .source = "glibc libio/fileops.c (new_do_write resets the put area whatever "
               "write returned); musl src/stdio/__stdio_write.c (wpos = wbase = wend "
               "= 0 on error); C++ through synced stdio",
     .claim = "the bytes of a failed write are discarded, not kept for the next "
              "flush, whatever the errno (EAGAIN and EINTR included)",
     .langs = both_langs,
     .sinks = buffered_sinks,
     .applies = is_glibc_or_musl,
     .check = failed_bytes_dropped},
    {.name = "fault.short_write_completed",
     .group = "faults",
     .level = tier::documented,
     .source = "glibc libio/fileops.c (_IO_new_file_write loops while to_do > 0); "
               "musl src/stdio/__stdio_write.c (loops on a partial writev)",
     .claim = "a short write is completed by a second call: nothing lost, exactly "
              "two calls",
     .langs = both_langs,
     .sinks = buffered_sinks,
     .applies = is_glibc_or_musl,
     .check = short_write_completed},
};

/// What the program can still do, and what it is told, after a failure.
const property k_after_failure_properties[] = {
    {.name = "fault.output_after_failed_flush",
     .group = "faults",
     .level = tier::observed,
     .source = "ISO C 7.21.10.3 (the error indicator stays set until clearerr); no "
               "clause stops later output",
     .claim = "whether output after a failed flush still reaches the reader",
     .langs = c_only,
     .sinks = buffered_sinks,
     .check = output_after_failed_flush},
    {.name = "fault.failed_line_flush_reported",
     .group = "faults",
     .level = tier::observed,
     .source = "glibc libio/iofwrite.c (_IO_fwrite counts an EOF from _IO_sputn, "
               "\"we did not manage to flush the buffer\", as all written); musl "
               "src/stdio/__fwritex.c (returns what f->write wrote); libstdc++ "
               "stdio_sync_filebuf::overflow is putc, libc++ __stdoutbuf::overflow a "
               "one-byte fwrite",
     .claim = "whether a line that a line-buffered stdout fails to write at its "
              "newline is reported by fwrite, ostream::write and std::endl",
     .langs = both_langs,
     .sinks = tty_sinks,
     .check = failed_line_flush_reported},
    {.name = "fault.cout_bad_after_failed_flush",
     .group = "faults",
     .level = tier::required,
     .source = "C++ [ostream.unformatted] (flush: pubsync() == -1 sets badbit), "
               "[ostream.sentry] (a sentry of a stream that is not good() is false)",
     .claim = "after a failed flush cout is bad and drops every later output until "
              "clear()",
     .langs = cxx_only,
     .sinks = buffered_sinks,
     .check = cout_bad_after_failed_flush},
};

}  // namespace

void add_fault_properties(std::vector<property>& out) {
  append(out, k_failed_write_properties);
  append(out, k_after_failure_properties);
}

}  // namespace flushcheck::detail
