// The reference model against hand-computed cases and the seed figures
// (docs/model.md). No program runs here: these pin down what the
// model says; tests/model/property_test.cpp checks that real runs agree with it.
#include <gtest/gtest.h>

#include <vector>

#include "error.hpp"
#include "fault_plan.hpp"
#include "model.hpp"

namespace flushcheck {
namespace {

impl_profile glibc() {
  return {libc_impl::glibc, cxx_impl::libstdcxx, "glibc (model test)", {}, {}};
}
impl_profile glibc_libcxx() {
  return {libc_impl::glibc, cxx_impl::libcxx, "glibc, libc++ (model test)", {}, {}};
}
impl_profile musl() { return {libc_impl::musl, cxx_impl::unknown, "musl (model test)", {}, {}}; }
/// glibc from 2.37 on, whose printf goes through a 128-byte stage.
impl_profile glibc_2_41() {
  return {libc_impl::glibc, cxx_impl::libstdcxx, "glibc 2.41 (model test)", {2, 41, 0}, {}};
}

/// st_blksize as Linux gives it on x86-64: a page, and 1024 for a pty. The
/// model reads no file: these tests give it the values their hand
/// computations use, whatever this machine's (the property tests ask the
/// kernel, through with_st_blksize).
std::size_t blksize(sink_kind k) { return is_tty(k) ? 1024 : 4096; }

model_setup setup(impl_profile p, sink_kind out, lang l = lang::c) {
  model_setup s;
  s.language = l;
  s.profile = std::move(p);
  s.stdout_sink = out;
  return s;
}

/// Sizes of the calls to stdout's destination.
std::vector<std::size_t> out_calls(const prediction& p) {
  std::vector<std::size_t> sizes;
  for (const auto& c : p.calls)
    if (fd_of(c.ch) == 1) sizes.push_back(c.to - c.from);
  return sizes;
}

prediction predict_text(model_setup s, const char* text, kill_plan cut = {}) {
  s.st_blksize = {blksize(s.stdout_sink), blksize(s.stderr_sink.value_or(s.stdout_sink))};
  return predict(s, script::parse(text), cut);
}

using sizes = std::vector<std::size_t>;

TEST(model, glibc_pipe_fills_the_st_blksize_buffer_then_writes_it_whole) {
  // 3 bytes buffered; 4096 more fill the buffer (4093), flush it, keep 3; 1 more; exit flushes.
  auto p = predict_text(setup(glibc(), sink_kind::pipe), "write 3; write 4096; write 1");
  EXPECT_EQ(out_calls(p), (sizes{4096, 4}));
  EXPECT_TRUE(p.exact);
  EXPECT_EQ(p.status, wait_status::exited(0));
}

TEST(model, glibc_first_large_fwrite_goes_straight_out_in_whole_blocks) {
  // _IO_new_file_xsputn: nothing buffered, 9000 = 2 * 4096 + 808: two
  // blocks in one write, 808 bytes buffered until exit.
  auto p = predict_text(setup(glibc(), sink_kind::file), "write 9000");
  EXPECT_EQ(out_calls(p), (sizes{8192, 808}));
}

TEST(model, glibc_pty_is_line_buffered_and_flushes_through_the_last_newline) {
  auto p = predict_text(setup(glibc(), sink_kind::pty), "line 3; write 2; line 1");
  EXPECT_EQ(out_calls(p), (sizes{4, 4}));
  EXPECT_EQ(p.data[0], "AAA\nBBC\n");
}

TEST(model, glibc_small_setvbuf_buffer_writes_its_first_fwrite_directly) {
  // A user buffer under 128 bytes: xsputn's "whole blocks" rule writes all
  // that does not fit, and the first fwrite finds no space at all.
  auto p = predict_text(setup(glibc(), sink_kind::pipe), "setvbuf full 64; write 10; write 10");
  EXPECT_EQ(out_calls(p), (sizes{10, 10}));
}

// Measured on Debian 12 (glibc 2.36) and 13 (2.41), also under strace alone:
// a 4000-byte printf to a pty, whose st_blksize (1024) is the buffer.
TEST(model, glibc_printf_to_a_pty_before_and_from_2_37) {
  // 2.36: _IO_sputn of all 4000: 3 whole blocks in one write, 928 held.
  auto old = predict_text(setup(glibc(), sink_kind::pty), "printf 4000");
  EXPECT_EQ(out_calls(old), (sizes{3072, 928}));
  // 2.37: 128-byte stages into the line buffer; it goes out when full.
  auto now = predict_text(setup(glibc_2_41(), sink_kind::pty), "printf 4000");
  EXPECT_EQ(out_calls(now), (sizes{1024, 1024, 1024, 928}));
}

TEST(model, glibc_2_37_unbuffered_printf_writes_128_bytes_at_a_time) {
  auto p = predict_text(setup(glibc_2_41(), sink_kind::pipe), "setvbuf none; printf 300");
  EXPECT_EQ(out_calls(p), (sizes{128, 128, 44}));
  auto old = predict_text(setup(glibc(), sink_kind::pipe), "setvbuf none; printf 300");
  EXPECT_EQ(out_calls(old), (sizes{300}));
}

TEST(model, glibc_2_37_fully_buffered_printf_fills_the_buffer_once_it_has_one) {
  // A first stage of 128 allocates the buffer; then straight into it, and
  // each full buffer goes out with the next byte: 4 x 4096, 3616 held.
  auto p = predict_text(setup(glibc_2_41(), sink_kind::pipe), "printf 20000");
  EXPECT_EQ(out_calls(p), (sizes{4096, 4096, 4096, 4096, 3616}));
  auto old = predict_text(setup(glibc(), sink_kind::pipe), "printf 20000");
  EXPECT_EQ(out_calls(old), (sizes{16384, 3616}));  // whole blocks straight out
}

TEST(model, seed_claim_a_ten_million_putc_to_a_file) {
  // SEED_CLAIMS A: _IONBF ~10,000,000 write(); 4 KiB ~2,442; 64 KiB ~153; 1 MiB ~10.
  const auto file = setup(glibc(), sink_kind::file);
  EXPECT_EQ(predict_text(file, "putc 10000000").writes[0].first, 2442);
  EXPECT_EQ(predict_text(file, "setvbuf full 65536; putc 10000000").writes[0].first, 153);
  EXPECT_EQ(predict_text(file, "setvbuf full 1048576; putc 10000000").writes[0].first, 10);
  EXPECT_EQ(predict_text(file, "setvbuf none; putc 100000").writes[0].first, 100000);
}

TEST(model, seed_claim_c_endl_is_one_write_per_line) {
  auto p = predict_text(setup(glibc(), sink_kind::file, lang::cxx),
                        "write 5; endl; write 5; endl; write 5; newline");
  EXPECT_EQ(out_calls(p), (sizes{6, 6, 6}));  // the last line at exit
}

TEST(model, cerr_is_tied_to_cout_and_unitbuf) {
  model_setup s = setup(glibc(), sink_kind::pipe, lang::cxx);
  auto p = predict_text(s, "write 3 out; write 2 err; write 1 log");
  ASSERT_EQ(p.calls.size(), 3u);
  EXPECT_EQ(p.calls[0].ch, channel::c_out);  // flushed by cerr's sentry, before cerr writes
  EXPECT_EQ(p.calls[1].ch, channel::c_err);
  EXPECT_EQ(p.calls[2].ch, channel::c_err);  // clog: no tie, but stderr is unbuffered
  auto untied = predict_text(s, "tie err off; write 3 out; write 2 err");
  EXPECT_EQ(untied.calls[0].ch, channel::c_err);
}

TEST(model, cin_is_tied_to_cout) {
  model_setup s = setup(glibc(), sink_kind::pipe, lang::cxx);
  s.input = "x\n";
  auto cut = kill_plan::at_marker(1);
  EXPECT_EQ(predict_text(s, "write 3; getline; marker m", cut).data[0], "AAA");
  EXPECT_EQ(predict_text(s, "tie in off; write 3; getline; marker m", cut).data[0], "");
  model_setup c = setup(glibc(), sink_kind::pipe);  // C: a pipe stdin flushes nothing
  c.input = "x\n";
  EXPECT_EQ(predict_text(c, "write 3; getline; marker m", cut).data[0], "");
}

TEST(model, musl_sends_the_first_line_to_a_pipe_at_once) {
  // __stdout_write decides line buffering at the first write, which the
  // first '\n' triggers: one line out early, then full buffering.
  auto p = predict_text(setup(musl(), sink_kind::pipe), "line 3; line 3");
  EXPECT_EQ(out_calls(p), (sizes{4, 4}));
  auto g = predict_text(setup(glibc(), sink_kind::pipe), "line 3; line 3");
  EXPECT_EQ(out_calls(g), (sizes{8}));
}

TEST(model, musl_flushes_1025_bytes_and_keeps_8_of_a_setvbuf_buffer) {
  EXPECT_EQ(out_calls(predict_text(setup(musl(), sink_kind::file), "write 1024; write 1")),
            (sizes{1025}));
  EXPECT_EQ(
      out_calls(predict_text(setup(musl(), sink_kind::file), "setvbuf full 64; write 56; write 1")),
      (sizes{57}));
}

TEST(model, libcxx_put_is_a_one_byte_fwrite) {
  // glibc's first fwrite into a small user buffer is direct; putc is not.
  const char* text = "setvbuf full 100 err; putc 3 log";
  auto gnu = predict_text(setup(glibc(), sink_kind::file, lang::cxx), text);
  auto llvm = predict_text(setup(glibc_libcxx(), sink_kind::file, lang::cxx), text);
  EXPECT_EQ(gnu.writes[1].first, 1);
  EXPECT_EQ(llvm.writes[1].first, 2);
}

TEST(model, libstdcxx_inserts_a_char_with_put) {
  // Found by 10,000 cxx cases: `os << '\n'` is put() in libstdc++ 12, so
  // the newline is buffered (putc), where a one-byte fwrite into a 64-byte
  // user buffer would have gone straight out.
  auto p = predict_text(setup(glibc(), sink_kind::file, lang::cxx),
                        "setvbuf full 64 out; newline out; write 8193 out");
  EXPECT_EQ(out_calls(p), (sizes{64, 8130}));
}

TEST(model, cuts_keep_what_was_written_before_them) {
  const auto pipe = setup(glibc(), sink_kind::pipe);
  auto marker = predict_text(pipe, "line 3; marker a; line 3", kill_plan::at_marker(1));
  EXPECT_TRUE(marker.kill_delivered);
  EXPECT_EQ(marker.data[0], "");
  EXPECT_EQ(marker.meant[0], "AAA\nCCC\n");
  EXPECT_EQ(marker.status, wait_status::signaled(SIGKILL));
  auto at = predict_text(pipe, "setvbuf none; write 2; write 3; write 4", kill_plan::at_write(2));
  EXPECT_EQ(at.data[0], "BB");
  EXPECT_EQ(at.writes[0].first, 1);  // the stopped call never ran: the tracer counts it apart
  auto after =
      predict_text(pipe, "setvbuf none; write 2; write 3; write 4", kill_plan::after_write(2));
  EXPECT_EQ(after.data[0], "BBCCC");
  auto beyond = predict_text(pipe, "write 2", kill_plan::at_write(5));
  EXPECT_FALSE(beyond.kill_delivered);
  EXPECT_EQ(beyond.data[0], "AA");
}

TEST(model, endings_flush_or_not) {
  const auto pipe = setup(glibc(), sink_kind::pipe, lang::cxx);
  EXPECT_EQ(predict_text(pipe, "write 2; exit 3").data[0], "AA");
  EXPECT_EQ(predict_text(pipe, "write 2; exit 3").status, wait_status::exited(3));
  EXPECT_EQ(predict_text(pipe, "write 2; return 4").data[0], "AA");
  for (const char* lost : {"write 2; _exit 1", "write 2; quick_exit 1", "write 2; abort",
                           "write 2; crash", "write 2; raise TERM", "write 2; throw"})
    EXPECT_EQ(predict_text(pipe, lost).data[0], "") << lost;
  EXPECT_EQ(predict_text(pipe, "write 2; throw").status, wait_status::signaled(SIGABRT));
}

TEST(model, widens_where_the_profile_is_not_ported) {
  auto p = predict_text(setup(glibc(), sink_kind::pipe, lang::cxx),
                        "sync_with_stdio off; write 3; marker m; endl; marker n",
                        kill_plan::at_marker(1));
  EXPECT_FALSE(p.exact);
  const auto& cout = p.bounds[static_cast<std::size_t>(channel::cxx_out)];
  EXPECT_EQ(cout.must, 0u);
  EXPECT_EQ(cout.may, 3u);
  EXPECT_FALSE(p.notes.empty());
  auto flushed =
      predict_text(setup(glibc(), sink_kind::pipe, lang::cxx),
                   "sync_with_stdio off; write 3; endl; marker m", kill_plan::at_marker(1));
  EXPECT_EQ(flushed.bounds[static_cast<std::size_t>(channel::cxx_out)].must, 4u);
  // clog shares cerr's buffer: cerr's unitbuf flush sends clog's byte too,
  // in one write (found by a 10,000-case run).
  auto shared = predict_text(setup(glibc(), sink_kind::pty, lang::cxx),
                             "sync_with_stdio off; write 1 log; write 55 err");
  EXPECT_EQ(shared.meant[static_cast<std::size_t>(channel::cxx_err)], "B" + std::string(55, 'C'));
  EXPECT_EQ(shared.writes[1].first, 1);
  // libc++ ignores sync_with_stdio(false): still exact.
  EXPECT_TRUE(predict_text(setup(glibc_libcxx(), sink_kind::pipe, lang::cxx),
                           "sync_with_stdio off; write 3")
                  .exact);
}

TEST(model, refuses_what_it_does_not_cover) {
  const auto pipe = setup(glibc(), sink_kind::pipe);
  EXPECT_THROW(predict_text(pipe, "write 1; setvbuf none"), usage_error);
  EXPECT_THROW(predict_text(pipe, "write 1; close out"), usage_error);
  EXPECT_THROW(predict_text(pipe, "write 1; fsync out"), usage_error);  // EINVAL report on a pipe
  for (const char* fd_op :
       {"reopen append", "syswrite 4", "fadvise dontneed", "resident", "lock", "putc_unlocked 2"})
    EXPECT_THROW(predict_text(pipe, (std::string("write 1; ") + fd_op).c_str()), usage_error)
        << fd_op;
  const impl_profile bionic{libc_impl::unknown, cxx_impl::unknown, "bionic", {}, {}};
  EXPECT_THROW(predict_text(setup(bionic, sink_kind::pipe), "write 1"), usage_error);
}

// -- failed and short writes (injected faults, /dev/full) --------------------

model_setup with_faults(model_setup s, std::initializer_list<const char*> specs) {
  for (const char* f : specs) s.faults.push_back(fault_plan::parse(f));
  return s;
}

TEST(model_faults, a_failed_flush_drops_the_buffer_and_is_reported) {
  // glibc's new_do_write and musl's __stdio_write empty the buffer whatever
  // the call returned: "AAA" is gone, "CC" goes out at exit; the target
  // reports the fflush on stderr (one write) and exits 1.
  for (const auto& profile : {glibc(), musl()}) {
    auto p = predict_text(with_faults(setup(profile, sink_kind::pipe), {"EAGAIN@write:1"}),
                          "write 3; flush; write 2");
    EXPECT_EQ(p.data[0], "CC") << profile.version;
    EXPECT_EQ(p.reports, 1);
    EXPECT_EQ(p.writes[0], std::make_pair(2L, 2L));
    EXPECT_EQ(p.writes[1], std::make_pair(1L, 1L));
    EXPECT_EQ(p.status, wait_status::exited(1));
  }
}

TEST(model_faults, a_short_write_is_completed_by_a_second_call) {
  for (const auto& profile : {glibc(), musl()}) {
    auto p = predict_text(with_faults(setup(profile, sink_kind::pipe), {"short:3@write:1"}),
                          "write 10; flush");
    EXPECT_EQ(out_calls(p), (sizes{3, 7})) << profile.version;
    EXPECT_EQ(p.data[0], std::string(10, 'A'));
    EXPECT_EQ(p.reports, 0);
  }
}

TEST(model_faults, glibc_fwrite_reports_success_when_its_line_flush_fails) {
  // Line buffered and already putting, "BBB\n" fits: _IO_new_file_xsputn
  // copies it, its flush fails, it returns EOF, and _IO_fwrite counts EOF
  // as all written (iofwrite.c). musl's __fwritex returns 0: reported.
  const auto pty = setup(glibc(), sink_kind::pty);
  auto g = predict_text(with_faults(pty, {"ENOSPC@write:2"}), "line 3; line 3");
  EXPECT_EQ(g.data[0], "AAA\n");
  EXPECT_EQ(g.reports, 0);
  EXPECT_EQ(g.status, wait_status::exited(0));
  auto m = predict_text(with_faults(setup(musl(), sink_kind::pty), {"ENOSPC@write:2"}),
                        "line 3; line 3");
  EXPECT_EQ(m.data[0], "AAA\n");
  EXPECT_EQ(m.reports, 1);
  EXPECT_EQ(m.status, wait_status::exited(1));
  // Not all of it fits: the count is short, reported.
  EXPECT_EQ(predict_text(with_faults(pty, {"ENOSPC@write:2"}), "line 3; line 5000").reports, 1);
}

TEST(model_faults, glibc_2_42_fwrite_reports_its_failed_line_flush) {
  // glibc 2.42 (iofwrite.c, commit 596a61cf6b, BZ #29459): the same EOF is
  // short now. Seen on Debian testing (glibc 2.43): the target reports it.
  impl_profile g242 = glibc();
  g242.libc_release = {2, 42, 0};
  auto p =
      predict_text(with_faults(setup(g242, sink_kind::pty), {"ENOSPC@write:2"}), "line 3; line 3");
  EXPECT_EQ(p.data[0], "AAA\n");
  EXPECT_EQ(p.reports, 1);
  EXPECT_EQ(p.status, wait_status::exited(1));
  g242.libc_release = {2, 41, 0};
  EXPECT_EQ(
      predict_text(with_faults(setup(g242, sink_kind::pty), {"ENOSPC@write:2"}), "line 3; line 3")
          .reports,
      0);
}

TEST(model_faults, libstdcxx_16_unitbuf_syncs_only_a_good_stream) {
  // Seen on Debian testing (GCC 16.2) and trixie (GCC 14.2), the same script.
  const char* text = "clear off; unitbuf on out; write 55 out; printf 1; write 300 out; marker m1";
  impl_profile gcc = glibc();
  for (int release : {14, 16}) {
    gcc.cxx_release = {release, 0, 0};
    auto s = with_faults(setup(gcc, sink_kind::file, lang::cxx), {"EAGAIN@stderr:write:1"});
    s.stderr_sink = std::nullopt;  // 2>&1: the fault hits cout's unitbuf flush
    auto p = predict_text(s, text, kill_plan::at_marker(1));
    // 14: the bad stream's ~sentry still flushes printf's "D"; 16: it stays in the buffer.
    EXPECT_EQ(p.data[0], release == 14 ? "D" : "") << "libstdc++ " << release;
  }
}

TEST(model, libstdcxx_11_flush_is_not_an_unformatted_output_function) {
  // Up to GCC 11 (bits/ostream.tcc: "DR 60 ... flush() is *not* an
  // unformatted output function") cerr.flush() syncs cerr alone; from GCC 12
  // (LWG 581) its sentry flushes cout, cerr's tie(), first. Falsified on
  // Debian bullseye (GCC 10.2) by `flushcheck model`, shrunk to this script.
  const char* text = "write 300 out; flush err; _exit 4";
  impl_profile gcc = glibc();
  for (int release : {10, 11, 12}) {
    gcc.cxx_release = {release, 0, 0};
    auto s = setup(gcc, sink_kind::file, lang::cxx);
    s.stderr_sink = std::nullopt;
    const auto p = predict_text(s, text);
    EXPECT_EQ(p.data[0].size(), release < 12 ? 0U : 300U) << "libstdc++ " << release;
  }
}

TEST(model_faults, libstdcxx_11_inserts_a_char_with_fwrite) {
  // Up to GCC 11 <ostream> inserts `os << c` with __ostream_insert (sputn:
  // fwrite), from GCC 12 with put() (putc) when width() is 0. glibc's fwrite
  // (to 2.41) counts a failed line flush as written, putc returns EOF: so
  // only from GCC 12 does the target see the failure and report it.
  // Falsified on Debian bullseye (GCC 10.2, glibc 2.31), shrunk to this.
  impl_profile gcc = glibc();
  for (int release : {10, 12}) {
    gcc.cxx_release = {release, 0, 0};
    auto s = with_faults(setup(gcc, sink_kind::pty, lang::cxx), {"EAGAIN@write:1"});
    s.stderr_sink = std::nullopt;
    const auto p = predict_text(s, "write 1 out; newline out");
    EXPECT_EQ(p.reports, release == 10 ? 0 : 1) << "libstdc++ " << release;
  }
}

TEST(model_faults, a_bad_cout_refuses_output_until_cleared) {
  const auto pipe = setup(glibc(), sink_kind::pipe, lang::cxx);
  // flush fails: badbit. Cleared by the target after its report, "DD" goes out.
  auto cleared = predict_text(with_faults(pipe, {"EIO@write:1"}), "write 3; flush; write 2");
  EXPECT_EQ(cleared.data[0], "CC");
  EXPECT_EQ(cleared.reports, 1);
  // "clear off": the write and the flush after it are refused and reported too.
  auto bad =
      predict_text(with_faults(pipe, {"EIO@write:1"}), "clear off; write 3; flush; write 2; flush");
  EXPECT_EQ(bad.data[0], "");
  EXPECT_EQ(bad.reports, 3);
  EXPECT_EQ(bad.writes[0], std::make_pair(1L, 1L));
}

TEST(model_faults, epipe_kills_unless_sigpipe_is_ignored) {
  const auto pipe = setup(glibc(), sink_kind::pipe);
  auto killed = predict_text(with_faults(pipe, {"EPIPE@write:1"}), "write 3; flush; write 2");
  EXPECT_EQ(killed.status, wait_status::signaled(SIGPIPE));
  EXPECT_EQ(killed.data[0], "");
  EXPECT_EQ(killed.reports, 0);
  auto ignored =
      predict_text(with_faults(pipe, {"EPIPE@write:1"}), "ignore PIPE; write 3; flush; write 2");
  EXPECT_EQ(ignored.status, wait_status::exited(1));
  EXPECT_EQ(ignored.data[0], "DD");
  // after-write:1 on the same call: SIGKILL ends it first, SIGTERM waits
  // behind SIGPIPE (the lower number).
  const char* s = "write 3; flush";
  EXPECT_EQ(predict_text(with_faults(pipe, {"EPIPE@write:1"}), s, kill_plan::after_write(1)).status,
            wait_status::signaled(SIGKILL));
  EXPECT_EQ(
      predict_text(with_faults(pipe, {"EPIPE@write:1"}), s, kill_plan::after_write(1, SIGTERM))
          .status,
      wait_status::signaled(SIGPIPE));
  // write:1 stops the call before the fault: the cut's signal only.
  EXPECT_EQ(
      predict_text(with_faults(pipe, {"EPIPE@write:1"}), s, kill_plan::at_write(1, SIGTERM)).status,
      wait_status::signaled(SIGTERM));
}

TEST(model_faults, dev_full_is_exact) {
  // Every call with bytes fails with ENOSPC; each failed op is reported.
  auto p = predict_text(setup(glibc(), sink_kind::full), "write 3; flush; line 2; putc 2");
  EXPECT_TRUE(p.exact);
  EXPECT_EQ(p.reports, 1);  // the flush; the rest is buffered, and exit reports nothing
  EXPECT_EQ(p.writes[0], std::make_pair(2L, 2L));
  EXPECT_EQ(p.status, wait_status::exited(1));
  EXPECT_TRUE(p.exit_code_known);
  // musl's empty writev (printf on an unbuffered stdout) never reaches the driver.
  auto m = predict_text(setup(musl(), sink_kind::full), "setvbuf none; printf 0");
  EXPECT_EQ(m.writes[0], std::make_pair(1L, 1L));
  EXPECT_EQ(m.reports, 0);
}

TEST(model_faults, refuses_what_it_does_not_port) {
  const auto pipe = setup(glibc(), sink_kind::pipe, lang::cxx);
  EXPECT_THROW(predict_text(with_faults(pipe, {"EIO@file:/tmp/x:every"}), "write 1"), usage_error);
  EXPECT_THROW(predict_text(with_faults(pipe, {"short:1@stderr:every"}), "write 1"), usage_error);
  auto merged = pipe;
  merged.stderr_sink.reset();
  EXPECT_THROW(predict_text(with_faults(merged, {"short:1@every"}), "write 1"), usage_error);
  EXPECT_THROW(predict_text(with_faults(pipe, {"EIO@every"}), "sync_with_stdio off; write 1"),
               usage_error);
  EXPECT_THROW(predict_text(with_faults(pipe, {"EIO@stderr:every"}), "write 1; throw"),
               usage_error);
  EXPECT_NO_THROW(predict_text(with_faults(pipe, {"short:1@every"}), "write 1 err"));
}

// The names are the JSON, Markdown and skip-message text: what the targets print.
TEST(profile, names_are_what_the_targets_print) {
  for (libc_impl l : {libc_impl::glibc, libc_impl::musl, libc_impl::unknown})
    EXPECT_EQ(parse_libc(to_string(l)), l);
  for (cxx_impl c : {cxx_impl::libstdcxx, cxx_impl::libcxx, cxx_impl::none, cxx_impl::unknown})
    EXPECT_EQ(parse_cxxlib(to_string(c)), c);
  EXPECT_STREQ(to_string(libc_impl::glibc), "glibc");
  EXPECT_STREQ(to_string(cxx_impl::libstdcxx), "libstdc++");
  EXPECT_STREQ(to_string(cxx_impl::libcxx), "libc++");
  EXPECT_EQ(parse_libc("bionic"), libc_impl::unknown);
}

// The release picks the model's printf: glibc 2.37 rewrote it.
TEST(profile, releases_are_read_as_numbers) {
  EXPECT_EQ(parse_lib_version("2.41"), (lib_version{2, 41, 0}));
  EXPECT_EQ(parse_lib_version("1.2.3-1"), (lib_version{1, 2, 3}));
  EXPECT_EQ(parse_lib_version("14.0.6"), (lib_version{14, 0, 6}));
  EXPECT_EQ(parse_lib_version(""), lib_version{});
  EXPECT_EQ(parse_lib_version("x2.3"), lib_version{});
  EXPECT_LT(parse_lib_version("2.36"), (lib_version{2, 37, 0}));
  EXPECT_GE(parse_lib_version("2.37"), (lib_version{2, 37, 0}));
}

}  // namespace
}  // namespace flushcheck
