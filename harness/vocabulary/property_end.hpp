#pragma once
/// How a property's run ends, the word gate files ([property.promise]),
/// the property search, the durability table and reports share.
#include <optional>
#include <string>
#include <vector>

namespace flushcheck {

/// The ways a generated run ends: the workload's own end op (`throw`: an
/// uncaught exception in the driver's language), a signal from the harness,
/// or a write that fails (then the workload returns).
enum class property_end { return_, exit, underscore_exit, abort, throw_, term, kill, fault };
/// Every end, in the order reports list them.
const std::vector<property_end>& property_ends();
/// Its key in [property.promise]: "return", "exit", "_exit", "abort", "throw",
/// "TERM", "KILL", "fault".
std::string end_name(property_end e);
std::optional<property_end> parse_end(const std::string& name);
/// TERM and KILL: the harness cuts the run (at a marker, a write or a time).
bool is_cut(property_end e);

}  // namespace flushcheck
