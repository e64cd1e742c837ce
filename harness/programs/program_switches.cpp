#include "program_switches.hpp"

#include <algorithm>

namespace flushcheck::detail {

namespace {

/// Switches that make stdout line buffered or unbuffered on a pipe.
std::vector<program_switch> buffering_switches() {
  using enum switch_purpose;
  return {
      {buffering,
       {"grep", "egrep", "fgrep"},
       {"--line-buffered"},
       "line buffered stdout",
       "info grep, --line-buffered: \"Use line buffering for standard output, regardless of "
       "output device.\""},
      {buffering,
       {"sed"},
       {"-u"},
       "unbuffered input and output",
       "info sed, -u/--unbuffered: \"Buffer both input and output as minimally as practical.\""},
      {buffering,
       {"mawk"},
       {"-Winteractive"},
       "unbuffered stdout (and stdin read by lines, whatever RS says)",
       "mawk(1): \"-W interactive sets unbuffered writes to stdout and line buffered reads from "
       "stdin\""},
      {buffering,
       {"tcpdump"},
       {"-l"},
       "line buffered stdout",
       "tcpdump(8): \"-l Make stdout line buffered. Useful if you want to see the data while "
       "capturing it.\""},
      {buffering,
       {"jq"},
       {"--unbuffered"},
       "stdout flushed after each value",
       "jq(1): \"--unbuffered: Flush the output after each JSON object is printed\""},
      {buffering,
       {"rg"},
       {"--line-buffered"},
       "line buffered stdout",
       "rg(1), --line-buffered: \"whenever a matching line is found, it will be flushed to "
       "stdout immediately\""},
      {buffering,
       {"ack"},
       {"--flush"},
       "stdout flushed at once",
       "ack --help: \"--flush Flush output immediately, even when ack is used "
       "non-interactively\""},
  };
}

/// Switches that give a terminal what a pipe gets.
std::vector<program_switch> plain_terminal_switches() {
  using enum switch_purpose;
  return {
      {plain_terminal,
       {"git"},
       {"--no-pager", "-c", "color.ui=never", "-c", "log.decorate=no"},
       "no pager, no colour and no ref names on a terminal",
       "git(1): \"--no-pager Do not pipe Git output into a pager.\"; git-config(1), color.ui: "
       "\"Set it to never if you prefer Git commands not to use color\"; log.decorate: \"If "
       "auto is specified, then if the output is going to a terminal, the ref names are shown "
       "[...], otherwise no ref names are shown.\""},
      {plain_terminal,
       {"jq"},
       {"-M"},
       "no colour on a terminal",
       "jq(1): \"By default, jq outputs colored JSON if writing to a terminal. [...] disable "
       "color with -M.\""},
      {plain_terminal,
       {"systemctl", "journalctl", "loginctl", "busctl"},
       {"--no-pager"},
       "no pager on a terminal",
       "systemctl(1), journalctl(1): \"--no-pager Do not pipe output into a pager.\""},
  };
}

}  // namespace

const std::vector<program_switch>& program_switches() {
  static const std::vector<program_switch> table = [] {
    std::vector<program_switch> all = buffering_switches();
    for (auto& s : plain_terminal_switches()) all.push_back(std::move(s));
    return all;
  }();
  return table;
}

const program_switch* switch_of(std::string_view name, switch_purpose purpose) {
  for (const auto& s : program_switches())
    if (s.purpose == purpose && std::find(s.names.begin(), s.names.end(), name) != s.names.end())
      return &s;
  return nullptr;
}

}  // namespace flushcheck::detail
