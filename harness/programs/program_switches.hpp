#pragma once
// Well-known programs' own switches, one table, each row with the
// documentation it comes from: those that make their stdout line buffered or
// unbuffered when it is not a terminal (`flushcheck doctor` tries each that
// applies as a fix, and proposes it only when its runs show that it helps),
// and those that make them write to a terminal what they write to a pipe (no
// pager, no colour: doctor proposes one when the pty run differs in content).
#include <string_view>
#include <vector>

namespace flushcheck::detail {

/// What a switch changes.
enum class switch_purpose {
  buffering,      ///< stdout line buffered or unbuffered on a pipe or a file
  plain_terminal  ///< on a terminal, the output of a pipe: no pager, no colour
};

struct program_switch {
  switch_purpose purpose = switch_purpose::buffering;
  std::vector<std::string_view> names;  ///< the program's file names it goes with
  std::vector<std::string_view> args;   ///< put right after the program's name
  std::string_view effect;              ///< for people
  std::string_view source;              ///< the documentation, quoted
};

const std::vector<program_switch>& program_switches();

/// The switch for PURPOSE of the program whose file name is NAME, or nullptr.
const program_switch* switch_of(std::string_view name,
                                switch_purpose purpose = switch_purpose::buffering);

}  // namespace flushcheck::detail
