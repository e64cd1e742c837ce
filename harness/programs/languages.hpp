#pragma once
/// One table of what flushcheck knows of each language it runs, as
/// traced_calls.hpp is for system calls: its names, the programs that are it,
/// how its interpreter of the script language starts (targets/runtimes/),
/// what its documentation says of its standard streams, and the switches
/// that change their buffering. The catalogue's runtime and switch rows,
/// runtime discovery, program detection, the run's notes and doctor's fixes
/// all read it. C and C++ give names only: their libraries are the model's.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "profile.hpp"
#include "sink_kind.hpp"

namespace flushcheck {

enum class buffer_mode { none, line, full };
/// "unbuffered", "line buffered", "fully buffered".
const char* to_string(buffer_mode m) noexcept;

/// A standard stream's documented buffering on a terminal and elsewhere.
struct stream_facts {
  buffer_mode tty = buffer_mode::none, other = buffer_mode::none;
  const char* source = "";
};

/// A switch as doctor tries it on a program it did not write: variables
/// ("{helpers}" stands for doctor's helpers directory) and interpreter
/// arguments, the variables first.
struct switch_fix {
  const char* name;    ///< "PYTHONUNBUFFERED=1", as doctor names it
  const char* advice;  ///< what to change, for people
  const char* source;
  std::vector<std::string> env = {};
  std::vector<std::string> args = {};
  bool stderr_too = false;  ///< it changes stderr as well as stdout
};

/// What the catalogue checks of a switch.
enum class switch_promise {
  visible_at_marker,         ///< of "AAA\nBB", `visible` bytes at the reader at the marker
  large_write_survives_exit  ///< a 1 MiB write, then the fast exit: every byte arrives
};

/// A documented way to change a runtime's buffering: one row of the
/// catalogue's `switches` section, and a doctor fix where one can be tried
/// from outside the program.
struct buffer_switch {
  const char* name;  ///< the catalogue's row: "python.u_flag"
  const char* source;
  const char* claim;
  std::vector<std::string> flags = {};  ///< to the interpreter, before the script
  std::string env = "";                 ///< one VAR=VALUE the row sets, or ""
  std::string before = "";              ///< script ops before the writes ("buffer line; ")
  switch_promise promise = switch_promise::visible_at_marker;
  std::size_t visible = 0;  ///< 6 unbuffered, 4 line buffered, 0 fully buffered
  std::vector<sink_kind> sinks = {};
  const char* note = nullptr;  ///< env: what the run's notes say of it when set
  std::optional<switch_fix> fix = std::nullopt;
};

/// One language: a row of the table.
struct language_facts {
  lang language;
  const char* id;       ///< "python": in case ids and JSON
  const char* display;  ///< "Python": in labels and reports
  /// File names that are this runtime, alone or with a version after them
  /// ("python3.11", "nodejs"; "node_exporter" is none).
  std::vector<std::string> programs = {};
  /// The interpreter of the script language: "@" stands for the runtimes
  /// directory; a first word without '/' is looked up on the clean PATH.
  std::vector<std::string> interpreter = {};
  const char* package = "";  ///< the Debian package that provides the runtime
  stream_facts out = {}, err = {};
  bool fast_exit_flushes = false;  ///< does the fast exit (`_exit`) deliver what stdout holds?
  const char* fast_exit_source = "";
  bool has_abort = false;  ///< the script language's `abort` (Java and Go have none)
  /// Why a program of this runtime holds stdout back from a pipe or a file,
  /// as doctor explains a loss; "" where the runtime itself does not.
  const char* held_because = "";
  std::vector<buffer_switch> switches = {};
};

/// C, C++, then Python, Node.js, Perl, Ruby, Java, Go, Rust.
const std::vector<language_facts>& language_table();
/// L's row (every lang has one).
const language_facts& facts_of(lang l);
/// The runtimes, in the table's order; with ABORT, those that have an abort.
std::vector<lang> runtimes(bool with_abort = false);

}  // namespace flushcheck
