// The doctor's fixes: one table of changes, each with the programs it
// applies to and how a run gets it, each verified by the whole diagnosis
// run again with it.
#include <algorithm>
#include <functional>

#include "flushcheck/doctor_fixes.hpp"
#include "flushcheck/error.hpp"

namespace flushcheck {

namespace {

struct fix_candidate {
  const char* name;
  const char* advice;
  const char* source;
  std::function<bool(const program_kind&)> applies;
  /// Changes the runs' command line or environment.
  std::function<void(doctor_options&, const program_kind&)> apply;
};

bool is(const program_kind& k, lang l) { return k.runtime == l; }

/// ARGV with FLAG right after the interpreter: "python3 -u x.py", or for a
/// script run by its #! line, "INTERPRETER -u SCRIPT ARGS".
void add_interpreter_flag(doctor_options& o, const program_kind& k, const std::string& flag) {
  if (!k.interpreter.empty()) {
    o.argv[0] = k.path;  // the script, found on PATH: the interpreter opens it by its path
    o.argv.insert(o.argv.begin(), k.interpreter);
  }
  o.argv.insert(o.argv.begin() + 1, flag);
}

const std::vector<fix_candidate>& candidates() {
  static const std::vector<fix_candidate> all = {
      {"PYTHONUNBUFFERED=1", "set PYTHONUNBUFFERED=1 in its environment",
       "Python docs, PYTHONUNBUFFERED (equivalent to -u)",
       [](const program_kind& k) { return is(k, lang::python); },
       [](doctor_options& o, const program_kind&) { o.env.push_back("PYTHONUNBUFFERED=1"); }},
      {"python3 -u", "run it with python3 -u", "Python docs, command line -u",
       [](const program_kind& k) { return is(k, lang::python); },
       [](doctor_options& o, const program_kind& k) { add_interpreter_flag(o, k, "-u"); }},
      {"$| = 1", "put `$| = 1;` (STDOUT->autoflush(1)) at the top of the program",
       "perlvar $| (tried by loading it through PERL5OPT)",
       [](const program_kind& k) { return is(k, lang::perl); },
       [](doctor_options& o, const program_kind&) {
         o.env.push_back("PERL5LIB=" + o.helpers_dir);  // a path with spaces is fine here
         o.env.push_back("PERL5OPT=-Mflushcheck_autoflush");
       }},
      {"$stdout.sync = true", "put `$stdout.sync = true` at the top of the program",
       "Ruby docs, IO#sync= (tried by loading it through RUBYOPT)",
       [](const program_kind& k) { return is(k, lang::ruby); },
       [](doctor_options& o, const program_kind&) {
         o.env.push_back("RUBYLIB=" + o.helpers_dir);
         o.env.push_back("RUBYOPT=-rflushcheck_sync");
       }},
      {"setBlocking(true)",
       "put `process.stdout._handle?.setBlocking?.(true)` at the top of the program",
       "Node docs, process.md 'A note on process I/O' (tried through NODE_OPTIONS=--require)",
       [](const program_kind& k) { return is(k, lang::node); },
       [](doctor_options& o, const program_kind&) {
         // NODE_OPTIONS splits on spaces but keeps a double-quoted value whole.
         o.env.push_back("NODE_OPTIONS=--require \"" + o.helpers_dir + "/flushcheck_blocking.js\"");
       }},
      {"stdbuf -oL",
       "run it as `stdbuf -oL PROG` or call setvbuf(stdout, NULL, _IOLBF, 0) first in main",
       "coreutils stdbuf(1): an LD_PRELOAD that calls setvbuf; only C stdio of a dynamic program",
       [](const program_kind&) { return true; },
       [](doctor_options& o, const program_kind&) {
         o.argv.insert(o.argv.begin(), {"stdbuf", "-oL"});
       }},
      {"stdbuf -o0",
       "run it as `stdbuf -o0 PROG` or call setvbuf(stdout, NULL, _IONBF, 0) first in main",
       "coreutils stdbuf(1)", [](const program_kind&) { return true; },
       [](doctor_options& o, const program_kind&) {
         o.argv.insert(o.argv.begin(), {"stdbuf", "-o0"});
       }},
  };
  return all;
}

std::string outcome(const diagnosis& d) {
  if (d.lost()) {
    const doctor_cut& w = *d.worst();
    return "still loses " + std::to_string(w.excess()) + " bytes, " + std::to_string(w.lost_lines) +
           " line(s) (" + w.cut + " on " + std::string(to_string(w.sink)) + ")";
  }
  if (d.late())
    return "nothing lost, but lines still come up to " + std::to_string(d.late_ms()) + " ms late";
  return "no line lost or late on a pty, a pipe or a file" +
         (d.unreached() == 0 ? "" : " (" + std::to_string(d.unreached()) + " cut(s) not reached)");
}

/// A fix must leave the program as it was: ending the same way with the
/// same output on the pty (a fix that breaks it loses nothing either).
std::string breaks(const diagnosis& before, const diagnosis& after) {
  const observation &a = before.sinks.front().reference, &b = after.sinks.front().reference;
  if (!(a.status == b.status) && before.sinks.front().ended)
    return "it changes how the program ends: " + b.status.describe() + " instead of " +
           a.status.describe();
  if (b.out.data.size() < a.out.data.size())
    return "the program writes less with it: " + std::to_string(b.out.data.size()) + " of " +
           std::to_string(a.out.data.size()) + " bytes on the pty";
  return "";
}

doctor_fix try_one(const fix_candidate& c, const doctor_options& o, const program_kind& kind,
                   const diagnosis& found) {
  doctor_fix f{c.name, c.advice, c.source, false, ""};
  doctor_options fixed = o;
  c.apply(fixed, kind);
  try {
    const diagnosis d = diagnose(fixed);
    const std::string broken = breaks(found, d);
    f.helps = broken.empty() && d.safe();
    f.result = broken.empty() ? outcome(d) : broken;
  } catch (const spawn_error& e) {
    f.result = std::string("could not run: ") + e.what();
  }
  return f;
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
  if (found.no_reference || found.safe()) return out;  // no way to tell, or nothing to fix
  for (const auto& c : candidates())
    if (c.applies(kind)) out.push_back(try_one(c, o, kind, found));
  out.push_back(under_a_pty(found));
  std::stable_partition(out.begin(), out.end(), [](const doctor_fix& f) { return f.helps; });
  return out;
}

}  // namespace flushcheck
