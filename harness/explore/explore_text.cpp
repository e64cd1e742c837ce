// explore's table for people: a block per sink, a row per cut.
#include <sstream>

#include "escape.hpp"
#include "explore.hpp"
#include "signals.hpp"
#include "text_table.hpp"

namespace flushcheck {

namespace {

/// cut, signal, ended, survived, lost.
const std::vector<text_column> k_columns = {
    {.width = 16}, {.width = 7}, {.width = 22}, {.width = 18}, {.width = 0}};

/// The lines a cut lost: the first four, then how many in all; "-" for none.
std::string lost_text(const explored_cut& c) {
  std::string lost;
  for (std::size_t i = 0; i < c.lost.size() && i < 4; ++i)
    lost += (i ? " | " : "") + printable(c.lost[i], 24);
  if (c.lines_lost > 4 || c.lines_lost > c.lost.size())
    lost += " | ... (" + std::to_string(c.lines_lost) + " lines)";
  if (lost.empty()) lost = "-";
  return lost;
}

/// The reference's whole lines that survived a cut, and the bytes of its torn tail.
std::string survived_text(const explored_cut& c, std::size_t ref_lines) {
  std::string survived =
      std::to_string(c.lines_survived) + "/" + std::to_string(ref_lines) + " lines";
  if (!c.torn.empty())
    survived += " +" + std::to_string(c.fault ? c.torn.size() : c.bytes - c.whole_bytes) + "B";
  return survived;
}

/// One cut's row: what it was, how the run ended, what survived, what was lost.
std::string cut_row(const explored_cut& c, std::size_t ref_lines) {
  const std::string lost = lost_text(c);
  const std::string survived = survived_text(c, ref_lines);
  std::string what = c.fault ? c.fault->text() : c.cut.when_text();
  std::string sig = c.fault ? "-" : signal_name(c.cut.signal);
  const std::string ended = c.derived     ? "killed (derived)"  // a KILL cut, not run
                            : c.delivered ? c.status.describe()
                            : c.fault     ? "(not applied)"
                                          : "(not reached)";
  return text_row("  ", k_columns, {what, sig, ended, survived, lost}) +
         (c.prefix  ? ""
          : c.fault ? "  (a gap)"
                    : "  NOT A PREFIX") +
         "\n";
}

/// What the uncut run wrote, how often its stream's file was synced, and its notes.
void write_reference(std::ostream& os, const explored_sink& s) {
  os << (s.on_stderr ? "stderr=" : "stdout=") << to_string(s.sink) << ": the uncut run wrote "
     << s.reference_lines << " lines (" << s.reference_bytes << " bytes) in " << s.writes
     << " write calls, " << s.markers << " markers, and " << s.reference.status.describe() << "\n";
  if (s.syncs > 0)
    os << "  " << (s.on_stderr ? "stderr's" : "stdout's") << " file was synced " << s.syncs
       << (s.syncs == 1 ? " time" : " times")
       << ": each write a sync follows is cut right after it too (after-write:N)\n";
  for (const auto& n : s.reference.notes) os << "  note: " << n << "\n";
}

/// How the KILL cuts at write boundaries were had: derived from the uncut
/// run and checked by a sample, or each run, and why.
void write_derivation(std::ostream& os, const cut_derivation& d) {
  if (!d.disagreed.empty())
    os << "  not deterministic: " << d.disagreed << "; so every cut shown was run\n";
  else if (!d.not_derived.empty())
    os << "  each cut run, none derived: " << d.not_derived << "\n";
  else
    os << "  derived: " << d.derived << " KILL cuts at writes, from the uncut run's trace; "
       << d.verified << " of them run for real, as derived; " << d.torn << " tear a line\n";
}

/// How many cuts the table shows: all of them, or a sample.
void write_cut_count(std::ostream& os, const explored_sink& s) {
  if (s.sampled)
    os << "  sampled: " << s.cuts.size() << " of " << s.cuts_total
       << " cuts shown (evenly spaced, and those run to check a derivation; --max-cuts to "
          "change)\n";
  else
    os << "  exhaustive: " << s.cuts.size() << " cuts\n";
  write_derivation(os, s.derivation);
}

}  // namespace

std::string to_text(const std::vector<explored_sink>& result) {
  std::ostringstream os;
  for (const auto& s : result) {
    write_reference(os, s);
    write_cut_count(os, s);
    os << text_row("  ", k_columns, {"cut", "signal", "ended", "survived", "lost"}) << "\n";
    for (const auto& c : s.cuts) os << cut_row(c, s.reference_lines);
  }
  return terminal_text(os.str());
}

}  // namespace flushcheck
