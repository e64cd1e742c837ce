#include "fault_plan.hpp"

#include <cerrno>
#include <charconv>
#include <cstdint>
#include <utility>

#include "error.hpp"
#include "file_target.hpp"
#include "parse_number.hpp"

namespace flushcheck {
namespace {

[[noreturn]] void bad(std::string_view whole, const std::string& why) {
  throw usage_error(std::string(whole) + ": " + why);
}

std::int64_t count(std::string_view n, std::string_view whole, std::int64_t min) {
  auto v = detail::parse_number(n, static_cast<std::uint64_t>(min),
                                static_cast<std::uint64_t>(fault_plan::max_count));
  if (!v)
    bad(whole, "'" + std::string(n) + "' is not a number from " + std::to_string(min) + " to " +
                   std::to_string(fault_plan::max_count));
  return static_cast<std::int64_t>(*v);
}

std::string errno_list() {
  std::string out;
  for (const auto& [name, e] : fault_errnos()) out += (out.empty() ? "" : ", ") + std::string(name);
  return out;
}

void parse_what(fault_plan& f, std::string_view what, std::string_view whole) {
  if (what.starts_with("short:")) {
    // Not 0: a write of a non-empty buffer never returns 0, and stdio would
    // loop on it forever.
    f.short_bytes = count(what.substr(6), whole, 1);
    return;
  }
  for (const auto& [name, e] : fault_errnos())
    if (what == name) {
      f.error = e;
      return;
    }
  bad(whole, "unknown errno '" + std::string(what) + "' (one of " + errno_list() + ", or short:K)");
}

/// file:PATH:WHEN, REST after "file:": the path into F; returns WHEN.
std::string_view parse_file_dest(fault_plan& f, std::string_view rest, std::string_view whole) {
  auto target = parse_file_target(rest, {"write:", "random=", "every"}, whole);
  if (!target) bad(whole, "expected file:PATH:WHEN, e.g. file:/tmp/app.log:write:2");
  f.where = fault_plan::target::file;
  f.path = std::move(target->glob);
  return target->when;
}

std::string_view parse_dest(fault_plan& f, std::string_view rest, std::string_view whole) {
  if (rest.starts_with("stdout:")) return rest.substr(7);
  if (rest.starts_with("stderr:")) {
    f.where = fault_plan::target::stderr_sink;
    return rest.substr(7);
  }
  if (!rest.starts_with("file:")) return rest;
  return parse_file_dest(f, rest.substr(5), whole);
}

void parse_random(fault_plan& f, std::string_view spec, std::string_view whole) {
  auto comma = spec.find(",seed=");
  if (comma == std::string_view::npos)
    bad(whole, "random needs a seed to be repeatable: random=P,seed=S");
  std::string_view p = spec.substr(0, comma);
  auto [end, ec] = std::from_chars(p.data(), p.data() + p.size(), f.probability);
  if (p.empty() || ec != std::errc() || end != p.data() + p.size() || !(f.probability > 0) ||
      f.probability > 1)
    bad(whole, "'" + std::string(p) + "' is not a probability in (0, 1]");
  auto seed = detail::parse_number(spec.substr(comma + 6), 0, UINT64_MAX);
  if (!seed)
    bad(whole, "'" + std::string(spec.substr(comma + 6)) + "' is not a seed (0 to 2^64-1)");
  f.seed = *seed;
  f.when = fault_plan::pattern::random;
}

void parse_when(fault_plan& f, std::string_view when, std::string_view whole) {
  if (when == "every") {
    f.when = fault_plan::pattern::every;
  } else if (when.starts_with("random=")) {
    parse_random(f, when.substr(7), whole);
  } else if (when.starts_with("write:")) {
    std::string_view n = when.substr(6);
    auto x = n.find('x');
    f.n = count(n.substr(0, x), whole, 1);
    if (x != std::string_view::npos) f.times = count(n.substr(x + 1), whole, 1);
  } else {
    bad(whole, "WHEN is write:N, write:NxK, every or random=P,seed=S");
  }
}

std::uint64_t mix(std::uint64_t x) {  // splitmix64's finaliser
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace

const std::vector<std::pair<std::string_view, int>>& fault_errnos() {
  static const std::vector<std::pair<std::string_view, int>> table = {
      {"EAGAIN", EAGAIN}, {"EWOULDBLOCK", EWOULDBLOCK},
      {"EINTR", EINTR},   {"ENOSPC", ENOSPC},
      {"EIO", EIO},       {"EPIPE", EPIPE},
      {"EFBIG", EFBIG},   {"EDQUOT", EDQUOT},
      {"EBADF", EBADF}};
  return table;
}

std::string errno_name(int error) {
  for (const auto& [name, e] : fault_errnos())
    if (e == error) return std::string(name);
  return "errno " + std::to_string(error);
}

const std::vector<std::string_view>& fault_plan::when_forms() {
  static const std::vector<std::string_view> all{
      "write:", "every", "random=", "stderr:write:", "stderr:every", "file:"};
  return all;
}

fault_plan fault_plan::parse(std::string_view text) {
  auto at = text.find('@');
  if (at == std::string_view::npos) bad(text, "expected WHAT@WHEN, e.g. EAGAIN@write:3");
  fault_plan f;
  parse_what(f, text.substr(0, at), text);
  parse_when(f, parse_dest(f, text.substr(at + 1), text), text);
  return f;
}

std::string fault_plan::text() const {
  std::string out = error != 0 ? errno_name(error) : "short:" + std::to_string(short_bytes);
  out += where == target::stderr_sink ? "@stderr:"
         : where == target::file      ? "@file:" + path + ":"
                                      : "@";
  if (when == pattern::every) return out + "every";
  if (when == pattern::nth)
    return out + "write:" + std::to_string(n) + (times > 1 ? "x" + std::to_string(times) : "");
  char p[32];
  auto [end, ec] = std::to_chars(p, p + sizeof p, probability);
  return out + "random=" + std::string(p, end) + ",seed=" + std::to_string(seed);
}

bool fault_plan::selects(std::int64_t call) const noexcept {
  switch (when) {
    case pattern::every: return true;
    case pattern::nth: return call >= n && call - n < times;
    case pattern::random: {
      auto r = mix(seed + static_cast<std::uint64_t>(call) * 0x9e3779b97f4a7c15ULL);
      return static_cast<double>(r >> 11) * 0x1.0p-53 < probability;
    }
  }
  return false;
}

}  // namespace flushcheck
