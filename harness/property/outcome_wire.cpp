#include "outcome_wire.hpp"

#include <cstdint>
#include <system_error>

#include "error.hpp"
#include "wire.hpp"

namespace flushcheck {

namespace {

void put(wire_writer& w, const std::vector<std::string>& v) {
  w.i64(static_cast<std::int64_t>(v.size()));
  for (const auto& s : v) w.text(s);
}

std::vector<std::string> strings(wire_reader& r) {
  const std::int64_t n = r.i64();
  if (n < 0 || n > 1 << 20)
    throw_error(std::make_error_code(std::errc::bad_message), "an outcome's list is too long");
  std::vector<std::string> v;
  for (std::int64_t k = 0; k < n; ++k) v.push_back(r.text());
  return v;
}

void put(wire_writer& w, const case_plan& p) {
  put(w, p.workload);
  w.text(p.cut).flag(p.fault.has_value()).text(p.fault.value_or("")).text(p.end).text(p.sink);
  w.flag(p.threaded).i64(p.logged).flag(p.logged_exactly).i64(p.before_last_flush);
  for (long n : p.through_level) w.i64(n);
  w.flag(p.ordinary);
}

case_plan plan(wire_reader& r) {
  case_plan p;
  p.workload = strings(r);
  p.cut = r.text();
  const bool fault = r.flag();
  if (std::string f = r.text(); fault) p.fault = std::move(f);
  p.end = r.text();
  p.sink = r.text();
  p.threaded = r.flag();
  p.logged = r.i64();
  p.logged_exactly = r.flag();
  p.before_last_flush = r.i64();
  for (long& n : p.through_level) n = r.i64();
  p.ordinary = r.flag();
  return p;
}

void put(wire_writer& w, const gate_check_result& c) {
  const gate_expect& e = c.expect;
  w.text(e.in).text(e.check).i64(e.number).f64(e.ratio).text(e.text).flag(e.holds).i64(e.line);
  w.flag(c.outcome.ok).text(c.outcome.why).flag(c.outcome.checked);
}

gate_check_result check(wire_reader& r) {
  gate_check_result c;
  gate_expect& e = c.expect;
  e.in = r.text();
  e.check = r.text();
  e.number = r.i64();
  e.ratio = r.f64();
  e.text = r.text();
  e.holds = r.flag();
  e.line = static_cast<int>(r.i64());
  c.outcome.ok = r.flag();
  c.outcome.why = r.text();
  c.outcome.checked = r.flag();
  return c;
}

}  // namespace

std::string encode_outcome(const workload_outcome& out) {
  wire_writer w;
  put(w, out.plan);
  w.i64(static_cast<std::int64_t>(out.error_kind)).text(out.error).flag(out.out_of_budget);
  w.text(out.missed);
  put(w, out.terms);
  w.i64(static_cast<std::int64_t>(out.checks.size()));
  for (const auto& c : out.checks) put(w, c);
  w.text(out.status).text(out.repro).text(out.driver_stderr);
  return w.take();
}

workload_outcome decode_outcome(const std::string& bytes) {
  wire_reader r(bytes);
  workload_outcome out;
  out.plan = plan(r);
  const std::int64_t kind = r.i64();
  if (kind < 0 || kind > static_cast<std::int64_t>(case_error::timeout))
    throw_error(std::make_error_code(std::errc::bad_message), "an outcome's error kind");
  out.error_kind = static_cast<case_error>(kind);
  out.error = r.text();
  out.out_of_budget = r.flag();
  out.missed = r.text();
  out.terms = strings(r);
  const std::int64_t checks = r.i64();
  if (checks < 0 || checks > 1 << 20)
    throw_error(std::make_error_code(std::errc::bad_message), "an outcome's checks");
  for (std::int64_t k = 0; k < checks; ++k) out.checks.push_back(check(r));
  out.status = r.text();
  out.repro = r.text();
  out.driver_stderr = r.text();
  r.end();
  return out;
}

}  // namespace flushcheck
