#include "outcome_wire.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "error.hpp"
#include "gate_wire.hpp"

namespace flushcheck {

namespace {

/// The next number as one of COUNT enumerators of E; WHAT names it in the error.
template <typename E>
E enumerator(wire_reader& r, std::size_t count, const char* what) {
  const std::int64_t v = r.i64();
  if (v < 0 || v >= static_cast<std::int64_t>(count))
    throw_error(std::make_error_code(std::errc::bad_message), what);
  return static_cast<E>(v);
}

/// The next text as what PARSE makes of it (a vocabulary word sent by its
/// name, as gate_wire sends a check); WHAT names it in the error.
template <typename Parse>
auto word(wire_reader& r, Parse parse, const char* what) {
  const auto v = parse(r.text());
  if (!v) throw_error(std::make_error_code(std::errc::bad_message), what);
  return *v;
}

void put(wire_writer& w, const case_plan& p) {
  w.texts(p.workload);
  w.text(p.cut).flag(p.fault.has_value()).text(p.fault.value_or("")).text(p.end);
  w.text(to_string(p.sink));
  w.flag(p.threaded).i64(p.logged).flag(p.logged_exactly).i64(p.before_last_flush);
  for (long n : p.through_level) w.i64(n);
  w.flag(p.ordinary);
}

case_plan plan(wire_reader& r) {
  case_plan p;
  p.workload = r.texts();
  p.cut = r.text();
  const bool fault = r.flag();
  if (std::string f = r.text(); fault) p.fault = std::move(f);
  p.end = r.text();
  p.sink = word(r, parse_sink_kind, "a case's sink");
  p.threaded = r.flag();
  p.logged = r.i64();
  p.logged_exactly = r.flag();
  p.before_last_flush = r.i64();
  for (long& n : p.through_level) n = r.i64();
  p.ordinary = r.flag();
  return p;
}

void put(wire_writer& w, const promised_term& t) {
  w.i64(static_cast<std::int64_t>(t.id)).text(t.value).text(end_name(t.end)).flag(t.as_prefix);
}

promised_term term(wire_reader& r) {
  promised_term t;
  t.id = enumerator<promise_term_id>(r, promise_term_count, "an outcome's promise term");
  t.value = r.text();
  t.end = word(r, parse_end, "an outcome's end");
  t.as_prefix = r.flag();
  return t;
}

void put(wire_writer& w, const std::optional<case_derivation>& d) {
  w.flag(d.has_value());
  if (!d) return;
  w.i64(d->cuts).i64(d->verified).i64(d->at).text(d->not_derived).text(d->detail);
}

std::optional<case_derivation> derivation(wire_reader& r) {
  if (!r.flag()) return std::nullopt;
  case_derivation d;
  d.cuts = r.i64();
  d.verified = r.i64();
  d.at = r.i64();
  d.not_derived = r.text();
  d.detail = r.text();
  return d;
}

}  // namespace

std::string encode_outcome(const workload_outcome& out) {
  wire_writer w;
  put(w, out.plan);
  w.i64(static_cast<std::int64_t>(out.error_kind)).text(out.error).flag(out.out_of_budget);
  w.text(out.missed);
  w.count(out.terms.size());
  for (const auto& t : out.terms) put(w, t);
  w.count(out.checks.size());
  for (const auto& c : out.checks) put_check(w, c);
  w.text(out.status).text(out.repro).text(out.driver_stderr);
  w.i64(out.processes);
  put(w, out.derivation);
  return w.take();
}

workload_outcome decode_outcome(const std::string& bytes) {
  wire_reader r(bytes);
  workload_outcome out;
  out.plan = plan(r);
  out.error_kind = enumerator<case_error>(r, case_error_count, "an outcome's error kind");
  out.error = r.text();
  out.out_of_budget = r.flag();
  out.missed = r.text();
  for (std::size_t n = r.count(); n > 0; --n) out.terms.push_back(term(r));
  for (std::size_t n = r.count(); n > 0; --n) out.checks.push_back(read_check(r));
  out.status = r.text();
  out.repro = r.text();
  out.driver_stderr = r.text();
  out.processes = static_cast<int>(r.i64());
  out.derivation = derivation(r);
  r.end();
  return out;
}

}  // namespace flushcheck
