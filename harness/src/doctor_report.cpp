// The doctor's two reporters: plain words for people, one JSON object for
// programs (docs/cli.md, `flushcheck doctor`).
#include <sstream>

#include "flushcheck/doctor_report.hpp"
#include "flushcheck/report.hpp"

namespace flushcheck {

namespace {

/// Why a program of KIND holds stdout back when it is not a terminal.
std::string why(const program_kind& k) {
  if (k.runtime == lang::python)
    return "Python block-buffers sys.stdout unless it is interactive (Python docs, sys.stdout)";
  if (k.runtime == lang::perl)
    return "Perl block-buffers STDOUT unless it is a terminal (perlvar $|)";
  if (k.runtime == lang::ruby)
    return "Ruby buffers $stdout unless it is a tty or sync is set (Ruby io.c)";
  if (k.runtime == lang::node)
    return "Node queues what a pipe cannot take, and process.exit drops the queue (Node docs, "
           "process.exit)";
  if (k.runtime == lang::java)
    return "System.out flushes every print, so a buffer of the program's own holds it "
           "(a BufferedOutputStream, a logging library)";
  if (k.elf.is_static)
    return "a static program holds output in a buffer of its own (C stdio fully buffers a "
           "stdout that is not a terminal, ISO C 7.21.3p7), and no LD_PRELOAD (stdbuf) reaches "
           "a static program";
  if (!k.recognised || k.elf.libc == libc_impl::unknown)
    return "it holds output in a buffer before writing it";
  return "C stdio fully buffers a stdout that is not a terminal (ISO C 7.21.3p7; glibc "
         "libio/filedoalloc.c, musl src/stdio/__stdout_write.c)";
}

/// " (3 cut(s) not reached: ...)" when some were, or "".
std::string unreached_clause(const diagnosis& d) {
  const std::size_t n = d.unreached();
  return n == 0 ? ""
                : " (" + std::to_string(n) +
                      " cut(s) not reached: the program ran otherwise those times)";
}

void sinks_text(std::ostream& out, const doctor_report& r) {
  for (const auto& s : r.found.sinks) {
    out << "  " << to_string(s.sink) << ": " << s.writes << " write(s), at most "
        << s.most_lines_per_write << " line(s) in one; "
        << (s.ended ? s.reference.status.describe()
                    : "still running at " + std::to_string(r.deadline.count()) + " ms");
    if (s.late_ms > diagnosis::late_threshold_ms)
      out << "; lines up to " << s.late_ms << " ms later than on the pty";
    if (s.unreached > 0) out << "; " << s.unreached << " cut(s) not reached, left out";
    out << "\n";
  }
}

void findings_text(std::ostream& out, const doctor_report& r) {
  const diagnosis& d = r.found;
  if (d.no_reference)
    out << "\nNO VERDICT: the program writes something else (or ends otherwise) on a pipe or a "
           "file than on a pty, so the pty is no reference for what it had produced.\n";
  if (const doctor_cut* w = d.worst())
    out << "\nLOST: on a " << to_string(w->sink) << ", " << w->cut << " leaves " << w->got_bytes
        << " bytes at the reader where a pty reader had " << w->pty_bytes
        << " at the same point: " << w->excess() << " bytes, " << w->lost_lines
        << " line(s) lost.\n  why: " << why(r.kind) << "\n  reproduce: " << w->repro << "\n";
  if (d.late())
    out << "\nLATE: lines arrive up to " << d.late_ms()
        << " ms later on a pipe or file than on a pty.\n  why: " << why(r.kind) << "\n";
  if (d.safe())
    out << "\nSAFE: every cut reached left at the reader what a pty reader had at the same point"
        << unreached_clause(d) << ", and no line came more than " << diagnosis::late_threshold_ms
        << " ms later than on a pty.\n";
}

void fixes_text(std::ostream& out, const doctor_report& r) {
  if (r.fixes.empty()) return;
  out << "\nfixes, each tried with the same runs:\n";
  for (const auto& f : r.fixes)
    out << "  " << (f.helps ? "helps:   " : "no help: ") << f.name << ": " << f.result << "\n"
        << "           " << f.advice << " (" << f.source << ")\n";
}

nlohmann::json cut_json(const doctor_cut& c) {
  return {{"cut", c.cut},
          {"had_bytes", c.had_bytes},
          {"pty_bytes", c.pty_bytes},
          {"got_bytes", c.got_bytes},
          {"lost_bytes", c.excess()},
          {"lost_lines", c.lost_lines},
          {"repro", bytes_as_code_points(c.repro)}};
}

nlohmann::json sink_json(const doctor_sink& s) {
  nlohmann::json cuts = nlohmann::json::array();
  for (const auto& c : s.cuts) cuts.push_back(cut_json(c));
  return {{"sink", std::string(to_string(s.sink))},
          {"ended", s.ended},
          {"status", s.reference.status.describe()},
          {"bytes", s.reference.out.bytes},
          {"writes", s.writes},
          {"most_lines_per_write", s.most_lines_per_write},
          {"late_ms", s.late_ms},
          {"cuts", cuts},
          {"cuts_not_reached", s.unreached}};
}

nlohmann::json program_json(const program_kind& k) {
  return {{"path", bytes_as_code_points(k.path)},
          {"interpreter", bytes_as_code_points(k.interpreter)},
          {"runtime", k.runtime ? nlohmann::json(to_string(*k.runtime)) : nlohmann::json(nullptr)},
          {"recognised", k.recognised},
          {"static", k.elf.is_static},
          {"libc", to_string(k.elf.libc)},
          {"cxxlib", to_string(k.elf.cxxlib)},
          {"describe", bytes_as_code_points(k.describe())}};
}

}  // namespace

std::string doctor_text(const doctor_report& r) {
  std::ostringstream out;
  out << "flushcheck doctor:";
  for (const auto& a : r.argv) out << " " << printable(a, 80);
  out << "\nprogram: " << printable(r.kind.describe(), 200) << "\n";
  for (const auto& n : r.notes) out << "note:    " << n << " (not given to the program)\n";
  out << "\n";
  sinks_text(out, r);
  findings_text(out, r);
  fixes_text(out, r);
  out << "\nverdict: " << (r.found.lost() ? "output is lost (exit 1)" : "nothing lost (exit 0)")
      << "\n";
  return out.str();
}

nlohmann::json doctor_json(const doctor_report& r) {
  nlohmann::json sinks = nlohmann::json::array(), fixes = nlohmann::json::array();
  for (const auto& s : r.found.sinks) sinks.push_back(sink_json(s));
  for (const auto& f : r.fixes)
    fixes.push_back({{"name", f.name},
                     {"advice", f.advice},
                     {"source", f.source},
                     {"helps", f.helps},
                     {"result", f.result}});
  nlohmann::json argv = nlohmann::json::array();
  for (const auto& a : r.argv) argv.push_back(bytes_as_code_points(a));
  return {{"schema", json_schema_version},
          {"argv", argv},
          {"program", program_json(r.kind)},
          {"deadline_ms", r.deadline.count()},
          {"no_reference", r.found.no_reference},
          {"lost", r.found.lost()},
          {"late_ms", r.found.late_ms()},
          {"sinks", sinks},
          {"fixes", fixes},
          {"notes", r.notes}};
}

}  // namespace flushcheck
