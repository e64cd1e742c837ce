#pragma once
// A saved matrix record is untrusted input (it comes from another machine, a
// CI artifact, anyone): its shape and types are checked whole before
// anything reads it, so that a bad one is one line and exit 2, never a
// crash, a silent gap or a wrong verdict.
#include <nlohmann/json.hpp>

namespace flushcheck {

/// Throws usage_error naming the first field that is wrong and why ("rows[3]
/// .cells[1].pass: a string, expected true or false"; "columns[2].name:
/// 'default' twice"; "columns[0].tally.required.pass: -1, expected a count").
/// What it does not know (a field a later flushcheck added) passes.
void check_record(const nlohmann::json& record);

}  // namespace flushcheck
