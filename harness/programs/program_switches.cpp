#include "program_switches.hpp"

#include <algorithm>

namespace flushcheck::detail {

const std::vector<program_switch>& program_switches() {
  static const std::vector<program_switch> table = {
      {{"grep", "egrep", "fgrep"},
       {"--line-buffered"},
       "line buffered stdout",
       "info grep, --line-buffered: \"Use line buffering for standard output, regardless of "
       "output device.\""},
      {{"sed"},
       {"-u"},
       "unbuffered input and output",
       "info sed, -u/--unbuffered: \"Buffer both input and output as minimally as practical.\""},
      {{"mawk"},
       {"-Winteractive"},
       "unbuffered stdout (and stdin read by lines, whatever RS says)",
       "mawk(1): \"-W interactive sets unbuffered writes to stdout and line buffered reads from "
       "stdin\""},
      {{"tcpdump"},
       {"-l"},
       "line buffered stdout",
       "tcpdump(8): \"-l Make stdout line buffered. Useful if you want to see the data while "
       "capturing it.\""},
      {{"jq"},
       {"--unbuffered"},
       "stdout flushed after each value",
       "jq(1): \"--unbuffered: Flush the output after each JSON object is printed\""},
      {{"rg"},
       {"--line-buffered"},
       "line buffered stdout",
       "rg(1), --line-buffered: \"whenever a matching line is found, it will be flushed to "
       "stdout immediately\""},
      {{"ack"},
       {"--flush"},
       "stdout flushed at once",
       "ack --help: \"--flush Flush output immediately, even when ack is used "
       "non-interactively\""},
  };
  return table;
}

const program_switch* switch_of(std::string_view name) {
  for (const auto& s : program_switches())
    if (std::find(s.names.begin(), s.names.end(), name) != s.names.end()) return &s;
  return nullptr;
}

}  // namespace flushcheck::detail
