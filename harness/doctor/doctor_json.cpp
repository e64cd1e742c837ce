// The doctor's report as one JSON document (kind "doctor", docs/cli.md).
#include <cstdint>

#include "doctor_report.hpp"
#include "doctor_why.hpp"
#include "json_document.hpp"
#include "run_report.hpp"

namespace flushcheck {

namespace {

nlohmann::json cut_json(const doctor_cut& c) {
  return {{"cut", c.cut},
          {"had_bytes", c.had_bytes},
          {"pty_bytes", c.pty_bytes},
          {"got_bytes", c.got_bytes},
          {"lost_bytes", c.excess()},
          {"lost_lines", c.lost_lines},
          {"repro", bytes_as_code_points(c.repro)}};
}

nlohmann::json sink_json(const doctor_sink& s) {
  nlohmann::json cuts = nlohmann::json::array();
  for (const auto& c : s.cuts) cuts.push_back(cut_json(c));
  return {{"sink", std::string(to_string(s.sink))},
          {"ended", s.ended},
          {"limit_ms", s.limit.count()},
          {"status", s.reference.status.describe()},
          {"bytes", s.output().bytes},
          {"lines", s.lines},
          {"writes", s.writes},
          {"most_lines_per_write", s.most_lines_per_write},
          {"late_ms", s.late_ms},
          {"cuts", cuts},
          {"cuts_not_reached", s.unreached}};
}

/// What the outputs were compared around (field_mask.hpp); null: byte for byte.
nlohmann::json compared_around_json(const field_mask& m) {
  if (m.empty()) return nullptr;
  nlohmann::json varying = nlohmann::json::array();
  for (const auto& v : m.varying())
    varying.push_back({{"kind", std::string(to_string(v.kind))},
                       {"field", v.field + 1},
                       {"lines", v.lines},
                       {"example", bytes_as_code_points(v.example)}});
  std::vector<std::string> ignore;
  for (const auto& p : m.ignored()) ignore.push_back(p.text());
  return {{"varying", varying},
          {"ignore", strings_json(ignore)},
          {"describe", bytes_as_code_points(m.describe())}};
}

nlohmann::json view_json(const program_kind& k, const diagnosis& d) {
  nlohmann::json sinks = nlohmann::json::array();
  for (const auto& s : d.sinks) sinks.push_back(sink_json(s));
  return {{"stream", std::string(to_string(d.stream))},
          {"no_reference", d.no_reference},
          {"no_reference_why",
           d.no_reference ? nlohmann::json(d.no_reference_why) : nlohmann::json(nullptr)},
          {"lost", d.lost()},
          {"held", d.held() ? nlohmann::json{{"lines", d.held_lines}, {"ms", d.held_ms}}
                            : nlohmann::json(nullptr)},
          {"late_ms", d.late_ms()},
          {"safe", d.safe()},
          {"why", d.safe() || d.no_reference ? nlohmann::json(nullptr) : nlohmann::json(why(k, d))},
          {"compared_around", compared_around_json(d.mask)},
          {"sinks", sinks}};
}

nlohmann::json program_json(const program_kind& k) {
  return {{"path", bytes_as_code_points(k.path)},
          {"interpreter", bytes_as_code_points(k.interpreter)},
          {"runtime", k.runtime ? nlohmann::json(to_string(*k.runtime)) : nlohmann::json(nullptr)},
          {"recognised", k.recognised},
          {"static", k.elf.is_static},
          {"libc", to_string(k.elf.libc)},
          {"cxxlib", to_string(k.elf.cxxlib)},
          {"describe", bytes_as_code_points(k.describe())}};
}

/// The program's own switch for a plain terminal, or null.
nlohmann::json plain_terminal_json(const doctor_report& r) {
  if (!r.plain_terminal) return nullptr;
  return {{"args", r.plain_terminal->args},
          {"argv", strings_json(r.plain_terminal->argv)},
          {"effect", r.plain_terminal->effect},
          {"source", r.plain_terminal->source}};
}

/// One fix tried, and whether it helped.
nlohmann::json fix_json(const doctor_fix& f) {
  return {{"name", f.name},
          {"advice", f.advice},
          {"source", f.source},
          {"helps", f.helps},
          {"result", f.result}};
}

/// Every fix tried, those that help first.
nlohmann::json fixes_json(const std::vector<doctor_fix>& fixes) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& f : fixes) out.push_back(fix_json(f));
  return out;
}

/// The most a line came late, in any view.
std::int64_t latest_ms(const doctor_report& r) {
  std::int64_t late = 0;
  for (const auto& d : r.views) late = std::max(late, d.late_ms());
  return late;
}

/// The report's members, after the document's own (json_document).
nlohmann::json report_json(const doctor_report& r) {
  nlohmann::json views = nlohmann::json::array();
  for (const auto& d : r.views) views.push_back(view_json(r.kind, d));
  return {{"argv", strings_json(r.argv)},
          {"program", program_json(r.kind)},
          {"deadline_ms", r.deadline.count()},
          {"verdict", std::string(to_string(r.verdict()))},
          {"reordered", r.reordered()},
          {"lost", r.verdict() == doctor_verdict::lost},
          {"late_ms", latest_ms(r)},
          {"views", views},
          {"fixes", fixes_json(r.fixes)},
          {"plain_terminal", plain_terminal_json(r)},
          {"notes", r.notes}};
}

}  // namespace

nlohmann::json to_json(const doctor_report& r) {
  nlohmann::json j = json_document(json_kind::doctor);
  j.update(report_json(r));
  return j;
}

}  // namespace flushcheck
