#pragma once
/// A gate file's [[property]] table, read (docs/gate.md, "Property gates").
/// Internal to the gate file parser; not installed.
#include <toml++/toml.h>

#include "gate_file_toml.hpp"
#include "property_spec.hpp"

namespace flushcheck {

/// Reads and checks one [[property]] table, starting from the keys of the
/// file's [defaults] (DEFAULTS, or nullptr) that a property takes; throws
/// usage_error "PATH:LINE: reason", also for a [defaults] key it cannot take.
property_spec parse_property(const gate_toml::context& cx, const toml::table& t,
                             const toml::table* defaults);

}  // namespace flushcheck
