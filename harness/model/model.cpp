// The reference model's entry: a script validated, then run through one
// simulation (model_simulation.hpp); docs/model.md says what each part
// rests on.
#include "model.hpp"

#include "escape.hpp"
#include "model_simulation.hpp"
#include "model_validate.hpp"

namespace flushcheck {

const char* to_string(channel c) noexcept {
  switch (c) {
    case channel::c_out: return "stdout";
    case channel::c_err: return "stderr";
    case channel::cxx_out: return "cout";
    case channel::cxx_err: return "cerr+clog";
  }
  return "?";
}

int fd_of(channel c) noexcept { return c == channel::c_out || c == channel::cxx_out ? 1 : 2; }

namespace {

/// Channel C's line: the MUST and MAY prefixes of its STREAM (bounds B), of
/// the GIVEN bytes it was given.
std::string describe_channel(channel c, const std::string& stream, const byte_bounds& b,
                             std::size_t given) {
  return std::string(to_string(c)) + ": MUST " + printable(stream.substr(0, b.must), 240) + " (" +
         std::to_string(b.must) + " bytes), MAY " +
         (b.may == b.must
              ? std::string("the same")
              : printable(stream.substr(0, b.may), 240) + " (" + std::to_string(b.may) + ")") +
         ", of " + std::to_string(given) + " given\n";
}

/// A range of write calls: "3", or "3..5".
std::string call_range(const std::pair<long, long>& calls) {
  return std::to_string(calls.first) +
         (calls.second != calls.first ? ".." + std::to_string(calls.second) : "");
}

/// How many of CALLS failed or were short.
long failed_or_short(const std::vector<model_call>& calls) {
  long failed = 0;
  for (const auto& c : calls) failed += c.result < 0 || c.result < static_cast<long>(c.requested);
  return failed;
}

}  // namespace

std::string prediction::describe() const {
  std::string out;
  for (std::size_t c = 0; c < channel_count; ++c) {
    if (meant[c].empty()) continue;
    out += describe_channel(static_cast<channel>(c), stream[c], bounds[c], meant[c].size());
  }
  out += "write calls: stdout's destination " + call_range(writes[0]) + ", stderr's " +
         call_range(writes[1]) + "\n";
  const long failed = failed_or_short(calls);
  if (failed > 0 || reports > 0)
    out += std::to_string(failed) + " failed or short, " + std::to_string(reports) +
           " error reports\n";
  for (const auto& n : notes) out += "note: " + n + "\n";
  return out;
}

prediction predict(const model_setup& setup, const script& s, const kill_plan& cut) {
  detail::validate(setup, s);
  return detail::simulation(setup, s, cut).run();
}

}  // namespace flushcheck
