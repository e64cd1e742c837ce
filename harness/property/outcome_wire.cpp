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

/// The next number as an enumerator of E up to LAST; WHAT names it in the error.
template <typename E>
E enumerator(wire_reader& r, E last, const char* what) {
  const std::int64_t v = r.i64();
  if (v < 0 || v > static_cast<std::int64_t>(last))
    throw_error(std::make_error_code(std::errc::bad_message), what);
  return static_cast<E>(v);
}

void put(wire_writer& w, const case_plan& p) {
  w.texts(p.workload);
  w.text(p.cut).flag(p.fault.has_value()).text(p.fault.value_or("")).text(p.end);
  w.i64(static_cast<std::int64_t>(p.sink));
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
  p.sink = enumerator(r, sink_kind::full, "a case's sink");
  p.threaded = r.flag();
  p.logged = r.i64();
  p.logged_exactly = r.flag();
  p.before_last_flush = r.i64();
  for (long& n : p.through_level) n = r.i64();
  p.ordinary = r.flag();
  return p;
}

void put(wire_writer& w, const promised_term& t) {
  w.i64(static_cast<std::int64_t>(t.id)).text(t.value).i64(static_cast<std::int64_t>(t.end));
  w.flag(t.as_prefix);
}

promised_term term(wire_reader& r) {
  promised_term t;
  t.id = enumerator(r, promise_term_id::max_writes_per_record, "an outcome's promise term");
  t.value = r.text();
  t.end = enumerator(r, property_end::fault, "an outcome's end");
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
  out.error_kind = enumerator(r, case_error::timeout, "an outcome's error kind");
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
