// Each runtime's buffering switches (docs/script.md, `buffer`), each doing
// what its documentation says, on a pipe and a file (and a pty where the
// switch makes a difference there). One table, one check.
#include "checks.hpp"

namespace flushcheck::detail {
namespace {

/// One switch: how a row sets it, and what its docs promise.
struct buffer_switch {
  const char* name;  ///< "python.u_flag"
  lang language;
  std::vector<std::string> flags = {};  ///< to the interpreter, before the script
  std::string env = "";                 ///< one VAR=VALUE the row sets, or ""
  std::string before = "";              ///< ops before the writes ("buffer line; ")
  /// Bytes of "AAA\nBB" at the marker the docs promise: 6 unbuffered, 4
  /// line buffered, 0 fully buffered.
  std::size_t visible;
  std::vector<sink_kind> sinks;
  const char* source;
  const char* claim;
};

/// The switches of Python, Perl and Ruby.
std::vector<buffer_switch> script_switches() {
  return {
      {.name = "python.u_flag",
       .language = lang::python,
       .flags = {"-u"},
       .visible = 6,
       .sinks = buffered_sinks,
       .source = "Python docs, command line: -u forces stdout and stderr to be unbuffered",
       .claim = "python3 -u: stdout unbuffered on a pipe and a file"},
      {.name = "python.pythonunbuffered",
       .language = lang::python,
       .env = "PYTHONUNBUFFERED=1",
       .visible = 6,
       .sinks = buffered_sinks,
       .source = "Python docs, PYTHONUNBUFFERED: equivalent to -u",
       .claim = "PYTHONUNBUFFERED=1: stdout unbuffered on a pipe and a file"},
      {.name = "python.line_buffering",
       .language = lang::python,
       .before = "buffer line; ",
       .visible = 4,
       .sinks = buffered_sinks,
       .source = "Python docs, io.TextIOWrapper.reconfigure(line_buffering=True)",
       .claim = "sys.stdout.reconfigure(line_buffering=True): line buffered on a pipe and a file"},
      {.name = "perl.autoflush",
       .language = lang::perl,
       .before = "buffer none; ",
       .visible = 6,
       .sinks = buffered_sinks,
       .source = "perlvar $|: a flush after every print",
       .claim = "$| = 1: STDOUT unbuffered"},
      {.name = "ruby.sync",
       .language = lang::ruby,
       .before = "buffer none; ",
       .visible = 6,
       .sinks = buffered_sinks,
       .source = "Ruby docs, IO#sync=: sync mode writes at once",
       .claim = "$stdout.sync = true: unbuffered"}};
}

/// The switches of Java, Go and Rust.
std::vector<buffer_switch> compiled_switches() {
  return {
      {.name = "java.buffered_output_stream",
       .language = lang::java,
       .before = "buffer full; ",
       .visible = 0,
       .sinks = all_sinks,
       .source = "Java SE 17 API: BufferedOutputStream; PrintStream(out, autoFlush=false)",
       .claim = "a PrintStream without autoflush over a BufferedOutputStream: fully buffered"},
      {.name = "java.autoflush",
       .language = lang::java,
       .before = "buffer line; ",
       .visible = 6,
       .sinks = all_sinks,
       .source = "Java SE 17 API, PrintStream: autoflush flushes after every byte array written, "
                 "not only at '\\n'",
       .claim = "PrintStream autoflush over a BufferedOutputStream: every print is flushed"},
      {.name = "go.bufio",
       .language = lang::go,
       .before = "buffer full; ",
       .visible = 0,
       .sinks = all_sinks,
       .source = "Go docs, bufio.Writer: data is written when the buffer is full or on Flush",
       .claim = "bufio.NewWriterSize(os.Stdout, 4096): fully buffered on every sink"},
      {.name = "rust.bufwriter",
       .language = lang::rust,
       .before = "buffer full; ",
       .visible = 0,
       .sinks = all_sinks,
       .source = "Rust std docs, BufWriter: writes its buffer when full, on flush or on drop",
       .claim = "BufWriter over stdout: fully buffered on every sink, even a terminal"},
      {.name = "rust.linewriter",
       .language = lang::rust,
       .before = "buffer line; ",
       .visible = 4,
       .sinks = all_sinks,
       .source = "Rust std docs, LineWriter: flushes whenever a newline is written",
       .claim = "LineWriter over stdout: line buffered on every sink"},
      {.name = "rust.unbuffered_fd",
       .language = lang::rust,
       .before = "buffer none; ",
       .visible = 6,
       .sinks = all_sinks,
       .source = "Rust std docs, File: no buffering; stdio.rs: stdout always has a LineWriter",
       .claim = "a File on fd 1 instead of stdout(): unbuffered"}};
}

/// Every switch, by runtime: built on first use (the catalogue may be built
/// during static initialization, by a test's parameter list).
const std::vector<buffer_switch>& switches() {
  static const std::vector<buffer_switch> all = [] {
    auto v = script_switches(), more = compiled_switches();
    v.insert(v.end(), more.begin(), more.end());
    return v;
  }();
  return all;
}

verdict switch_holds(property_context& ctx, const buffer_switch& s) {
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
verdict node_set_blocking(property_context& ctx) {
  constexpr std::size_t n = 1 << 20;
  auto obs = ctx.run("buffer none; write " + std::to_string(n) + "; _exit 0");
  verdict v = data_is(obs, stream::out, payload(1, n),
                      "after process.stdout._handle.setBlocking(true), a 1 MiB write then "
                      "process.exit loses nothing");
  v.observed = std::to_string(obs.out.data.size()) + " of " + std::to_string(n) + " bytes";
  return v;
}

}  // namespace

void add_runtime_switch_properties(std::vector<property>& out) {
  for (const auto& s : switches())
    out.push_back({.name = s.name,
                   .group = "switches",
                   .level = tier::documented,
                   .source = s.source,
                   .claim = s.claim,
                   .langs = {s.language},
                   .sinks = s.sinks,
                   .check = [&s](property_context& ctx) { return switch_holds(ctx, s); }});
  out.push_back({.name = "node.set_blocking",
                 .group = "switches",
                 .level = tier::documented,
                 .source = "Node docs, process.md 'A note on process I/O'; nodejs/node#6456",
                 .claim = "setBlocking(true): a large write then process.exit loses nothing",
                 .langs = {lang::node},
                 .sinks = buffered_sinks,
                 .check = node_set_blocking});
}

}  // namespace flushcheck::detail
