#pragma once
// The values an option takes, said once where the option is declared and
// read by the man page and the shell completions (man_page.hpp,
// completion.hpp). The words come from the stages' own tables: the sink
// kinds, the signals, the errnos --fault knows, the reader and keep forms.
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include "error.hpp"

namespace flushcheck::cli {

struct option_values {
  /// Whole values, or the start of one where a number follows ("time:").
  std::vector<std::string> words;
  /// For SIG@WHEN and WHAT@WHEN: the words after '@' (words then end in '@').
  std::vector<std::string> after_at;
  /// A comma-separated list of words (explore --stdout=pipe,file).
  bool comma_list = false;
};

/// Records V as OPTION's values; returns OPTION (to chain as CLI11 does).
CLI::Option* with_values(CLI::Option* option, option_values v);
/// app->add_option(NAME, TARGET, HELP) with V as its values.
template <typename T>
CLI::Option* add_option_with_values(CLI::App* app, const std::string& name, T& target,
                                    const std::string& help, option_values v) {
  return with_values(app->add_option(name, target, help), std::move(v));
}
/// OPTION's values, or nullptr for an option that takes any value or none.
const option_values* values_of(const CLI::Option* option);

option_values sink_values(bool comma_list = false);         ///< pty, pty-cooked, pipe, ...
option_values stderr_values();                              ///< the sinks and "stdout" (2>&1)
option_values stdin_values();                               ///< null, pipe, pty
option_values signal_values(bool comma_list = false);       ///< KILL, TERM, ... (explore --signal)
option_values kill_values();                                ///< never, SIG@ then WHEN
option_values fault_values();                               ///< ERRNO@ or short: then [DEST:]WHEN
option_values fault_what_values();                          ///< explore --faults: the WHATs
option_values reader_values();                              ///< prompt, paused, chunk=, ...
option_values keep_values();                                ///< all, none, head:, tail:, ends:
option_values word_values(std::vector<std::string> words);  ///< a fixed list
/// --derive=on|off on APP, into DERIVE ("on" unless given): whether KILL
/// cuts at writes are derived from one traced run (run/write_cuts.hpp);
/// HELP says what that means for the verb. derive_on() reads the value.
CLI::Option* add_derive_option(CLI::App* app, std::string& derive, const std::string& help);
/// DERIVE, as add_derive_option took it; throws usage_error for another word.
bool derive_on(const std::string& derive);
/// V without WORD (a value the option refuses: explore takes no /dev/full sink).
option_values without(option_values v, const std::string& word);
/// V's words as the help lists them: "pty | pty-cooked | pipe | ...".
std::string listed(const option_values& v);
/// WORDS with SEP between them (the help, the man page, the completion's lists).
std::string joined(const std::vector<std::string>& words, const std::string& sep);

/// PARSE()'s value for FLAG. The stages below the CLI say a bad value as
/// "VALUE: why", in the words of their API; the CLI says it as the user
/// typed it: "FLAG=VALUE: why".
template <typename Parse>
auto flag_value(const std::string& flag, Parse&& parse) -> decltype(parse()) {
  try {
    return parse();
  } catch (const usage_error& e) {
    throw usage_error(flag + "=" + e.what());
  }
}

}  // namespace flushcheck::cli
