#include "gate_expect.hpp"

#include "logger_table.hpp"
#include "signals.hpp"

namespace flushcheck {

const std::vector<check_kind>& check_kinds() {
  using v = check_value;
  using id = check_id;
  static const std::vector<check_kind> all{
      {id::records_through, "records_through", v::count},
      {id::records_prefix, "records_prefix", v::count},
      {id::records_at_least, "records_at_least", v::count},
      {id::in_order, "in_order", v::flag},
      {id::each_once, "each_once", v::count},
      {id::no_torn_record, "no_torn_record", v::pattern_or_flag},
      {id::max_writes_per_record, "max_writes_per_record", v::ratio},
      {id::visible_at_marker, "visible_at_marker", v::marker},
      {id::exit_code, "exit_code", v::exit_code},
      {id::signal, "signal", v::signal},
  };
  return all;
}

const check_kind& kind_of(check_id id) { return check_kinds().at(static_cast<std::size_t>(id)); }

std::string_view check_name(check_id id) { return kind_of(id).name; }

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
  std::string what = std::string(check_name(check)) + value_text(*this, kind_of(check).value);
  if (!reads_status()) what += " in " + in.text();
  return holds ? what : what + " (must fail)";
}

std::ostream& operator<<(std::ostream& os, const gate_check& c) {
  return os << (c.ok ? "holds: " : "does not hold: ") << c.why;
}

}  // namespace flushcheck
