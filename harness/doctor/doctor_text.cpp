// The doctor's report for people: what the program is, where its output is
// lost or late and why, the fixes tried, the verdict.
#include <sstream>

#include "doctor_report.hpp"
#include "doctor_why.hpp"
#include "escape.hpp"
#include "repro.hpp"

namespace flushcheck {

namespace {

/// " (3 cut(s) not reached: ...)" when some were, or "".
std::string unreached_clause(const diagnosis& d) {
  const std::size_t n = d.unreached();
  return n == 0 ? ""
                : " (" + std::to_string(n) +
                      " cut(s) not reached: the program ran otherwise those times)";
}

void sinks_text(std::ostream& out, const diagnosis& d) {
  for (const auto& s : d.sinks) {
    out << "  " << to_string(s.sink) << ": " << s.writes << " write(s), at most "
        << s.most_lines_per_write << " line(s) in one; "
        << (s.ended ? s.reference.status.describe()
                    : "still running at " + std::to_string(s.limit.count()) + " ms");
    if (s.late_ms > diagnosis::late_threshold_ms)
      out << "; lines up to " << s.late_ms << " ms after the program produced them";
    if (s.unreached > 0) out << "; " << s.unreached << " cut(s) not reached, left out";
    out << "\n";
  }
}

/// What the outputs were compared around, when not byte for byte.
void compared_text(std::ostream& out, const diagnosis& d) {
  if (!d.mask.empty()) out << "  " << d.mask.describe() << "\n";
}

void lost_text(std::ostream& out, const doctor_report& r, const diagnosis& d) {
  const doctor_cut* w = d.worst();
  if (w == nullptr) return;
  out << "LOST: on a " << to_string(w->sink) << ", " << w->cut << " leaves " << w->got_bytes
      << " bytes at the reader where a pty reader had " << w->pty_bytes
      << " at the same point: " << w->lost_lines << " line(s), " << w->excess()
      << " bytes lost.\n  why: " << why(r.kind, d) << "\n  reproduce: " << w->repro << "\n";
}

/// When the pty was no reference: 2>&1 came in another order, or no verdict.
void no_reference_text(std::ostream& out, const doctor_report& r, const diagnosis& d) {
  if (d.no_reference && d.stream == doctor_stream::merged && r.reordered())
    out << "ORDER: with 2>&1 on a pipe or a file, stdout's and stderr's lines come in another "
           "order than on a pty (one of them is held back there).\n";
  else if (d.no_reference)
    out << "NO VERDICT: the pty is no reference for what the program had produced: "
        << d.no_reference_why << ".\n";
}

/// When output was held on every sink: when the first write came, and why.
void held_text(std::ostream& out, const doctor_report& r, const diagnosis& d) {
  if (d.held())
    out << "HELD: on every sink, a terminal too, its first write came " << d.held_ms
        << " ms into the run with " << d.held_lines
        << " lines: all output waits for that write, and a kill before it loses it "
           "everywhere.\n  why: "
        << why(r.kind, d) << "\n";
}

/// When lines came late on a pipe or a file: by how much, and why.
void late_text(std::ostream& out, const doctor_report& r, const diagnosis& d) {
  if (d.late())
    out << "LATE: lines reach a pipe or a file up to " << d.late_ms()
        << " ms after the program produced them (as the pty run shows).\n  why: " << why(r.kind, d)
        << "\n";
}

/// When nothing was lost, held or late: what every cut left.
void safe_text(std::ostream& out, const diagnosis& d) {
  if (d.safe())
    out << "SAFE: every cut reached left at the reader what a pty reader had at the same point"
        << unreached_clause(d) << ", and no line came more than " << diagnosis::late_threshold_ms
        << " ms after the program produced it.\n";
}

void findings_text(std::ostream& out, const doctor_report& r, const diagnosis& d) {
  no_reference_text(out, r, d);
  lost_text(out, r, d);
  held_text(out, r, d);
  late_text(out, r, d);
  safe_text(out, d);
}

/// The command line, what the program is, and the caller's variables it did not get.
void header_text(std::ostream& out, const doctor_report& r) {
  out << "flushcheck doctor:";
  for (const auto& a : r.argv) out << " " << printable(a, 80);
  out << "\nprogram: " << printable(r.kind.describe(), 200) << "\n";
  for (const auto& n : r.notes) out << "note:    " << n << " (not given to the program)\n";
}

void fixes_text(std::ostream& out, const doctor_report& r) {
  if (r.fixes.empty()) return;
  out << "\nfixes, each tried with the same runs:\n";
  for (const auto& f : r.fixes)
    out << "  " << (f.helps ? "helps:   " : "no help: ") << f.name << ": " << f.result << "\n"
        << "           " << f.advice << " (" << f.source << ")\n";
}

/// The program's own switch for a plain terminal, to run doctor again with.
void plain_terminal_text(std::ostream& out, const doctor_report& r) {
  if (r.plain_terminal) {
    out << "\nits own switch gives a terminal what a pipe gets (" << r.plain_terminal->effect
        << "); try:\n  flushcheck doctor -- " << command_line(r.plain_terminal->argv, 400)
        << "\n  (" << r.plain_terminal->source << ")\n";
  }
}

}  // namespace

std::string verdict_line(const doctor_report& r) {
  switch (r.verdict()) {
    case doctor_verdict::lost: return "output is lost (exit 1)";
    case doctor_verdict::held: return "output is held until late on every sink (exit 1)";
    case doctor_verdict::no_verdict: return "no verdict: the pty is no reference (exit 6)";
    case doctor_verdict::late: return "nothing lost, but lines come late (exit 0)";
    case doctor_verdict::safe: break;
  }
  return "nothing lost (exit 0)";
}

std::string to_text(const doctor_report& r) {
  std::ostringstream out;
  header_text(out, r);
  for (const auto& d : r.views) {
    out << "\n" << to_string(d.stream) << ":\n";
    sinks_text(out, d);
    compared_text(out, d);
    findings_text(out, r, d);
  }
  fixes_text(out, r);
  plain_terminal_text(out, r);
  out << "\nverdict: " << verdict_line(r) << "\n";
  return terminal_text(out.str());
}

}  // namespace flushcheck
