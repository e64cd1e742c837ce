// explore --json: every run and cut as one JSON document (docs/cli.md).
#include "explore.hpp"
#include "json_document.hpp"
#include "run_report.hpp"
#include "signals.hpp"

namespace flushcheck {

namespace {

/// One cut (or fault run): where it cut, how the run ended, what survived and what was lost.
nlohmann::json cut_json(const explored_cut& c) {
  return {{"cut", c.fault ? std::string("never") : c.cut.when_text()},
          {"signal", c.fault ? nlohmann::json() : nlohmann::json(signal_name(c.cut.signal))},
          {"fault", c.fault ? nlohmann::json(c.fault->text()) : nlohmann::json()},
          {"delivered", c.delivered},
          {"exit", to_json(c.status)},
          {"survived", bytes_as_code_points(c.survived)},
          {"bytes", c.bytes},
          {"lines", c.lines_survived},
          {"lines_lost", c.lines_lost},
          {"lost", strings_json(c.lost)},
          {"torn", bytes_as_code_points(c.torn)},
          {"prefix", c.prefix},
          {"derived", c.derived},
          {"repro", bytes_as_code_points(c.repro)}};
}

/// The uncut, traced run the cuts are compared with.
nlohmann::json reference_json(const explored_sink& s) {
  return {{"exit", to_json(s.reference.status)},
          {"bytes", s.reference_bytes},
          {"lines", s.reference_lines},
          {"writes", s.writes},
          {"syncs", s.syncs},
          {"markers", s.markers}};
}

/// How the KILL cuts at write boundaries were had (null: not said).
nlohmann::json derivation_json(const cut_derivation& d) {
  const auto text_or_null = [](const std::string& t) {
    return t.empty() ? nlohmann::json() : nlohmann::json(bytes_as_code_points(t));
  };
  return {{"derived", d.derived},
          {"verified", d.verified},
          {"torn", d.torn},
          {"not_derived", text_or_null(d.not_derived)},
          {"disagreed", text_or_null(d.disagreed)}};
}

/// One sink's exploration: its reference run and every cut.
nlohmann::json sink_json(const explored_sink& s) {
  nlohmann::json cuts = nlohmann::json::array();
  for (const auto& c : s.cuts) cuts.push_back(cut_json(c));
  return {{"stdout", std::string(to_string(s.sink))},
          {"stream", s.on_stderr ? "stderr" : "stdout"},
          {"reference", reference_json(s)},
          {"cuts_total", s.cuts_total},
          {"sampled", s.sampled},
          {"derivation", derivation_json(s.derivation)},
          {"cuts", cuts}};
}

}  // namespace

nlohmann::json to_json(const std::vector<explored_sink>& result) {
  nlohmann::json runs = nlohmann::json::array();
  for (const auto& s : result) runs.push_back(sink_json(s));
  nlohmann::json j = json_document(json_kind::explore);
  j["runs"] = runs;
  return j;
}

}  // namespace flushcheck
