#include "kill_plan.hpp"

#include <cstdint>

#include "error.hpp"
#include "parse_number.hpp"
#include "signals.hpp"

namespace flushcheck {

namespace {

long parse_count(std::string_view text, std::string_view whole, long max) {
  auto v = detail::parse_number(text, 0, static_cast<std::uint64_t>(max));
  if (!v)
    throw usage_error("--kill=" + std::string(whole) + ": '" + std::string(text) +
                      "' is not a number from 0 to " + std::to_string(max));
  return static_cast<long>(*v);
}

}  // namespace

const std::vector<std::string_view>& kill_plan::when_forms() {
  static const std::vector<std::string_view> all{
      "marker:", "time:", "write:", "after-write:", "stderr:write:", "stderr:after-write:"};
  return all;
}

kill_plan kill_plan::parse(std::string_view text) {
  if (text == "never") return {};
  auto at = text.find('@');
  if (at == std::string_view::npos)
    throw usage_error("--kill=" + std::string(text) + ": expected SIG@WHEN, e.g. KILL@marker:2");
  kill_plan plan;
  auto sig = parse_signal(text.substr(0, at));
  if (!sig)
    throw usage_error("--kill=" + std::string(text) + ": unknown signal '" +
                      std::string(text.substr(0, at)) + "'");
  plan.signal = *sig;
  std::string_view when = text.substr(at + 1);
  for (std::string_view dest : {"stdout:", "stderr:"})
    if (when.starts_with(dest)) {
      plan.on_stderr = dest == "stderr:";
      when.remove_prefix(dest.size());
      if (!when.starts_with("write:") && !when.starts_with("after-write:"))
        throw usage_error("--kill=" + std::string(text) + ": " + std::string(dest) +
                          " goes with write:N or after-write:N only");
    }
  auto colon = when.find(':');
  std::string_view what = when.substr(0, colon);
  if (what == "never" && colon == std::string_view::npos) return {};
  if (colon == std::string_view::npos)
    throw usage_error("--kill=" + std::string(text) +
                      ": WHEN is marker:N, time:MS, write:N or after-write:N");
  plan.n = parse_count(when.substr(colon + 1), text, what == "time" ? max_time_ms : max_count);
  if (what == "marker") {
    plan.when = when_kind::marker;
    if (plan.n < 1) throw usage_error("--kill=" + std::string(text) + ": markers count from 1");
  } else if (what == "time") {
    plan.when = when_kind::time;
  } else if (what == "write" || what == "after-write") {
    plan.when = what == "write" ? when_kind::write : when_kind::after_write;
    if (plan.n < 1) throw usage_error("--kill=" + std::string(text) + ": writes count from 1");
  } else {
    throw usage_error("--kill=" + std::string(text) +
                      ": WHEN is marker:N, time:MS, write:N or after-write:N");
  }
  return plan;
}

std::string kill_plan::when_text() const {
  switch (when) {
    case when_kind::never: return "never";
    case when_kind::marker: return "marker:" + std::to_string(n);
    case when_kind::time: return "time:" + std::to_string(n);
    case when_kind::write: return (on_stderr ? "stderr:write:" : "write:") + std::to_string(n);
    case when_kind::after_write:
      return (on_stderr ? "stderr:after-write:" : "after-write:") + std::to_string(n);
  }
  return "never";
}

std::string kill_plan::text() const {
  if (when == when_kind::never) return "never";
  return signal_name(signal) + "@" + when_text();
}

}  // namespace flushcheck
