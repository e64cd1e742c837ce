#include "result_wire.hpp"

#include <cstdint>
#include <string>
#include <system_error>

#include "error.hpp"
#include "wire.hpp"

namespace flushcheck {

std::string encode_conformance_result(const case_result& r) {
  wire_writer w;
  const verdict& v = r.outcome;
  w.text(r.prop_case.id()).flag(r.asserted);
  w.flag(v.pass).text(v.observed).text(v.explanation).text(v.repro);
  w.named(v.figures);
  w.flag(v.skipped.has_value()).text(v.skipped.value_or(""));
  return w.take();
}

case_result decode_conformance_result(const std::string& bytes,
                                      const std::map<std::string, property_case>& cases) {
  wire_reader r(bytes);
  const std::string id = r.text();
  const auto c = cases.find(id);
  if (c == cases.end())
    throw_error(std::make_error_code(std::errc::bad_message), "a result of no case run: " + id);
  case_result out{c->second, {}, r.flag()};
  verdict& v = out.outcome;
  v.pass = r.flag();
  v.observed = r.text();
  v.explanation = r.text();
  v.repro = r.text();
  v.figures = r.named<std::int64_t>();
  const bool skipped = r.flag();
  std::string why = r.text();
  if (skipped) v.skipped = std::move(why);
  r.end();
  return out;
}

}  // namespace flushcheck
