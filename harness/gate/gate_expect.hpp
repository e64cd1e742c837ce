#pragma once
/// One expectation of a gate: a check on one stream of what arrived, as a
/// gate file states it ([[case.expect]], docs/gate.md) and as
/// gate_run::expect() takes it; and a check's outcome. record_checks.hpp
/// checks it.
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "write_target.hpp"

namespace flushcheck {

/// What a check takes in a gate file, which says how it is read and described.
enum class check_value {
  flag,             ///< in_order = true
  count,            ///< records_through = 49 (0 or more)
  marker,           ///< visible_at_marker = 1 (from 1), with its text
  ratio,            ///< max_writes_per_record = 1.5
  pattern_or_flag,  ///< no_torn_record = true, or a whole-line regex
  exit_code,        ///< exit_code = 0: how the program ended
  signal,           ///< signal = "KILL": how the program ended
};

/// Each check, as code names it: the row of check_kinds() it indexes. A
/// name in a gate file or a promise becomes one in the parsers (find_check);
/// reporters say it back with check_name.
enum class check_id {
  records_through,
  records_prefix,
  records_at_least,
  in_order,
  each_once,
  no_torn_record,
  max_writes_per_record,
  visible_at_marker,
  exit_code,
  signal,
};

/// One check of an expect table: the one table of the checks (the parser
/// reads its value by `value`, the reports say it, the error lists the
/// names; a run makes its stream check by its id, record_checks.hpp).
struct check_kind {
  check_id id;
  std::string_view name;
  check_value value;
  /// exit_code and signal read how the program ended, not a stream.
  bool reads_status() const {
    return value == check_value::exit_code || value == check_value::signal;
  }
};

/// Every check, in the order docs/gate.md lists them and check_id numbers them.
const std::vector<check_kind>& check_kinds();
/// Check ID's row.
const check_kind& kind_of(check_id id);
/// "records_through": how gate files and reports name check ID.
std::string_view check_name(check_id id);
/// The check called NAME; nullptr for none.
const check_kind* find_check(std::string_view name);
/// Their names, comma-separated, for a message.
std::string check_names();

struct gate_expect {
  /// Which text: stdout, stderr, or a watched log file.
  write_target in;
  /// The check (check_id's first, records_through, unless set).
  check_id check{};
  long number = 0;    ///< its number (records, a marker, an exit code, a signal)
  double ratio = 0;   ///< max_writes_per_record
  std::string text;   ///< no_torn_record's whole-line regex; visible_at_marker's text
  bool holds = true;  ///< false: the check must fail (a wrong configuration caught)
  int line = 0;       ///< where in the file, for messages
  /// "records_through 49 in file:app.log" (how reports name it).
  std::string describe() const;
  /// exit_code and signal read how the program ended, not a stream.
  bool reads_status() const { return kind_of(check).reads_status(); }
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
