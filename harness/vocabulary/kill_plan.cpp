#include "kill_plan.hpp"

#include <cstdint>
#include <utility>

#include "error.hpp"
#include "file_target.hpp"
#include "parse_number.hpp"
#include "signals.hpp"

namespace flushcheck {

namespace {

/// TEXT's error: "TEXT: WHY".
usage_error bad(std::string_view text, const std::string& why) {
  return usage_error(std::string(text) + ": " + why);
}

long parse_count(std::string_view text, std::string_view whole, long max) {
  auto v = detail::parse_number(text, 0, static_cast<std::uint64_t>(max));
  if (!v)
    throw bad(whole,
              "'" + std::string(text) + "' is not a number from 0 to " + std::to_string(max));
  return static_cast<long>(*v);
}

/// Takes "file:PATH:" off the front of WHEN into PLAN; returns the rest.
std::string_view parse_file_dest(kill_plan& plan, std::string_view when, std::string_view text) {
  auto target = parse_file_target(when.substr(5), {"write:", "after-write:"}, text);
  if (!target) throw bad(text, "expected file:PATH:write:N or file:PATH:after-write:N");
  plan.file = std::move(target->glob);
  return target->when;
}

/// Takes "stdout:", "stderr:" or "file:PATH:" off the front of WHEN, which
/// must then be write:N or after-write:N; returns the rest.
std::string_view parse_dest(kill_plan& plan, std::string_view when, std::string_view text) {
  std::string_view dest = when.substr(0, when.find(':') + 1);
  if (dest == "stdout:" || dest == "stderr:") {
    plan.on_stderr = dest == "stderr:";
    when.remove_prefix(dest.size());
  } else if (dest == "file:") {
    when = parse_file_dest(plan, when, text);
  } else {
    return when;
  }
  if (!when.starts_with("write:") && !when.starts_with("after-write:"))
    throw bad(text, std::string(dest) + " goes with write:N or after-write:N only");
  return when;
}

/// SIG and WHEN of "SIG@WHEN".
struct signal_and_when {
  int signal;
  std::string_view when;
};

/// TEXT's SIG, parsed and checked, and its WHEN.
signal_and_when parse_signal_at(std::string_view text) {
  auto at = text.find('@');
  if (at == std::string_view::npos) throw bad(text, "expected SIG@WHEN, e.g. KILL@marker:2");
  auto sig = parse_signal(text.substr(0, at));
  if (!sig) throw bad(text, "unknown signal '" + std::string(text.substr(0, at)) + "'");
  return {*sig, text.substr(at + 1)};
}

/// The WHEN that WHAT names, its number N checked (markers and writes count
/// from 1).
kill_plan::when_kind when_of(std::string_view what, long n, std::string_view text) {
  if (what == "marker") {
    if (n < 1) throw bad(text, "markers count from 1");
    return kill_plan::when_kind::marker;
  }
  if (what == "time") return kill_plan::when_kind::time;
  if (what == "write" || what == "after-write") {
    if (n < 1) throw bad(text, "writes count from 1");
    return what == "write" ? kill_plan::when_kind::write : kill_plan::when_kind::after_write;
  }
  throw bad(text, "WHEN is marker:N, time:MS, write:N or after-write:N");
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
  const signal_and_when sig_when = parse_signal_at(text);
  kill_plan plan;
  plan.signal = sig_when.signal;
  std::string_view when = parse_dest(plan, sig_when.when, text);
  auto colon = when.find(':');
  std::string_view what = when.substr(0, colon);
  if (what == "never" && colon == std::string_view::npos) return {};
  if (colon == std::string_view::npos)
    throw bad(text, "WHEN is marker:N, time:MS, write:N or after-write:N");
  plan.n = parse_count(when.substr(colon + 1), text, what == "time" ? max_time_ms : max_count);
  plan.when = when_of(what, plan.n, text);
  return plan;
}

std::string_view to_string(kill_plan::when_kind w) noexcept {
  using when_kind = kill_plan::when_kind;
  switch (w) {
    case when_kind::never: break;
    case when_kind::marker: return "marker";
    case when_kind::time: return "time";
    case when_kind::write: return "write";
    case when_kind::after_write: return "after-write";
  }
  return "never";
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
