#pragma once
// Well-known programs' own switches that make their stdout line buffered or
// unbuffered when it is not a terminal: one table, each row with the
// documentation it comes from. `flushcheck doctor` tries each that applies
// as a fix, and proposes it only when its runs show that it helps.
#include <string_view>
#include <vector>

namespace flushcheck::detail {

struct program_switch {
  std::vector<std::string_view> names;  ///< the program's file names it goes with
  std::vector<std::string_view> args;   ///< put right after the program's name
  std::string_view effect;              ///< for people
  std::string_view source;              ///< the documentation, quoted
};

const std::vector<program_switch>& program_switches();

/// The switch of the program whose file name is NAME, or nullptr.
const program_switch* switch_of(std::string_view name);

}  // namespace flushcheck::detail
