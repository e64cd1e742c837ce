// The doctor's fixes: one table of changes, each with the programs it
// applies to and how a run gets it, each verified by the whole diagnosis
// run again with it.
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>

#include "flushcheck/doctor.hpp"
#include "flushcheck/error.hpp"

namespace flushcheck {

namespace {

/// A directory for the files a fix loads into a runtime, removed at the end.
class scratch_dir {
 public:
  scratch_dir() {
    const char* tmp = std::getenv("TMPDIR");
    std::string templ = std::string(tmp && *tmp ? tmp : "/tmp") + "/flushcheck-doctor-XXXXXX";
    if (!::mkdtemp(templ.data())) throw_errno("mkdtemp " + templ);
    path_ = templ;
  }
  ~scratch_dir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  scratch_dir(const scratch_dir&) = delete;
  scratch_dir& operator=(const scratch_dir&) = delete;
  /// Writes TEXT to NAME in the directory; returns its path.
  std::string file(const std::string& name, const std::string& text) const {
    std::ofstream(path_ + "/" + name) << text;
    return path_ + "/" + name;
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

struct fix_candidate {
  const char* name;
  const char* advice;
  const char* source;
  std::function<bool(const program_kind&)> applies;
  /// Changes the runs' command line or environment.
  std::function<void(doctor_options&, const program_kind&, const scratch_dir&)> apply;
};

bool is(const program_kind& k, lang l) { return k.runtime == l; }

/// ARGV with FLAG right after the interpreter: "python3 -u x.py", or for a
/// script run by its #! line, "INTERPRETER -u SCRIPT ARGS".
void add_interpreter_flag(doctor_options& o, const program_kind& k, const std::string& flag) {
  if (!k.interpreter.empty()) o.argv.insert(o.argv.begin(), k.interpreter);
  o.argv.insert(o.argv.begin() + 1, flag);
}

const std::vector<fix_candidate>& candidates() {
  static const std::vector<fix_candidate> all = {
      {"PYTHONUNBUFFERED=1", "set PYTHONUNBUFFERED=1 in its environment",
       "Python docs, PYTHONUNBUFFERED (equivalent to -u)",
       [](const program_kind& k) { return is(k, lang::python); },
       [](doctor_options& o, const program_kind&, const scratch_dir&) {
         o.env.push_back("PYTHONUNBUFFERED=1");
       }},
      {"python3 -u", "run it with python3 -u", "Python docs, command line -u",
       [](const program_kind& k) { return is(k, lang::python); },
       [](doctor_options& o, const program_kind& k, const scratch_dir&) {
         add_interpreter_flag(o, k, "-u");
       }},
      {"$| = 1", "put `$| = 1;` (STDOUT->autoflush(1)) at the top of the program",
       "perlvar $| (tried by loading it through PERL5OPT)",
       [](const program_kind& k) { return is(k, lang::perl); },
       [](doctor_options& o, const program_kind&, const scratch_dir& d) {
         d.file("flushcheck_autoflush.pm", "$| = 1;\n1;\n");
         o.env.push_back("PERL5OPT=-I" + d.path() + " -Mflushcheck_autoflush");
       }},
      {"$stdout.sync = true", "put `$stdout.sync = true` at the top of the program",
       "Ruby docs, IO#sync= (tried by loading it through RUBYOPT)",
       [](const program_kind& k) { return is(k, lang::ruby); },
       [](doctor_options& o, const program_kind&, const scratch_dir& d) {
         o.env.push_back("RUBYOPT=-r" + d.file("flushcheck_sync.rb", "$stdout.sync = true\n"));
       }},
      {"setBlocking(true)",
       "put `process.stdout._handle?.setBlocking?.(true)` at the top of the program",
       "Node docs, process.md 'A note on process I/O' (tried through NODE_OPTIONS=--require)",
       [](const program_kind& k) { return is(k, lang::node); },
       [](doctor_options& o, const program_kind&, const scratch_dir& d) {
         o.env.push_back("NODE_OPTIONS=--require " +
                         d.file("flushcheck_blocking.js",
                                "for (const s of [process.stdout, process.stderr])\n"
                                "  if (s._handle && s._handle.setBlocking) "
                                "s._handle.setBlocking(true);\n"));
       }},
      {"stdbuf -oL",
       "run it as `stdbuf -oL PROG` or call setvbuf(stdout, NULL, _IOLBF, 0) first in main",
       "coreutils stdbuf(1): an LD_PRELOAD that calls setvbuf; only C stdio of a dynamic program",
       [](const program_kind&) { return true; },
       [](doctor_options& o, const program_kind&, const scratch_dir&) {
         o.argv.insert(o.argv.begin(), {"stdbuf", "-oL"});
       }},
      {"stdbuf -o0",
       "run it as `stdbuf -o0 PROG` or call setvbuf(stdout, NULL, _IONBF, 0) first in main",
       "coreutils stdbuf(1)", [](const program_kind&) { return true; },
       [](doctor_options& o, const program_kind&, const scratch_dir&) {
         o.argv.insert(o.argv.begin(), {"stdbuf", "-o0"});
       }},
  };
  return all;
}

std::string outcome(const diagnosis& d) {
  if (d.lost()) {
    const doctor_cut& w = *d.worst();
    return "still loses " + std::to_string(w.lost()) + " of " + std::to_string(w.had_lines) +
           " lines (" + w.cut.text() + " on " + std::string(to_string(w.sink)) + ")";
  }
  if (d.late_ms() > doctor_report::late_threshold_ms)
    return "nothing lost, but lines still come up to " + std::to_string(d.late_ms()) + " ms late";
  return "no line lost or late on a pty, a pipe or a file";
}

bool healthy(const diagnosis& d) {
  return !d.lost() && d.late_ms() <= doctor_report::late_threshold_ms;
}

/// The pty as a fix: the diagnosis already ran there.
doctor_fix under_a_pty(const diagnosis& d) {
  const doctor_sink& pty = d.sinks.front();
  doctor_fix f{"a terminal", "give it a terminal as stdout (docker run -t, script -qfc, unbuffer)",
               "what a line buffered stdout does on a terminal (ISO C 7.21.3p7 for C stdio)",
               pty.most_lines_per_write <= 1, ""};
  f.result = f.helps ? "on the pty every line went out by itself"
                     : "on the pty one write carried " + std::to_string(pty.most_lines_per_write) +
                           " lines";
  return f;
}

}  // namespace

std::vector<doctor_fix> try_fixes(const doctor_options& o, const program_kind& kind,
                                  const diagnosis& found) {
  std::vector<doctor_fix> out;
  if (healthy(found)) return out;
  scratch_dir dir;
  for (const auto& c : candidates()) {
    if (!c.applies(kind)) continue;
    doctor_options fixed = o;
    c.apply(fixed, kind, dir);
    const diagnosis d = diagnose(fixed);
    out.push_back({c.name, c.advice, c.source, healthy(d), outcome(d)});
  }
  out.push_back(under_a_pty(found));
  std::stable_partition(out.begin(), out.end(), [](const doctor_fix& f) { return f.helps; });
  return out;
}

}  // namespace flushcheck
