#include "explore_wire.hpp"

#include <cstdint>
#include <string>
#include <system_error>
#include <utility>

#include "error.hpp"
#include "wire.hpp"

namespace flushcheck {

namespace {

void put(wire_writer& w, const wait_status& s) {
  w.i64(static_cast<std::int64_t>(s.type())).i64(s.code()).i64(s.signal()).flag(s.core_dumped());
}

wait_status status(wire_reader& r) {
  const std::int64_t kind = r.i64();
  const int code = static_cast<int>(r.i64()), sig = static_cast<int>(r.i64());
  const bool core = r.flag();
  switch (kind) {
    case static_cast<std::int64_t>(wait_status::kind::exited): return wait_status::exited(code);
    case static_cast<std::int64_t>(wait_status::kind::signaled):
      return wait_status::signaled(sig, core);
    case static_cast<std::int64_t>(wait_status::kind::timeout): return wait_status::timed_out(sig);
    default: throw_error(std::make_error_code(std::errc::bad_message), "a cut's status");
  }
}

/// TEXT parsed as a Plan (kill_plan, fault_plan), whose own error would
/// say "usage": bytes that do not hold one are the harness's.
template <typename Plan>
Plan plan_of(const std::string& text) {
  try {
    return Plan::parse(text);
  } catch (const usage_error& e) {
    throw_error(std::make_error_code(std::errc::bad_message),
                std::string("a cut's plan: ") + e.what());
  }
}

}  // namespace

std::string encode_cut(const explored_cut& c) {
  wire_writer w;
  w.text(c.cut.text()).flag(c.fault.has_value()).text(c.fault ? c.fault->text() : "");
  w.flag(c.delivered);
  put(w, c.status);
  w.text(c.survived).i64(static_cast<std::int64_t>(c.bytes));
  w.i64(static_cast<std::int64_t>(c.lines_survived)).i64(static_cast<std::int64_t>(c.whole_bytes));
  w.i64(static_cast<std::int64_t>(c.lines_lost)).texts(c.lost);
  w.text(c.torn).flag(c.prefix).text(c.repro).flag(c.derived);
  return w.take();
}

explored_cut decode_cut(const std::string& bytes) {
  wire_reader r(bytes);
  explored_cut c;
  c.cut = plan_of<kill_plan>(r.text());
  const bool fault = r.flag();
  if (std::string f = r.text(); fault) c.fault = plan_of<fault_plan>(f);
  c.delivered = r.flag();
  c.status = status(r);
  c.survived = r.text();
  c.bytes = static_cast<std::uint64_t>(r.i64());
  c.lines_survived = static_cast<std::size_t>(r.i64());
  c.whole_bytes = static_cast<std::uint64_t>(r.i64());
  c.lines_lost = static_cast<std::size_t>(r.i64());
  c.lost = r.texts();
  c.torn = r.text();
  c.prefix = r.flag();
  c.repro = r.text();
  c.derived = r.flag();
  r.end();
  return c;
}

}  // namespace flushcheck
