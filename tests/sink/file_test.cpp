// Regular files under the stdio buffer, on real files: the script ops on a
// stream's fd (reopen, syswrite, fadvise, resident: targets/script/fd_ops.h)
// and programs no one here wrote (dd, sh) doing what the catalogue's `file`
// section asserts of the script targets.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "error.hpp"
#include "run.hpp"
#include "script.hpp"
#include "target_set.hpp"

namespace flushcheck {
namespace {

run_options on_file(std::vector<std::string> argv) {
  run_options o;
  o.argv = std::move(argv);
  o.env = clean_environment();
  o.stdout_sink = sink_kind::file;
  return o;
}

run_options script(const char* target, const std::string& s) { return on_file({target, s}); }

const char* const both_targets[] = {FLUSHCHECK_TARGET_STDIO_SCRIPT,
                                    FLUSHCHECK_TARGET_IOSTREAM_SCRIPT};

// tmpfs has no page cache to bypass or drop (its O_DIRECT, Linux 6.6 on, goes
// through it): the page cache tests need a disk file system under $TMPDIR.
#define SKIP_ON_TMPFS(obs)                                                                \
  if ((obs).out.fs == "tmpfs")                                                            \
  GTEST_SKIP() << "the file sink is on tmpfs ($TMPDIR): no O_DIRECT or eviction to see; " \
                  "set TMPDIR to a directory on a disk file system"

// reopen gives the stream's fd a new open file description: plain starts at
// offset 0 (the next line lands over the first), append at the end.
TEST(fd_ops, reopen_gives_a_new_description_of_the_same_file) {
  for (const char* target : both_targets) {
    auto plain = run(script(target, "line 3; flush; reopen plain; line 1; exit 0"));
    EXPECT_EQ(plain.status, wait_status::exited(0)) << target << ": " << plain.err.data;
    EXPECT_EQ(plain.out.data, "D\nA\n") << target;  // D: op 3's letter (ops count from 0)
    auto append = run(script(target, "line 3; flush; reopen append; line 1; exit 0"));
    EXPECT_EQ(append.out.data, "AAA\nD\n") << target;
  }
  EXPECT_EQ(script::parse("reopen direct").text(), "reopen direct out");
  EXPECT_EQ(script::parse("reopen append err").text(), "reopen append err");
}

// syswrite is one write(2), past stdio: it lands before what stdio holds.
TEST(fd_ops, syswrite_is_one_write_past_the_buffer) {
  for (const char* target : both_targets) {
    auto o = script(target, "write 2; syswrite 3; exit 0");
    o.trace = true;
    auto obs = run(o);
    EXPECT_EQ(obs.out.data, "BBBAA") << target;
    ASSERT_TRUE(obs.trace) << target;
    EXPECT_EQ(obs.trace->stdout_write_calls(), 2) << target;
  }
  EXPECT_EQ(script::parse("syswrite 4096 512").text(), "syswrite 4096 512 out");
  EXPECT_EQ(script::parse("syswrite 8 err").text(), "syswrite 8 0 err");
}

// resident counts the file's pages in the page cache (mincore) and says so
// on stderr; fadvise dontneed drops them once fsync has made them clean.
TEST(fd_ops, resident_and_fadvise_see_the_page_cache) {
  for (const char* target : both_targets) {
    auto obs = run(script(target, "syswrite 8192; resident; fsync; fadvise dontneed; resident"));
    SKIP_ON_TMPFS(obs);
    EXPECT_EQ(obs.status, wait_status::exited(0)) << target << ": " << obs.err.data;
    EXPECT_NE(obs.err.data.find("op 2 'resident': 2 of 2 pages resident\n"), std::string::npos)
        << target << ": " << obs.err.data;
    EXPECT_NE(obs.err.data.find("op 5 'resident': 0 of 2 pages resident\n"), std::string::npos)
        << target << ": " << obs.err.data;
  }
  EXPECT_EQ(script::parse("fadvise willneed").text(), "fadvise willneed out");
  EXPECT_EQ(script::parse("resident err").text(), "resident err");
}

TEST(fd_ops, malformed_ops_are_refused) {
  for (const char* bad :
       {"reopen", "reopen sideways", "reopen append log", "syswrite", "syswrite 8 70000",
        "syswrite 8 all", "fadvise", "fadvise often", "resident log", "resident 3"})
    EXPECT_THROW(script::parse(bad), usage_error) << bad;
}

// GNU dd, conv=fsync and conv=fdatasync: 4 writes and one sync call on the
// file, all counted on stdout's sink.
TEST(programs, dd_syncs_once_after_its_writes) {
  for (const auto& [conv, call] : {std::pair{"conv=fsync", traced_call::fsync},
                                   std::pair{"conv=fdatasync", traced_call::fdatasync}}) {
    auto o = on_file({"dd", "if=/dev/zero", "bs=4096", "count=4", conv, "status=none"});
    o.trace = true;
    auto obs = run(o);
    EXPECT_EQ(obs.status, wait_status::exited(0)) << conv << ": " << obs.err.data;
    EXPECT_EQ(obs.out.bytes, 16384u) << conv;
    ASSERT_TRUE(obs.trace) << conv;
    EXPECT_EQ(obs.trace->stdout_write_calls(), 4) << conv;
    EXPECT_EQ(obs.trace->stdout_calls(call), 1) << conv;
  }
}

// GNU dd oflag=direct (fcntl O_DIRECT on its stdout): page-sized blocks are
// taken, a 100-byte block fails with EINVAL and nothing is written.
TEST(programs, dd_oflag_direct_needs_aligned_blocks) {
  auto ok =
      run(on_file({"dd", "if=/dev/zero", "bs=4096", "count=4", "oflag=direct", "status=none"}));
  SKIP_ON_TMPFS(ok);
  EXPECT_EQ(ok.status, wait_status::exited(0)) << ok.err.data;
  EXPECT_EQ(ok.out.bytes, 16384u);
  auto bad =
      run(on_file({"dd", "if=/dev/zero", "bs=100", "count=1", "oflag=direct", "status=none"}));
  EXPECT_EQ(bad.status, wait_status::exited(1));
  EXPECT_EQ(bad.out.bytes, 0u);
  EXPECT_NE(bad.err.data.find("Invalid argument"), std::string::npos) << bad.err.data;
}

// sh with 4 background writers, each opening the file with >> (O_APPEND)
// and printing 100 lines of 500 bytes: all 400 lines arrive whole.
TEST(programs, sh_background_appenders_never_overwrite) {
  auto obs = run(on_file({"/bin/sh", "-c",
                          "for w in 1 2 3 4; do (exec >>/dev/stdout; i=0; while [ $i -lt 100 ]; do "
                          "printf '%0500d\\n' $w; i=$((i+1)); done) & done; wait"}));
  EXPECT_EQ(obs.status, wait_status::exited(0)) << obs.err.data;
  std::istringstream in(obs.out.data);
  std::size_t whole = 0, lines = 0;
  for (std::string line; std::getline(in, line); ++lines)
    whole += line.size() == 500 && line.find_first_not_of('0') == 499 && line[499] >= '1' &&
             line[499] <= '4';
  EXPECT_EQ(lines, 400u);
  EXPECT_EQ(whole, 400u);
  EXPECT_EQ(obs.out.bytes, 400u * 501);
}

}  // namespace
}  // namespace flushcheck
