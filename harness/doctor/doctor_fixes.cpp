// The doctor's fixes: one table of changes, each with the programs and the
// streams it applies to and how a run gets it, each verified by every
// diagnosis run again with it.
#include <algorithm>
#include <functional>

#include "doctor_fixes.hpp"
#include "doctor_reference.hpp"
#include "error.hpp"
#include "languages.hpp"
#include "masked_compare.hpp"
#include "program_switches.hpp"

namespace flushcheck {

namespace {

/// The streams a fix changes.
struct streams {
  bool out = false, err = false;
};
constexpr streams k_stdout{true, false}, k_both{true, true};

struct fix_candidate {
  std::string name, advice, source;
  streams affects;
  std::function<bool(const program_kind&)> applies;
  /// Changes the runs' command line or environment.
  std::function<void(doctor_options&, const program_kind&)> apply;
};

/// ARGV with ARGS right after the interpreter: "python3 -u x.py", or for a
/// script run by its #! line, "INTERPRETER ARGS #!-ARGS SCRIPT ARGS".
void add_interpreter_args(doctor_options& o, const program_kind& k,
                          const std::vector<std::string>& args) {
  if (!k.interpreter.empty()) {
    o.argv[0] = k.path;  // the script, found on PATH: the interpreter opens it by its path
    o.argv.insert(o.argv.begin(), k.interpreter_args.begin(), k.interpreter_args.end());
    o.argv.insert(o.argv.begin(), k.interpreter_named);
  }
  o.argv.insert(o.argv.begin() + 1, args.begin(), args.end());
}

/// VALUE with "{helpers}" replaced by doctor's helpers directory.
std::string with_helpers(std::string value, const std::string& helpers) {
  for (std::size_t at; (at = value.find("{helpers}")) != std::string::npos;)
    value.replace(at, 9, helpers);
  return value;
}

/// Runtime L's switch FIX: its variables set, its interpreter flags given.
fix_candidate runtime_fix(lang l, const switch_fix& fix) {
  return {fix.name,
          fix.advice,
          fix.source,
          fix.stderr_too ? k_both : k_stdout,
          [l](const program_kind& k) { return k.runtime == l; },
          [fix](doctor_options& o, const program_kind& k) {
            for (const auto& v : fix.env) o.env.push_back(with_helpers(v, o.helpers_dir));
            if (!fix.args.empty()) add_interpreter_args(o, k, fix.args);
          }};
}

/// The language table's switches that doctor can try from outside the
/// program; of one runtime's, those set by a variable before those that
/// need an interpreter flag (the smaller change first).
std::vector<fix_candidate> runtime_fixes() {
  std::vector<std::pair<lang, switch_fix>> fixes;
  for (const auto& f : language_table())
    for (const auto& s : f.switches)
      if (s.fix) fixes.emplace_back(f.language, *s.fix);
  std::stable_partition(fixes.begin(), fixes.end(),
                        [](const auto& lf) { return lf.second.args.empty(); });
  std::vector<fix_candidate> out;
  for (const auto& [l, fix] : fixes) out.push_back(runtime_fix(l, fix));
  return out;
}

/// The program run as SHOWN: with switch SW's ARGS right after its name
/// (BY_NAME), or after the interpreter of a script.
fix_candidate own_switch_fix(const std::string& shown, const detail::program_switch& sw,
                             const std::vector<std::string>& args, bool by_name) {
  return {shown,
          "run it as `" + shown + " ...` (" + std::string(sw.effect) + ")",
          std::string(sw.source),
          k_stdout,
          [](const program_kind&) { return true; },
          [args, by_name](doctor_options& o, const program_kind& k) {
            if (by_name) {
              o.argv.insert(o.argv.begin() + 1, args.begin(), args.end());
            } else {
              add_interpreter_args(o, k, args);
            }
          }};
}

/// The program's own switch (detail::program_switches), for the program run
/// by its name or the interpreter of a script.
std::vector<fix_candidate> switch_fixes(const program_kind& kind, const std::string& argv0) {
  const std::string name0 = argv0.substr(argv0.rfind('/') + 1);
  const detail::program_switch* sw = detail::switch_of(kind.name());
  const bool by_name = sw == nullptr && (sw = detail::switch_of(name0)) != nullptr;
  if (sw == nullptr) return {};
  const std::vector<std::string> args(sw->args.begin(), sw->args.end());
  std::string shown = kind.interpreter.empty() ? name0 : kind.name();
  for (const auto& a : args) shown += " " + a;
  return {own_switch_fix(shown, *sw, args, by_name)};
}

/// stdbuf's flags for MODE ("L" or "0") on the streams NEED names: "-oL", "-eL".
std::vector<std::string> stdbuf_flags(streams need, const char* mode) {
  std::vector<std::string> flags;
  if (need.out) flags.push_back(std::string("-o") + mode);
  if (need.err) flags.push_back(std::string("-e") + mode);
  return flags;
}

/// How to get stdbuf NAME's MODE: run the program under it, or do what it does.
std::string stdbuf_advice(const std::string& name, streams need, const char* mode) {
  const std::string how = std::string(mode) == "L" ? "_IOLBF" : "_IONBF";
  return "run it as `" + name + " PROG` or call setvbuf(" + (need.out ? "stdout" : "stderr") +
         ", NULL, " + how + ", 0) first in main";
}

/// stdbuf with MODE ("L" or "0") for the streams NEED names.
fix_candidate stdbuf_fix(streams need, const char* mode) {
  std::vector<std::string> flags = stdbuf_flags(need, mode);
  std::string name = "stdbuf";
  for (const auto& f : flags) name += " " + f;
  return {name,
          stdbuf_advice(name, need, mode),
          "coreutils stdbuf(1): an LD_PRELOAD that calls setvbuf; only C stdio of a "
          "dynamic program",
          need,
          [](const program_kind&) { return true; },
          [flags](doctor_options& o, const program_kind&) {
            o.argv.insert(o.argv.begin(), flags.begin(), flags.end());
            o.argv.insert(o.argv.begin(), "stdbuf");
          }};
}

/// stdbuf for the streams that need it: -oL and -o0 for stdout, -e for stderr.
std::vector<fix_candidate> stdbuf_fixes(streams need) {
  std::vector<fix_candidate> out;
  for (const char* mode : {"L", "0"}) out.push_back(stdbuf_fix(need, mode));
  return out;
}

/// The streams whose diagnosis is not safe (but has a verdict).
streams unsafe(const std::vector<diagnosis>& found) {
  streams s;
  for (const auto& d : found) {
    if (d.safe() || d.no_reference) continue;
    (d.stream == doctor_stream::err ? s.err : s.out) = true;
  }
  return s;
}

/// What cut W still loses: "still loses 3 line(s), 120 bytes (KILL@write:2 on pipe)".
std::string still_loses(const doctor_cut& w) {
  return "still loses " + std::to_string(w.lost_lines) + " line(s), " + std::to_string(w.excess()) +
         " bytes (" + w.cut + " on " + std::string(to_string(w.sink)) + ")";
}

/// What is still wrong in D with the fix, ON naming its stream; "" if nothing.
std::string still_wrong(const diagnosis& d, const std::string& on) {
  if (d.no_reference)
    return "no verdict" + on + " with it: the pty is no reference: " + d.no_reference_why;
  if (d.lost()) return still_loses(*d.worst()) + on;
  if (d.held())
    return "still holds " + std::to_string(d.held_lines) + " lines until " +
           std::to_string(d.held_ms) + " ms on every sink" + on;
  if (d.late())
    return "nothing lost, but lines still come up to " + std::to_string(d.late_ms()) + " ms late" +
           on;
  return "";
}

std::string outcome(const std::vector<diagnosis>& views) {
  for (const auto& d : views) {
    const std::string on = views.size() > 1 ? " on " + std::string(to_string(d.stream)) : "";
    if (std::string wrong = still_wrong(d, on); !wrong.empty()) return wrong;
  }
  std::size_t unreached = 0;
  for (const auto& d : views) unreached += d.unreached();
  return "no line lost or late on a pty, a pipe or a file" +
         (unreached == 0 ? "" : " (" + std::to_string(unreached) + " cut(s) not reached)");
}

/// The program ended on the pty in run A, and with the fix in run B it was
/// still running at its limit.
std::string still_running(const doctor_sink& a, const doctor_sink& b) {
  return "no verdict: with it the program was still running at " + std::to_string(b.limit.count()) +
         " ms, where it ended in " + std::to_string(duration_of(a).count()) +
         " ms without it: it hangs with it, or the machine is loaded (--deadline=" +
         std::to_string(std::min<long>(600000, 4 * b.limit.count())) + " waits longer)";
}

/// A fix must leave the program as it was: ending the same way with the
/// same output on the pty (a fix that breaks it loses nothing either),
/// its size compared around the fields that vary between runs (a pid has
/// fewer digits once the kernel's pids wrap).
std::string breaks(const diagnosis& before, const diagnosis& after) {
  const doctor_sink &a = before.sinks.front(), &b = after.sinks.front();
  if (a.ended && !b.ended)  // no verdict on the program: the harness's limit
    return still_running(a, b);
  if (!(a.reference.status == b.reference.status) && a.ended)
    return "it changes how the program ends: " + b.reference.status.describe() + " instead of " +
           a.reference.status.describe();
  if (masked_size(before.mask, b.output().data) < masked_size(before.mask, a.output().data))
    return "the program writes less with it: " + std::to_string(b.output().data.size()) + " of " +
           std::to_string(a.output().data.size()) + " bytes on the pty";
  return "";
}

/// A fix tried for a loss or lateness is judged on that: a first pty write
/// with no more whole lines than the program's own pty run wrote first
/// without the fix is the program's start-up or its work (a runtime that
/// starts for 100 ms, then writes all at once), not holding the fix brought;
/// compared in lines, not in times, which load stretches. A program whose
/// fault was holding gets no such excuse.
void excuse_own_holding(const diagnosis& before, diagnosis& after) {
  if (!before.lost() && !before.late()) return;
  if (after.held_lines <= before.held_lines) after.held_lines = 0;
}

/// F, run as FIXED: each diagnosis of FOUND that had a verdict, run again;
/// what it breaks, at the first it breaks, or whether it helps with every one.
void judge_fix(doctor_fix& f, doctor_options& fixed, const std::vector<diagnosis>& found) {
  std::vector<diagnosis> after;
  for (const auto& d : found) {
    if (d.no_reference) continue;  // no verdict before: none to compare with
    fixed.stream = d.stream;
    after.push_back(diagnose(fixed));
    excuse_own_holding(d, after.back());
    if (std::string broken = breaks(d, after.back()); !broken.empty()) {
      f.result = broken;
      return;
    }
  }
  f.helps = std::all_of(after.begin(), after.end(), [](const diagnosis& d) { return d.safe(); });
  f.result = outcome(after);
}

doctor_fix try_one(const fix_candidate& c, const doctor_options& o, const program_kind& kind,
                   const std::vector<diagnosis>& found) {
  doctor_fix f{c.name, c.advice, c.source, false, "", {}, {}, std::nullopt};
  doctor_options fixed = o;
  c.apply(fixed, kind);
  f.argv = fixed.argv, f.env = fixed.env;
  try {
    judge_fix(f, fixed, found);
  } catch (const spawn_error& e) {
    f.result = std::string("could not run: ") + e.what();
  }
  return f;
}

/// A terminal as a fix, HELPS or not; its result still to say.
doctor_fix terminal_fix(bool helps) {
  return {"a terminal",
          "give it a terminal as stdout (docker run -t, script -qfc, unbuffer)",
          "what a line buffered stdout does on a terminal (ISO C 7.21.3p7 for C stdio)",
          helps,
          "",
          {},
          {},
          sink_kind::pty};
}

/// The pty as a fix: the diagnosis already ran there. It helps when there
/// every write ended a line (nothing whole was held back: line buffered) and
/// nothing was held until late.
doctor_fix under_a_pty(const std::vector<diagnosis>& found) {
  bool lines = true, held = false;
  for (const auto& d : found) {
    lines = lines && d.sinks.front().writes_end_lines;
    held = held || d.held();
  }
  doctor_fix f = terminal_fix(lines && !held);
  f.result = f.helps ? "on the pty every write ended a line"
             : held  ? "on the pty too its output waited for one late write"
                     : "on the pty a write ended in the middle of a line: it is not line "
                       "buffered there";
  return f;
}

}  // namespace

std::vector<doctor_fix> try_fixes(const doctor_options& o, const program_kind& kind,
                                  const std::vector<diagnosis>& found) {
  std::vector<doctor_fix> out;
  const streams need = unsafe(found);
  if (!need.out && !need.err) return out;  // nothing to fix, or no way to tell
  std::vector<fix_candidate> all = runtime_fixes();
  for (auto& c : switch_fixes(kind, o.argv.front())) all.push_back(std::move(c));
  for (auto& c : stdbuf_fixes(need)) all.push_back(std::move(c));
  for (const auto& c : all)
    if (c.applies(kind) && ((need.out && c.affects.out) || (need.err && c.affects.err)))
      out.push_back(try_one(c, o, kind, found));
  out.push_back(under_a_pty(found));
  std::stable_partition(out.begin(), out.end(), [](const doctor_fix& f) { return f.helps; });
  return out;
}

}  // namespace flushcheck
