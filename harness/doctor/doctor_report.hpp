#pragma once
/// The doctor's reporters: plain words for people, one JSON object for
/// programs (docs/cli.md, `doctor`), a page with pictures.
#include <string>

#include <nlohmann/json.hpp>

#include "doctor.hpp"
#include "doctor_pictures.hpp"

namespace flushcheck {

/// For people: what it is, where output is lost or late and why, the fixes.
std::string to_text(const doctor_report& r);
nlohmann::json to_json(const doctor_report& r);
/// "output is lost (exit 1)", ...: the verdict for people.
std::string verdict_line(const doctor_report& r);
/// One self-contained page: the verdict, PICTURES (doctor_pictures.hpp) side
/// by side, the fixes as a table, the text report.
std::string to_html(const doctor_report& r, const std::vector<doctor_picture>& pictures);

}  // namespace flushcheck
