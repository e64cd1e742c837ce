#pragma once
/// The doctor's reporters: plain words for people, one JSON object for
/// programs (docs/cli.md, `doctor`).
#include <string>

#include <nlohmann/json.hpp>

#include "doctor.hpp"

namespace flushcheck {

/// For people: what it is, where output is lost or late and why, the fixes.
std::string doctor_text(const doctor_report& r);
nlohmann::json doctor_json(const doctor_report& r);

}  // namespace flushcheck
