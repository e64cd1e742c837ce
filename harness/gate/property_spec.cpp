// The names of a property's ends and promises (property_spec.hpp).
#include "property_spec.hpp"

#include <algorithm>
#include <iterator>

#include "logger_table.hpp"

namespace flushcheck {

const std::vector<std::string>& workload_levels() {
  static const std::vector<std::string> levels = {"debug", "info", "warn", "error"};
  return levels;
}

std::string_view term_name(promise_term_id t) {
  constexpr std::string_view names[] = {"all",
                                        "through_last_flush",
                                        "prefix",
                                        "each_once",
                                        "in_order",
                                        "no_torn_record",
                                        "through_last_level",
                                        "lost_at_most",
                                        "max_writes_per_record"};
  static_assert(std::size(names) == promise_term_count,
                "a name for every promise_term_id, in its order");
  return names[static_cast<std::size_t>(t)];
}

std::string promise::text() const {
  using id = promise_term_id;
  std::string s;
  auto add = [&s](id t, const std::string& value = "") {
    s += (s.empty() ? "" : ", ") + std::string(term_name(t)) + value;
  };
  if (all) add(id::all);
  if (through_last_flush) add(id::through_last_flush);
  if (through_last_level) add(id::through_last_level, " " + workload_levels()[*through_last_level]);
  if (prefix) add(id::prefix);
  if (each_once) add(id::each_once);
  if (in_order) add(id::in_order);
  if (lost_at_most) add(id::lost_at_most, " " + std::to_string(*lost_at_most));
  if (no_torn_record)
    add(id::no_torn_record, torn_pattern.empty() ? "" : " '" + torn_pattern + "'");
  if (max_writes_per_record > 0)
    add(id::max_writes_per_record, " " + loggers::ratio_text(max_writes_per_record));
  return s.empty() ? "nothing" : s;
}

std::string promised_term::text() const {
  return std::string(term_name(id)) + (value.empty() ? "" : " " + value) + " at " + end_name(end) +
         (as_prefix ? " (as a prefix)" : "");
}

void promise::add(const promise& always) {
  all = all || always.all;
  through_last_flush = through_last_flush || always.through_last_flush;
  if (always.through_last_level)
    through_last_level = std::min(through_last_level.value_or(3), *always.through_last_level);
  prefix = prefix || always.prefix;
  each_once = each_once || always.each_once;
  in_order = in_order || always.in_order;
  if (always.lost_at_most)
    lost_at_most = std::min(lost_at_most.value_or(*always.lost_at_most), *always.lost_at_most);
  no_torn_record = no_torn_record || always.no_torn_record;
  if (torn_pattern.empty()) torn_pattern = always.torn_pattern;
  if (max_writes_per_record == 0 ||
      (always.max_writes_per_record > 0 && always.max_writes_per_record < max_writes_per_record))
    max_writes_per_record = always.max_writes_per_record;
}

void property_spec::complete() {
  if (sinks.empty())
    sinks = in.is_out() ? std::vector{sink_kind::pipe, sink_kind::pty, sink_kind::file}
                        : std::vector{sink_kind::pipe};
  if (levels.empty()) levels = workload_levels();
  if (cuts.empty()) cuts = {kill_plan::when_kind::marker, kill_plan::when_kind::write};
  if (faults.empty()) faults = {"ENOSPC", "EIO", "EAGAIN", "short"};
  if (command.empty()) command = argv;
  if (raw_env.empty()) raw_env = env;
  if (raw_watch.empty()) raw_watch = watch;
  if (raw_in.empty()) raw_in = in.text();
}

}  // namespace flushcheck
