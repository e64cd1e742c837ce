// The doctor's two reporters: plain words for people, one JSON object for
// programs (docs/cli.md, `flushcheck doctor`).
#include <sstream>

#include "doctor_report.hpp"
#include "json_document.hpp"
#include "report.hpp"

namespace flushcheck {

namespace {

/// Why a program of KIND holds stdout back when it is not a terminal.
std::string runtime_why(const program_kind& k) {
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
  return "";
}

/// Why a native program writes in lines on a terminal and in blocks elsewhere.
std::string stdio_why(const program_kind& k) {
  if (k.elf.is_static)
    return "a static program holds output in a buffer of its own (C stdio fully buffers a "
           "stdout that is not a terminal, ISO C 7.21.3p7), and no LD_PRELOAD (stdbuf) reaches "
           "a static program";
  if (!k.recognised || k.elf.libc == libc_impl::unknown)
    return "it writes line by line to a terminal and in blocks otherwise: it holds output in a "
           "buffer before writing it";
  return "C stdio fully buffers a stdout that is not a terminal (ISO C 7.21.3p7; glibc "
         "libio/filedoalloc.c, musl src/stdio/__stdout_write.c)";
}

/// Why the stream of D is held back, from what the runs show: a reason is
/// named only where the runs bear it out (lines on the pty, blocks elsewhere).
std::string why(const program_kind& k, const diagnosis& d) {
  if (d.held())
    return "it holds its output in a buffer of its own on a terminal too (a Go bufio.Writer, a "
           "Rust BufWriter, a Java BufferedOutputStream, a logging library, setvbuf): no reader "
           "gets a line before that buffer is written";
  long elsewhere = 0;
  for (std::size_t i = 1; i < d.sinks.size(); ++i)
    elsewhere = std::max(elsewhere, d.sinks[i].writes);
  const long on_pty = d.sinks.front().writes;
  const bool out = d.stream != doctor_stream::err;
  if (out && !runtime_why(k).empty()) return runtime_why(k);
  if (on_pty > elsewhere)  // it flushes more often to a terminal
    return out ? stdio_why(k) : "it writes stderr in lines to a terminal and in blocks otherwise";
  return "it writes the same way to a terminal (" + std::to_string(on_pty) + " write(s) there, " +
         std::to_string(elsewhere) +
         " elsewhere): what a cut loses was in a buffer of its own or in a write not yet made";
}

/// " (3 cut(s) not reached: ...)" when some were, or "".
std::string unreached_clause(const diagnosis& d) {
  const std::size_t n = d.unreached();
  return n == 0 ? ""
                : " (" + std::to_string(n) +
                      " cut(s) not reached: the program ran otherwise those times)";
}

void sinks_text(std::ostream& out, const doctor_report& r, const diagnosis& d) {
  for (const auto& s : d.sinks) {
    out << "  " << to_string(s.sink) << ": " << s.writes << " write(s), at most "
        << s.most_lines_per_write << " line(s) in one; "
        << (s.ended ? s.reference.status.describe()
                    : "still running at " + std::to_string(r.deadline.count()) + " ms");
    if (s.late_ms > diagnosis::late_threshold_ms)
      out << "; lines up to " << s.late_ms << " ms after the program produced them";
    if (s.unreached > 0) out << "; " << s.unreached << " cut(s) not reached, left out";
    out << "\n";
  }
}

void lost_text(std::ostream& out, const doctor_report& r, const diagnosis& d) {
  const doctor_cut* w = d.worst();
  if (w == nullptr) return;
  out << "LOST: on a " << to_string(w->sink) << ", " << w->cut << " leaves " << w->got_bytes
      << " bytes at the reader where a pty reader had " << w->pty_bytes
      << " at the same point: " << w->lost_lines << " line(s), " << w->excess()
      << " bytes lost.\n  why: " << why(r.kind, d) << "\n  reproduce: " << w->repro << "\n";
}

void findings_text(std::ostream& out, const doctor_report& r, const diagnosis& d) {
  if (d.no_reference && d.stream == doctor_stream::merged)
    out << "ORDER: with 2>&1 on a pipe or a file, stdout's and stderr's lines come in another "
           "order than on a pty (one of them is held back there).\n";
  else if (d.no_reference)
    out << "NO VERDICT: the program writes something else (or ends otherwise) on a pipe or a "
           "file than on a pty, so the pty is no reference for what it had produced.\n";
  lost_text(out, r, d);
  if (d.held())
    out << "HELD: on every sink, a terminal too, its first write came " << d.held_ms
        << " ms into the run with " << d.held_lines
        << " lines: all output waits for that write, and a kill before it loses it "
           "everywhere.\n  why: "
        << why(r.kind, d) << "\n";
  if (d.late())
    out << "LATE: lines reach a pipe or a file up to " << d.late_ms()
        << " ms after the program produced them (as the pty run shows).\n  why: " << why(r.kind, d)
        << "\n";
  if (d.safe())
    out << "SAFE: every cut reached left at the reader what a pty reader had at the same point"
        << unreached_clause(d) << ", and no line came more than " << diagnosis::late_threshold_ms
        << " ms after the program produced it.\n";
}

void fixes_text(std::ostream& out, const doctor_report& r) {
  if (r.fixes.empty()) return;
  out << "\nfixes, each tried with the same runs:\n";
  for (const auto& f : r.fixes)
    out << "  " << (f.helps ? "helps:   " : "no help: ") << f.name << ": " << f.result << "\n"
        << "           " << f.advice << " (" << f.source << ")\n";
}

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
          {"bytes", s.output().bytes},
          {"lines", s.lines},
          {"writes", s.writes},
          {"most_lines_per_write", s.most_lines_per_write},
          {"late_ms", s.late_ms},
          {"cuts", cuts},
          {"cuts_not_reached", s.unreached}};
}

nlohmann::json view_json(const program_kind& k, const diagnosis& d) {
  nlohmann::json sinks = nlohmann::json::array();
  for (const auto& s : d.sinks) sinks.push_back(sink_json(s));
  return {{"stream", std::string(to_string(d.stream))},
          {"no_reference", d.no_reference},
          {"lost", d.lost()},
          {"held", d.held() ? nlohmann::json{{"lines", d.held_lines}, {"ms", d.held_ms}}
                            : nlohmann::json(nullptr)},
          {"late_ms", d.late_ms()},
          {"safe", d.safe()},
          {"why", d.safe() || d.no_reference ? nlohmann::json(nullptr) : nlohmann::json(why(k, d))},
          {"sinks", sinks}};
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
  for (const auto& d : r.views) {
    out << "\n" << to_string(d.stream) << ":\n";
    sinks_text(out, r, d);
    findings_text(out, r, d);
  }
  fixes_text(out, r);
  out << "\nverdict: " << verdict_line(r) << "\n";
  return out.str();
}

nlohmann::json doctor_json(const doctor_report& r) {
  nlohmann::json views = nlohmann::json::array(), fixes = nlohmann::json::array();
  for (const auto& d : r.views) views.push_back(view_json(r.kind, d));
  for (const auto& f : r.fixes)
    fixes.push_back({{"name", f.name},
                     {"advice", f.advice},
                     {"source", f.source},
                     {"helps", f.helps},
                     {"result", f.result}});
  nlohmann::json argv = nlohmann::json::array();
  for (const auto& a : r.argv) argv.push_back(bytes_as_code_points(a));
  std::int64_t late = 0;
  for (const auto& d : r.views) late = std::max(late, d.late_ms());
  nlohmann::json j = json_document(json_kind::doctor);
  j.update(nlohmann::json{{"argv", argv},
                          {"program", program_json(r.kind)},
                          {"deadline_ms", r.deadline.count()},
                          {"verdict", std::string(to_string(r.verdict()))},
                          {"reordered", r.reordered()},
                          {"lost", r.verdict() == doctor_verdict::lost},
                          {"late_ms", late},
                          {"views", views},
                          {"fixes", fixes},
                          {"notes", r.notes}});
  return j;
}

}  // namespace flushcheck
