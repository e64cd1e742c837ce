#include "gate_expect.hpp"

#include "logger_table.hpp"
#include "signals.hpp"

namespace flushcheck {

std::string gate_expect::describe() const {
  std::string what = check;
  if (check == "no_torn_record")
    what += text.empty() ? "" : " '" + text + "'";
  else if (check == "max_writes_per_record")
    what += " " + loggers::ratio_text(ratio);
  else if (check == "signal")
    what += " " + signal_name(static_cast<int>(number));
  else if (check != "in_order")
    what += " " + std::to_string(number);
  if (check == "visible_at_marker") what += " '" + text + "'";
  if (!reads_status()) what += " in " + in;
  return holds ? what : what + " (must fail)";
}

std::ostream& operator<<(std::ostream& os, const gate_check& c) {
  return os << (c.ok ? "holds: " : "does not hold: ") << c.why;
}

}  // namespace flushcheck
