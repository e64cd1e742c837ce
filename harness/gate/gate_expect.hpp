#pragma once
/// One expectation of a gate: a check on one stream of what arrived, as a
/// gate file states it ([[case.expect]], docs/gate.md) and as
/// gate_run::expect() takes it; and a check's outcome. record_checks.hpp
/// checks it.
#include <ostream>
#include <string>

namespace flushcheck {

struct gate_expect {
  /// Which text: "stdout", "stderr", or "file:NAME" (a watched log file).
  std::string in = "stdout";
  /// The check: records_through, records_prefix, records_at_least, in_order, each_once,
  /// no_torn_record, max_writes_per_record, visible_at_marker, exit_code, signal.
  std::string check;
  long number = 0;    ///< its number (records, a marker, an exit code, a signal)
  double ratio = 0;   ///< max_writes_per_record
  std::string text;   ///< no_torn_record's whole-line regex; visible_at_marker's text
  bool holds = true;  ///< false: the check must fail (a wrong configuration caught)
  int line = 0;       ///< where in the file, for messages
  /// "records_through 49 in file:app.log" (how reports name it).
  std::string describe() const;
  /// exit_code and signal read how the program ended, not a stream.
  bool reads_status() const { return check == "exit_code" || check == "signal"; }
};

/// A check's outcome: true or false, and why, for people. CHECKED is false
/// when the check could not look at all (a log file never written, a line
/// the pattern matcher gave up on): then OK is false too, and a gate that
/// expects the check to fail must not count that as a pass.
struct gate_check {
  bool ok = false;
  std::string why;
  bool checked = true;
  explicit operator bool() const noexcept { return ok; }
};
std::ostream& operator<<(std::ostream& os, const gate_check& c);

}  // namespace flushcheck
