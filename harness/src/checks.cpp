#include "detail/checks.hpp"

#include <sys/stat.h>

#include <cstdio>

namespace flushcheck::detail {

std::string payload(int index, std::size_t n) {
  static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  return std::string(n, alphabet[index % 62]);
}

std::string show(const std::string& bytes) {
  std::string out = "\"";
  for (unsigned char c : bytes) {
    if (c == '\n')
      out += "\\n";
    else if (c == '\r')
      out += "\\r";
    else if (c < 0x20 || c >= 0x7f) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", c);
      out += hex;
    } else
      out += static_cast<char>(c);
    if (out.size() > 120) return out + "...\" (" + std::to_string(bytes.size()) + " bytes)";
  }
  return out + "\"";
}

namespace {
const char* name_of(stream s) { return s == stream::out ? "stdout" : "stderr"; }
const std::string& data_of(const observation& obs, stream s) {
  return s == stream::out || obs.err.sink == "stdout" ? obs.out.data : obs.err.data;
}
}  // namespace

verdict visible_is(const observation& obs, std::size_t marker, stream s, std::size_t want,
                   const std::string& claim) {
  verdict v;
  if (obs.markers.size() < marker) {
    v.pass = false;
    v.observed =
        "marker " + std::to_string(marker) + " never reached (" + obs.status.describe() + ")";
    v.explanation = claim + ": the program did not get to the cut point";
    return v;
  }
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

std::size_t sink_blksize(sink_kind s) {
  sink k = sink::open(s);
  struct stat st {};
  if (::fstat(k.child_fd(), &st) != 0) return 0;
  return static_cast<std::size_t>(st.st_blksize);
}

bool is_glibc(const impl_profile& p) { return p.libc == "glibc"; }
bool is_glibc_or_musl(const impl_profile& p) { return p.libc == "glibc" || p.libc == "musl"; }
bool is_glibc_libstdcxx(const impl_profile& p) {
  return p.libc == "glibc" && p.cxxlib == "libstdc++";
}

}  // namespace flushcheck::detail
