#include "kill_plan.hpp"

#include <cstdint>

#include "error.hpp"
#include "file_target.hpp"
#include "parse_number.hpp"
#include "signals.hpp"

namespace flushcheck {

namespace {

long parse_count(std::string_view text, std::string_view whole, long max) {
  auto v = detail::parse_number(text, 0, static_cast<std::uint64_t>(max));
  if (!v)
    throw usage_error(std::string(whole) + ": '" + std::string(text) +
                      "' is not a number from 0 to " + std::to_string(max));
  return static_cast<long>(*v);
}

/// Takes "stdout:", "stderr:" or "file:PATH:" off the front of WHEN, which
/// must then be write:N or after-write:N; returns the rest.
std::string_view parse_dest(kill_plan& plan, std::string_view when, std::string_view text) {
  const auto bad = [&](const std::string& why) {
    return usage_error(std::string(text) + ": " + why);
  };
  std::string_view dest = when.substr(0, when.find(':') + 1);
  if (dest == "stdout:" || dest == "stderr:") {
    plan.on_stderr = dest == "stderr:";
    when.remove_prefix(dest.size());
  } else if (dest == "file:") {
    const std::string_view rest = when.substr(5);
    const auto end = file_target_end(rest, {"write:", "after-write:"});
    if (end == std::string_view::npos || end == 0)
      throw bad("expected file:PATH:write:N or file:PATH:after-write:N");
    if (rest.substr(0, end).find('\0') != std::string_view::npos)
      throw bad("a path cannot hold a NUL byte");
    plan.file = absolute_glob(rest.substr(0, end));
    when = rest.substr(end + 1);
  } else {
    return when;
  }
  if (!when.starts_with("write:") && !when.starts_with("after-write:"))
    throw bad(std::string(dest) + " goes with write:N or after-write:N only");
  return when;
}

}  // namespace

const std::vector<std::string_view>& kill_plan::when_forms() {
  static const std::vector<std::string_view> all{
      "marker:", "time:", "write:", "after-write:", "stderr:write:", "stderr:after-write:",
      "file:"};
  return all;
}

kill_plan kill_plan::parse(std::string_view text) {
  if (text == "never") return {};
  auto at = text.find('@');
  if (at == std::string_view::npos)
    throw usage_error(std::string(text) + ": expected SIG@WHEN, e.g. KILL@marker:2");
  kill_plan plan;
  auto sig = parse_signal(text.substr(0, at));
  if (!sig)
    throw usage_error(std::string(text) + ": unknown signal '" + std::string(text.substr(0, at)) +
                      "'");
  plan.signal = *sig;
  std::string_view when = parse_dest(plan, text.substr(at + 1), text);
  auto colon = when.find(':');
  std::string_view what = when.substr(0, colon);
  if (what == "never" && colon == std::string_view::npos) return {};
  if (colon == std::string_view::npos)
    throw usage_error(std::string(text) + ": WHEN is marker:N, time:MS, write:N or after-write:N");
  plan.n = parse_count(when.substr(colon + 1), text, what == "time" ? max_time_ms : max_count);
  if (what == "marker") {
    plan.when = when_kind::marker;
    if (plan.n < 1) throw usage_error(std::string(text) + ": markers count from 1");
  } else if (what == "time") {
    plan.when = when_kind::time;
  } else if (what == "write" || what == "after-write") {
    plan.when = what == "write" ? when_kind::write : when_kind::after_write;
    if (plan.n < 1) throw usage_error(std::string(text) + ": writes count from 1");
  } else {
    throw usage_error(std::string(text) + ": WHEN is marker:N, time:MS, write:N or after-write:N");
  }
  return plan;
}

std::string kill_plan::when_text() const {
  const std::string dest = on_stderr ? "stderr:" : file.empty() ? "" : "file:" + file + ":";
  switch (when) {
    case when_kind::never: return "never";
    case when_kind::marker: return "marker:" + std::to_string(n);
    case when_kind::time: return "time:" + std::to_string(n);
    case when_kind::write: return dest + "write:" + std::to_string(n);
    case when_kind::after_write: return dest + "after-write:" + std::to_string(n);
  }
  return "never";
}

std::string kill_plan::text() const {
  if (when == when_kind::never) return "never";
  return signal_name(signal) + "@" + when_text();
}

}  // namespace flushcheck
