// A regular file under the stdio buffer: what write(2) handed the kernel is
// in the page cache and outlives the writer; what fsync adds is durability
// (docs/kernel.md), which a death of the writer cannot show. And several
// processes that each open the file: O_APPEND or their own offsets.
#include <cstdint>

#include "checks.hpp"

namespace flushcheck::detail {
namespace {

const std::vector<sink_kind> file_only = {sink_kind::file};

/// Fails V, if it passed so far, unless the tracer counted one write (WRITES)
/// and with SYNC one fsync (SYNCS) on stdout's file.
void require_one_write_and_fsync(verdict& v, bool sync, std::int64_t writes, std::int64_t syncs) {
  if (v.pass && (writes != 1 || syncs != (sync ? 1 : 0))) {
    v.pass = false;
    v.explanation = "the tracer counted " + v.observed + " on stdout's file; want 1 write and " +
                    (sync ? "1 fsync" : "no fsync");
  }
}

/// The verdict of killed_after_flush's run OBS: killed, the file holds the
/// flushed line only, and the tracer counted one write (and with SYNC one
/// fsync).
verdict flushed_line_only(const observation& obs, bool sync) {
  const std::int64_t writes = obs.trace ? obs.trace->stdout_write_calls() : -1;
  const std::int64_t syncs = obs.trace ? obs.trace->stdout_calls(traced_call::fsync) : -1;
  verdict v = both(
      status_is(obs, wait_status::signaled(SIGKILL)),
      data_is(obs, stream::out, payload(0, 99) + "\n", "the flushed line, not the buffered one"));
  v.observed = std::to_string(obs.out.bytes) + " bytes, " + std::to_string(writes) + " write, " +
               std::to_string(syncs) + " fsync";
  require_one_write_and_fsync(v, sync, writes, syncs);
  v.figures = {{"bytes", static_cast<std::int64_t>(obs.out.bytes)}, {"fsyncs", syncs}};
  return v;
}

/// A flushed line, then (with SYNC) fsync, then a line left in the buffer,
/// and SIGKILL at the marker: the file holds the flushed line only.
verdict killed_after_flush(property_context& ctx, bool sync) {
  run_options o;
  o.trace = true;
  o.kill = kill_plan::at_marker(1);
  auto obs = ctx.run(std::string("line 99; flush out; ") + (sync ? "fsync out; " : "") +
                         "line 99; marker m; exit 0",
                     o);
  verdict v = flushed_line_only(obs, sync);
  if (!v.pass) v.repro = ctx.last_command();
  return v;
}

verdict written_bytes_survive_writer_death(property_context& ctx) {
  verdict plain = killed_after_flush(ctx, false);
  verdict synced = killed_after_flush(ctx, true);
  verdict v = both(plain, synced);
  v.observed = "without fsync " + plain.observed + "; with fsync " + synced.observed;
  v.explanation =
      "SIGKILL after a flushed line and a buffered one: the file keeps the line write(2) "
      "took, with or without fsync, and loses the one still in the buffer (" +
      v.observed + ")" + (v.pass ? "" : ": " + (plain.pass ? synced : plain).explanation);
  v.figures = {{"bytes_without_fsync", plain.figures["bytes"]},
               {"bytes_with_fsync", synced.figures["bytes"]},
               {"fsyncs", synced.figures["fsyncs"]}};
  return v;
}

/// 4 processes, each with its own open of the file (`reopen MODE`), 4
/// records of 100,000 bytes each, one write(2) a record: WANT of the 16
/// whole, none torn, nothing else in the file.
verdict opened_writers(property_context& ctx, const char* mode, std::size_t want,
                       const std::string& how) {
  auto obs = ctx.run(record_writers(4, 4, 99999, std::string("reopen ") + mode));
  const auto c = count_records(obs.out.data, {99999});
  verdict v = status_is(obs, wait_status::exited(0));
  v.pass = v.pass && c.whole == want && c.torn == 0 && obs.out.bytes == want * 100000;
  v.observed = std::to_string(obs.out.bytes) + " bytes, " + std::to_string(c.whole) +
               " records whole, " + std::to_string(c.torn) + " torn";
  v.explanation = "4 processes, each opening the file " + how +
                  ", 16 records of 100,000 bytes: " + v.observed + " (want " +
                  std::to_string(want) + " whole, " + std::to_string(16 - want) + " overwritten)";
  v.figures = {{"whole", static_cast<std::int64_t>(c.whole)},
               {"torn", static_cast<std::int64_t>(c.torn)}};
  return v;
}

verdict o_append_writers_never_overwrite(property_context& ctx) {
  return opened_writers(ctx, "append", 16, "O_APPEND");
}

/// Without O_APPEND each open starts at offset 0: the processes write the
/// same records over the same bytes, so the file holds one process's worth
/// whatever the timing.
verdict own_offsets_overwrite(property_context& ctx) {
  return opened_writers(ctx, "plain", 4, "without O_APPEND");
}

}  // namespace

const property k_file_properties[] = {
    {.name = "file.written_bytes_survive_writer_death",
     .group = "file",
     .level = tier::required,
     .source = "POSIX write(2) (once it has returned, a read of the bytes it "
               "modified returns its data); POSIX fsync() (requests that the data "
               "be transferred to the storage device); ISO C 7.21.5.2 (fflush "
               "delivers unwritten data to the host environment)",
     .claim = "bytes write(2) took survive SIGKILL of the writer with or without "
              "fsync (one fsync counted on the file); a line still in the stdio "
              "buffer does not",
     .langs = both_langs,
     .sinks = file_only,
     .check = written_bytes_survive_writer_death},
    {.name = "file.o_append_writers_never_overwrite",
     .group = "file",
     .level = tier::required,
     .source = "POSIX write(2) (O_APPEND: \"the file offset shall be set to the end "
               "of the file prior to each write and no intervening file "
               "modification operation shall occur between changing the file "
               "offset and the write operation\"); open(2) (O_APPEND)",
     .claim = "records of 100,000 bytes from 4 processes that each open the file "
              "O_APPEND arrive all 16 whole, none overwritten",
     .langs = c_only,
     .sinks = file_only,
     .check = o_append_writers_never_overwrite},
    {.name = "file.own_offsets_overwrite",
     .group = "file",
     .level = tier::required,
     .source = "POSIX open() (a new open file description, its offset at the start "
               "of the file); POSIX write(2) (writing proceeds from the file offset "
               "of the description)",
     .claim = "the same 4 processes opening the file without O_APPEND write over "
              "each other: the file holds 4 of the 16 records",
     .langs = c_only,
     .sinks = file_only,
     .check = own_offsets_overwrite},
};

void add_file_properties(std::vector<property>& out) { append(out, k_file_properties); }

}  // namespace flushcheck::detail
