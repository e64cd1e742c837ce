#include "checks.hpp"

#include <sys/stat.h>

#include "escape.hpp"
#include "flushcheck/payload.h"

namespace flushcheck::detail {

std::string payload(int index, std::size_t n) {
  return std::string(n, flushcheck_payload_char(index));
}

namespace {

bool is_record(std::string_view line, const std::vector<std::size_t>& runs) {
  for (std::size_t n : runs) {
    if (line.size() < n || n == 0) return false;
    if (line.substr(0, n).find_first_not_of(line.front()) != std::string_view::npos) return false;
    line.remove_prefix(n);
  }
  return line.empty();
}

}  // namespace

record_count count_records(std::string_view data, const std::vector<std::size_t>& runs) {
  record_count c;
  while (!data.empty()) {
    const auto nl = data.find('\n');
    ++(is_record(data.substr(0, nl), runs) ? c.whole : c.torn);
    data.remove_prefix(nl == data.npos ? data.size() : nl + 1);
  }
  return c;
}

std::string record_writers(int procs, int records, std::size_t n, const std::string& after_fork) {
  std::string s = "setvbuf none; fork " + std::to_string(procs);
  if (!after_fork.empty()) s += "; " + after_fork;
  for (int i = 0; i < records; ++i) s += "; line " + std::to_string(n);
  return s + "; exit 0";
}

std::string show(const std::string& bytes) { return "\"" + printable(bytes, 120) + "\""; }

namespace {
const char* name_of(stream s) { return s == stream::out ? "stdout" : "stderr"; }
const std::string& data_of(const observation& obs, stream s) {
  return s == stream::out || obs.err.sink.merged() ? obs.out.data : obs.err.data;
}
}  // namespace

observation run_stderr_on_sink(property_context& ctx, const std::string& script) {
  run_options o;
  o.stderr_sink = ctx.sink();
  return ctx.run(script, o);
}

namespace {

/// The verdict of CLAIM when the program never got to marker MARKER.
verdict marker_not_reached(const observation& obs, std::size_t marker, const std::string& claim) {
  verdict v;
  v.pass = false;
  v.observed =
      "marker " + std::to_string(marker) + " never reached (" + obs.status.describe() + ")";
  v.explanation = claim + ": the program did not get to the cut point";
  return v;
}

}  // namespace

verdict visible_is(const observation& obs, std::size_t marker, stream s, std::size_t want,
                   const std::string& claim) {
  if (obs.markers.size() < marker) return marker_not_reached(obs, marker, claim);
  verdict v;
  const auto& m = obs.markers[marker - 1];
  std::size_t got = s == stream::out ? m.stdout_visible : m.stderr_visible;
  v.pass = got == want;
  v.observed = std::string(name_of(s)) + " at marker " + std::to_string(marker) + ": " +
               std::to_string(got) + " bytes";
  v.explanation = claim + ": expected " + std::to_string(want) + " bytes of " + name_of(s) +
                  " at the reader at marker '" + m.label + "', saw " + std::to_string(got);
  return v;
}

verdict data_is(const observation& obs, stream s, const std::string& want,
                const std::string& claim) {
  verdict v;
  const std::string& got = data_of(obs, s);
  v.pass = got == want;
  v.observed = std::string(name_of(s)) + " " + show(got);
  v.explanation = claim + ": expected " + name_of(s) + " " + show(want) + ", received " +
                  show(got) + " (" + obs.status.describe() + ")";
  return v;
}

verdict status_is(const observation& obs, const wait_status& want) {
  verdict v;
  bool same_kind = obs.status.type() == want.type();
  v.pass = same_kind &&
           (want.type() == wait_status::kind::exited ? obs.status.code() == want.code()
                                                     : obs.status.signal() == want.signal());
  v.observed = obs.status.describe();
  v.explanation =
      "expected the program to end " + want.describe() + ", it " + obs.status.describe();
  return v;
}

verdict buffering_at_marker(const observation& obs, stream s, std::size_t want,
                            const std::string& claim) {
  verdict v = visible_is(obs, 1, s, want, claim);
  if (obs.markers.empty()) return v;
  const std::size_t got =
      s == stream::out ? obs.markers[0].stdout_visible : obs.markers[0].stderr_visible;
  if (got == 6 || got == 4 || got == 0)
    v.observed = got == 6 ? "unbuffered" : got == 4 ? "line buffered" : "fully buffered";
  return v;
}

verdict both(verdict a, const verdict& b) {
  if (!a.pass) return a;
  if (!b.pass) return b;
  a.observed += "; " + b.observed;
  return a;
}

verdict record(std::string value, std::string explanation) {
  verdict v;
  v.observed = std::move(value);
  v.explanation = std::move(explanation);
  return v;
}

bool is_glibc(const impl_profile& p) { return p.libc == libc_impl::glibc; }
bool is_glibc_or_musl(const impl_profile& p) {
  return p.libc == libc_impl::glibc || p.libc == libc_impl::musl;
}
bool is_glibc_libstdcxx(const impl_profile& p) {
  return p.libc == libc_impl::glibc && p.cxxlib == cxx_impl::libstdcxx;
}

}  // namespace flushcheck::detail
