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

std::string prediction::describe() const {
  std::string out;
  for (std::size_t c = 0; c < channel_count; ++c) {
    if (meant[c].empty()) continue;
    const auto& b = bounds[c];
    out += std::string(to_string(static_cast<channel>(c))) + ": MUST " +
           printable(stream[c].substr(0, b.must), 240) + " (" + std::to_string(b.must) +
           " bytes), MAY " +
           (b.may == b.must
                ? std::string("the same")
                : printable(stream[c].substr(0, b.may), 240) + " (" + std::to_string(b.may) + ")") +
           ", of " + std::to_string(meant[c].size()) + " given\n";
  }
  out += "write calls: stdout's destination " + std::to_string(writes[0].first) +
         (writes[0].second != writes[0].first ? ".." + std::to_string(writes[0].second) : "") +
         ", stderr's " + std::to_string(writes[1].first) +
         (writes[1].second != writes[1].first ? ".." + std::to_string(writes[1].second) : "") +
         "\n";
  long failed = 0;
  for (const auto& c : calls) failed += c.result < 0 || c.result < static_cast<long>(c.requested);
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
