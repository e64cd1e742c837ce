#include "gate_wire.hpp"

#include <cstdint>
#include <string>
#include <system_error>
#include <utility>

#include "error.hpp"

namespace flushcheck {

namespace {

/// Where a check reads, as its text; a text no write_target parses is a
/// malformed result.
write_target read_target(wire_reader& r) {
  const auto t = write_target::parse(r.text());
  if (!t)
    throw_error(std::make_error_code(std::errc::bad_message),
                "a worker's result: a check reads neither stdout, stderr nor file:NAME");
  return *t;
}

}  // namespace

void put_check(wire_writer& w, const gate_check_result& c) {
  const gate_expect& e = c.expect;
  w.text(e.in.text())
      .text(std::string(check_name(e.check)))
      .i64(e.number)
      .f64(e.ratio)
      .text(e.text)
      .flag(e.holds)
      .i64(e.line);
  w.flag(c.outcome.ok).text(c.outcome.why).flag(c.outcome.checked);
}

gate_check_result read_check(wire_reader& r) {
  gate_check_result c;
  gate_expect& e = c.expect;
  e.in = read_target(r);
  const check_kind* k = find_check(r.text());
  if (k == nullptr)
    throw_error(std::make_error_code(std::errc::bad_message),
                "a worker's result: a gate check this build does not know");
  e.check = k->id;
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

namespace {

void put_row(wire_writer& w, const loggers::row& r) {
  w.text(r.library).text(r.config).text(r.destination).text(r.death).i64(r.logged);
  w.i64(r.survived).text(r.writes_per_record).text(r.kind).text(r.note);
}

loggers::row read_row(wire_reader& r) {
  loggers::row row;
  row.library = r.text();
  row.config = r.text();
  row.destination = r.text();
  row.death = r.text();
  row.logged = r.i64();
  row.survived = r.i64();
  row.writes_per_record = r.text();
  row.kind = r.text();
  row.note = r.text();
  return row;
}

void put_arrived(wire_writer& w, const std::map<write_target, long>& arrived) {
  w.count(arrived.size());
  for (const auto& [in, n] : arrived) w.text(in.text()).i64(n);
}

std::map<write_target, long> read_arrived(wire_reader& r) {
  std::map<write_target, long> arrived;
  for (std::size_t n = r.count(); n > 0; --n) {
    const write_target in = read_target(r);
    arrived[in] = r.i64();
  }
  return arrived;
}

}  // namespace

std::string encode_case_result(const gate_case_result& c) {
  wire_writer w;
  w.text(c.name).count(c.checks.size());
  for (const auto& check : c.checks) put_check(w, check);
  w.text(c.status).text(c.repro).f64(c.seconds).text(c.error).text(c.harness_failure);
  w.flag(c.row.has_value());
  if (c.row) put_row(w, *c.row);
  put_arrived(w, c.arrived);
  return w.take();
}

gate_case_result decode_case_result(const std::string& bytes) {
  wire_reader r(bytes);
  gate_case_result c;
  c.name = r.text();
  for (std::size_t n = r.count(); n > 0; --n) c.checks.push_back(read_check(r));
  c.status = r.text();
  c.repro = r.text();
  c.seconds = r.f64();
  c.error = r.text();
  c.harness_failure = r.text();
  if (r.flag()) c.row = read_row(r);
  c.arrived = read_arrived(r);
  r.end();
  return c;
}

}  // namespace flushcheck
