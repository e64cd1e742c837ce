#include "gate_expect.hpp"

#include "logger_table.hpp"
#include "signals.hpp"

namespace flushcheck {

const check_kind* find_check(std::string_view name) {
  for (const auto& k : check_kinds())
    if (k.name == name) return &k;
  return nullptr;
}

std::string check_names() {
  std::string out;
  for (const auto& k : check_kinds()) out += (out.empty() ? "" : ", ") + std::string(k.name);
  return out;
}

namespace {

/// The value of E's check as the reports say it: "49", "'B{5}'", "KILL".
std::string value_text(const gate_expect& e, check_value v) {
  switch (v) {
    case check_value::flag: return "";
    case check_value::pattern_or_flag: return e.text.empty() ? "" : " '" + e.text + "'";
    case check_value::ratio: return " " + loggers::ratio_text(e.ratio);
    case check_value::signal: return " " + signal_name(static_cast<int>(e.number));
    case check_value::marker: return " " + std::to_string(e.number) + " '" + e.text + "'";
    default: return " " + std::to_string(e.number);
  }
}

}  // namespace

std::string gate_expect::describe() const {
  const check_kind* k = find_check(check);
  std::string what = check + (k ? value_text(*this, k->value) : "");
  if (!reads_status()) what += " in " + in;
  return holds ? what : what + " (must fail)";
}

std::ostream& operator<<(std::ostream& os, const gate_check& c) {
  return os << (c.ok ? "holds: " : "does not hold: ") << c.why;
}

}  // namespace flushcheck
