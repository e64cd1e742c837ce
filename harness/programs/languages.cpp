// The language table: one row per language, each fact with its source.
#include "languages.hpp"

#include <stdexcept>

namespace flushcheck {

namespace {

using enum buffer_mode;

language_facts python() {
  return {
      .language = lang::python,
      .id = "python",
      .display = "Python",
      .programs = {"python"},
      .interpreter = {"python3", "@/script.py"},
      .package = "python3",
      .out = {line, full,
              "Python docs, sys.stdout: line-buffered when interactive, otherwise block-buffered"},
      .err = {line, line, "Python docs, sys.stderr: line-buffered in both cases (3.9+)"},
      .fast_exit_flushes = false,
      .fast_exit_source = "Python docs, os._exit: exits without flushing stdio buffers",
      .has_abort = true,
      .held_because =
          "Python block-buffers sys.stdout unless it is interactive (Python docs, sys.stdout)",
      .switches = {
          {.name = "python.u_flag",
           .source = "Python docs, command line: -u forces stdout and stderr to be unbuffered",
           .claim = "python3 -u: stdout unbuffered on a pipe and a file",
           .flags = {"-u"},
           .visible = 6,
           .sinks = buffered_sinks,
           .fix = switch_fix{.name = "python3 -u",
                             .advice = "run it with python3 -u",
                             .source = "Python docs, command line -u",
                             .args = {"-u"},
                             .stderr_too = true}},
          {.name = "python.pythonunbuffered",
           .source = "Python docs, PYTHONUNBUFFERED: equivalent to -u",
           .claim = "PYTHONUNBUFFERED=1: stdout unbuffered on a pipe and a file",
           .env = "PYTHONUNBUFFERED=1",
           .visible = 6,
           .sinks = buffered_sinks,
           .note = "Python programs get unbuffered stdout and stderr",
           .fix = switch_fix{.name = "PYTHONUNBUFFERED=1",
                             .advice = "set PYTHONUNBUFFERED=1 in its environment",
                             .source = "Python docs, PYTHONUNBUFFERED (equivalent to -u)",
                             .env = {"PYTHONUNBUFFERED=1"},
                             .stderr_too = true}},
          {.name = "python.line_buffering",
           .source = "Python docs, io.TextIOWrapper.reconfigure(line_buffering=True)",
           .claim =
               "sys.stdout.reconfigure(line_buffering=True): line buffered on a pipe and a file",
           .before = "buffer line; ",
           .visible = 4,
           .sinks = buffered_sinks}}};
}

language_facts node() {
  return {
      .language = lang::node,
      .id = "node",
      .display = "Node.js",
      .programs = {"node", "nodejs"},
      .interpreter = {"node", "@/script.js"},
      .package = "nodejs",
      .out = {none, none,
              "Node docs, process.md 'A note on process I/O': files and TTYs synchronous on "
              "POSIX; pipes asynchronous, but libuv's uv_write writes at once what the pipe takes "
              "(src/unix/stream.c) and queues only the rest"},
      .err = {none, none, "Node docs, process.md 'A note on process I/O'"},
      .fast_exit_flushes = true,
      .fast_exit_source =
          "Node docs, process.exit: pending asynchronous writes may be lost; a small write has "
          "none",
      .has_abort = true,
      .held_because =
          "Node queues what a pipe cannot take, and process.exit drops the queue "
          "(Node docs, process.exit)",
      .switches = {
          {.name = "node.set_blocking",
           .source = "Node docs, process.md 'A note on process I/O'; nodejs/node#6456",
           .claim = "setBlocking(true): a large write then process.exit loses nothing",
           .before = "buffer none; ",
           .promise = switch_promise::large_write_survives_exit,
           .sinks = buffered_sinks,
           .fix = switch_fix{
               .name = "setBlocking(true)",
               .advice = "put `process.stdout._handle?.setBlocking?.(true)` at the top of the "
                         "program",
               .source = "Node docs, process.md 'A note on process I/O' (tried through "
                         "NODE_OPTIONS=--require)",
               // NODE_OPTIONS splits on spaces but keeps a double-quoted value whole.
               .env = {"NODE_OPTIONS=--require \"{helpers}/flushcheck_blocking.js\""}}}}};
}

language_facts perl() {
  return {
      .language = lang::perl,
      .id = "perl",
      .display = "Perl",
      .programs = {"perl"},
      .interpreter = {"perl", "@/script.pl"},
      .package = "perl",
      .out = {line, full,
              "perlvar $|: STDOUT line buffered to a terminal, block buffered otherwise"},
      .err = {none, none,
              "Perl perlio.c PerlIOBuf_open: initial stderr is unbuffered (PERLIO_F_UNBUF)"},
      .fast_exit_flushes = false,
      .fast_exit_source = "POSIX.pod _exit: buffered I/O is not flushed",
      .has_abort = true,
      .held_because = "Perl block-buffers STDOUT unless it is a terminal (perlvar $|)",
      .switches = {{.name = "perl.autoflush",
                    .source = "perlvar $|: a flush after every print",
                    .claim = "$| = 1: STDOUT unbuffered",
                    .before = "buffer none; ",
                    .visible = 6,
                    .sinks = buffered_sinks,
                    .fix = switch_fix{
                        .name = "$| = 1",
                        .advice = "put `$| = 1;` (STDOUT->autoflush(1)) at the top of the program",
                        .source = "perlvar $| (tried by loading it through PERL5OPT)",
                        // a helpers directory with spaces is fine in PERL5LIB
                        .env = {"PERL5LIB={helpers}", "PERL5OPT=-Mflushcheck_autoflush"}}}}};
}

language_facts ruby() {
  return {
      .language = lang::ruby,
      .id = "ruby",
      .display = "Ruby",
      .programs = {"ruby"},
      .interpreter = {"ruby", "@/script.rb"},
      .package = "ruby",
      .out = {none, full,
              "Ruby io.c io_binwrite_requires_flush_write: a write to a tty (FMODE_TTY) or in "
              "sync mode is written through at once; otherwise it waits in the buffer"},
      .err = {none, none, "Ruby io.c rb_io_prep_stderr: FMODE_SYNC"},
      .fast_exit_flushes = false,
      .fast_exit_source = "Ruby process.c rb_f_exit_bang: _exit(2), no exit handlers, no IO flush",
      .has_abort = true,
      .held_because = "Ruby buffers $stdout unless it is a tty or sync is set (Ruby io.c)",
      .switches = {
          {.name = "ruby.sync",
           .source = "Ruby docs, IO#sync=: sync mode writes at once",
           .claim = "$stdout.sync = true: unbuffered",
           .before = "buffer none; ",
           .visible = 6,
           .sinks = buffered_sinks,
           .fix = switch_fix{.name = "$stdout.sync = true",
                             .advice = "put `$stdout.sync = true` at the top of the program",
                             .source = "Ruby docs, IO#sync= (tried by loading it through RUBYOPT)",
                             .env = {"RUBYLIB={helpers}", "RUBYOPT=-rflushcheck_sync"}}}}};
}

language_facts java() {
  // The marker fd is opened by reflection on java.io.FileDescriptor
  // (Script.java), which JDK 17 allows only when java.io is opened to it.
  // The two JIT and GC flags shorten start-up; neither changes System.out.
  return {
      .language = lang::java,
      .id = "java",
      .display = "Java",
      .programs = {"java"},
      .interpreter = {"java", "--add-opens", "java.base/java.io=ALL-UNNAMED",
                      "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", "@/java", "Script"},
      .package = "default-jdk-headless",
      .out = {none, none,
              "OpenJDK 17 System.java newPrintStream: PrintStream(BufferedOutputStream(fos, 128), "
              "autoflush true), which flushes after every byte array it writes (PrintStream docs)"},
      .err = {none, none, "OpenJDK 17 System.java: System.err is made the same way"},
      .fast_exit_flushes = true,
      .fast_exit_source =
          "Runtime.halt runs no shutdown hook, but System.out holds nothing after a print",
      .has_abort = false,
      .held_because =
          "System.out flushes every print, so a buffer of the program's own holds it "
          "(a BufferedOutputStream, a logging library)",
      .switches = {
          {.name = "java.buffered_output_stream",
           .source = "Java SE 17 API: BufferedOutputStream; PrintStream(out, autoFlush=false)",
           .claim = "a PrintStream without autoflush over a BufferedOutputStream: fully buffered",
           .before = "buffer full; ",
           .visible = 0,
           .sinks = all_sinks},
          {.name = "java.autoflush",
           .source = "Java SE 17 API, PrintStream: autoflush flushes after every byte array "
                     "written, not only at '\\n'",
           .claim = "PrintStream autoflush over a BufferedOutputStream: every print is flushed",
           .before = "buffer line; ",
           .visible = 6,
           .sinks = all_sinks}}};
}

language_facts go() {
  return {
      .language = lang::go,
      .id = "go",
      .display = "Go",
      .interpreter = {"@/go_script"},
      .package = "golang-go",
      .out = {none, none,
              "Go os/file.go: os.Stdout is an *os.File, whose Write is a write(2) (internal/poll)"},
      .err = {none, none, "Go os/file.go: os.Stderr likewise"},
      .fast_exit_flushes = true,
      .fast_exit_source =
          "Go os/proc.go Exit: deferred functions do not run, but os.Stdout holds nothing",
      .has_abort = false,
      .switches = {
          {.name = "go.bufio",
           .source = "Go docs, bufio.Writer: data is written when the buffer is full or on Flush",
           .claim = "bufio.NewWriterSize(os.Stdout, 4096): fully buffered on every sink",
           .before = "buffer full; ",
           .visible = 0,
           .sinks = all_sinks}}};
}

language_facts rust() {
  return {
      .language = lang::rust,
      .id = "rust",
      .display = "Rust",
      .interpreter = {"@/rust_script"},
      .package = "rustc",
      .out = {line, line,
              "Rust library/std/src/io/stdio.rs: stdout is a LineWriter whatever the sink "
              "(rust-lang/rust#60673)"},
      .err = {none, none, "Rust library/std/src/io/stdio.rs: 'Stderr is not buffered'"},
      .fast_exit_flushes = true,
      .fast_exit_source =
          "Rust library/std/src/process.rs exit: calls rt::cleanup, which flushes stdout",
      .has_abort = true,
      .switches = {
          {.name = "rust.bufwriter",
           .source = "Rust std docs, BufWriter: writes its buffer when full, on flush or on drop",
           .claim = "BufWriter over stdout: fully buffered on every sink, even a terminal",
           .before = "buffer full; ",
           .visible = 0,
           .sinks = all_sinks},
          {.name = "rust.linewriter",
           .source = "Rust std docs, LineWriter: flushes whenever a newline is written",
           .claim = "LineWriter over stdout: line buffered on every sink",
           .before = "buffer line; ",
           .visible = 4,
           .sinks = all_sinks},
          {.name = "rust.unbuffered_fd",
           .source = "Rust std docs, File: no buffering; stdio.rs: stdout always has a LineWriter",
           .claim = "a File on fd 1 instead of stdout(): unbuffered",
           .before = "buffer none; ",
           .visible = 6,
           .sinks = all_sinks}}};
}

}  // namespace

const char* to_string(buffer_mode m) noexcept {
  switch (m) {
    case buffer_mode::none: return "unbuffered";
    case buffer_mode::line: return "line buffered";
    case buffer_mode::full: return "fully buffered";
  }
  return "?";
}

/// Built on first use: the catalogue may be built during static
/// initialization, by a test's parameter list.
const std::vector<language_facts>& language_table() {
  static const std::vector<language_facts> table = {
      {.language = lang::c, .id = "c", .display = "C"},
      {.language = lang::cxx, .id = "cxx", .display = "C++"},
      python(),
      node(),
      perl(),
      ruby(),
      java(),
      go(),
      rust()};
  return table;
}

const language_facts& facts_of(lang l) {
  for (const auto& f : language_table())
    if (f.language == l) return f;
  throw std::logic_error("the language table has no row for a language");
}

std::vector<lang> runtimes(bool with_abort) {
  std::vector<lang> out;
  for (const auto& f : language_table())
    if (is_runtime(f.language) && (f.has_abort || !with_abort)) out.push_back(f.language);
  return out;
}

const char* to_string(lang l) noexcept { return facts_of(l).id; }
const char* display_name(lang l) noexcept { return facts_of(l).display; }

std::optional<lang> parse_lang(std::string_view id) noexcept {
  for (const auto& f : language_table())
    if (id == f.id) return f.language;
  return std::nullopt;
}

}  // namespace flushcheck
