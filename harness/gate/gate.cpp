#include "gate.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <utility>

#include "conformance.hpp"
#include "error.hpp"
#include "escape.hpp"
#include "file_system.hpp"
#include "record_checks.hpp"
#include "repro.hpp"
#include "retry_eintr.hpp"
#include "run.hpp"
#include "run_report.hpp"
#include "temporary.hpp"
#include "unique_fd.hpp"

namespace flushcheck {

gate_run::gate_run(std::vector<std::string> argv) { s_.argv = std::move(argv); }
gate_run& gate_run::stdout_to(sink_kind k) {
  s_.out = k;
  return *this;
}
gate_run& gate_run::stderr_to(sink_kind k) {
  s_.err = k;
  return *this;
}
gate_run& gate_run::stderr_to_stdout() {
  s_.err.reset();
  return *this;
}
gate_run& gate_run::sinks(sink_kind out, const destination& err) {
  stdout_to(out);
  return err.merged() ? stderr_to_stdout() : stderr_to(err.sink().value_or(sink_kind::pipe));
}
gate_run& gate_run::env(std::string name_value) {
  s_.env.push_back(std::move(name_value));
  return *this;
}
gate_run& gate_run::watch(std::string prefix) {
  s_.watch.push_back(std::move(prefix));
  return *this;
}
gate_run& gate_run::cut(const kill_plan& k) {
  s_.cut = k.text();
  return *this;
}
gate_run& gate_run::cut(std::string spec) {
  (void)kill_plan::parse(spec);  // a bad plan is refused here, not at the run
  s_.cut = std::move(spec);
  return *this;
}
gate_run& gate_run::timeout(std::chrono::milliseconds t) {
  s_.timeout = t;
  return *this;
}
gate_run& gate_run::fault(std::string spec) {
  s_.faults.push_back(std::move(spec));
  return *this;
}
gate_run& gate_run::reader(const std::string& policy) {
  s_.reader = reader_policy::parse(policy);
  return *this;
}
gate_run& gate_run::nonblock(bool on) {
  s_.nonblock = on;
  return *this;
}
gate_run& gate_run::expect(gate_expect e) {
  s_.expect.push_back(std::move(e));
  return *this;
}
gate_run& gate_run::tag(std::string tag) {
  s_.tag = std::move(tag);
  return *this;
}
gate_run& gate_run::keep(keep_policy k) {
  s_.keep = k;
  return *this;
}

namespace {

/// PATH's bytes, each piece to F as it is read (a log of any size in a
/// fixed buffer), until its end or DEADLINE; false: the deadline came first.
bool read_pieces(const std::string& path, const std::function<void(std::string_view)>& f,
                 std::optional<std::chrono::steady_clock::time_point> deadline) {
  unique_fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW));
  if (!fd) throw_errno("open " + path);
  std::vector<char> buf(std::size_t{1} << 20);
  for (;;) {
    if (deadline && std::chrono::steady_clock::now() > *deadline) return false;
    const ssize_t n = retry_eintr([&] { return ::read(fd.get(), buf.data(), buf.size()); });
    if (n < 0) throw_errno("read " + path);
    if (n == 0) return true;
    f({buf.data(), static_cast<std::size_t>(n)});
  }
}

/// NAME=VALUE into ENV, in place of ENV's NAME if it has one (PATH, LANG):
/// a program and a shell both read the first.
void set_variable(std::vector<std::string>& env, const std::string& name_value) {
  const std::string name = name_value.substr(0, name_value.find('=') + 1);
  auto it = std::find_if(env.begin(), env.end(),
                         [&](const std::string& kv) { return kv.rfind(name, 0) == 0; });
  if (it != env.end())
    *it = name_value;
  else
    env.push_back(name_value);
}

/// NAME_VALUE, an env() entry; throws usage_error for one that is no
/// NAME=VALUE, or that would replace a variable of the harness's own.
const std::string& checked_variable(const std::string& name_value) {
  const auto eq = name_value.find('=');
  if (eq == 0 || eq == std::string::npos)
    throw usage_error("env(\"" + printable(name_value, 200) + "\"): expected NAME=VALUE");
  const std::string name = name_value.substr(0, eq);
  if (const auto why = harness_variable(name); !why.empty())
    throw usage_error(printable(name, 200) + " is the harness's own: " + std::string(why));
  return name_value;
}

/// TEXT with each "{logdir}" replaced by DIR.
std::string with_logdir(std::string text, const std::string& dir) {
  constexpr std::string_view logdir = "{logdir}";
  for (auto at = text.find(logdir); at != std::string::npos;
       at = text.find(logdir, at + dir.size()))
    text.replace(at, logdir.size(), dir);
  return text;
}

/// The run S sets up, with its log directory DIR for "{logdir}".
run_options options_of(const gate_run_settings& s, const std::string& dir) {
  run_options o;
  for (const auto& a : s.argv) o.argv.push_back(with_logdir(a, dir));
  for (const auto& f : s.faults) o.faults.push_back(fault_plan::parse(with_logdir(f, dir)));
  o.reader = s.reader;
  o.nonblock = s.nonblock;
  o.env = clean_environment();
  o.env.push_back("FLUSHCHECK_LOG_DIR=" + dir);
  for (const auto& e : s.env) set_variable(o.env, with_logdir(checked_variable(e), dir));
  o.stdout_sink = s.out;
  o.stderr_sink = s.err;
  o.kill = kill_plan::parse(with_logdir(s.cut, dir));
  o.trace = s.traced || o.kill.needs_tracer() || !s.faults.empty() || s.timeline;
  o.timeline = s.timeline;
  o.keep = s.keep;
  o.timeout = s.timeout;
  o.on_spawn = s.on_spawn;
  return o;
}

/// The regular file in DIR named TEXT, else the first of NAMES (sorted)
/// whose name contains TEXT (glog's "app.log.INFO.20261205-..."), symlinks
/// skipped; "" when none. Exact first: java.util.logging's FileHandler
/// keeps "app.log.lck" beside "app.log".
std::string watched_path(const std::string& dir, const std::vector<std::string>& names,
                         const std::string& text) {
  const auto regular = [&](const std::string& n) {
    struct stat st {};
    return ::lstat((dir + "/" + n).c_str(), &st) == 0 && S_ISREG(st.st_mode);
  };
  if (std::find(names.begin(), names.end(), text) != names.end() && regular(text))
    return dir + "/" + text;
  for (const auto& n : names)
    if (n.find(text) != std::string::npos && regular(n)) return dir + "/" + n;
  return "";
}

/// DIR's names, sorted (readdir's order is the file system's).
std::vector<std::string> names_in(const std::string& dir) {
  std::vector<std::string> names;
  if (DIR* d = ::opendir(dir.c_str())) {
    while (dirent* e = ::readdir(d)) names.emplace_back(e->d_name);
    ::closedir(d);
  }
  std::sort(names.begin(), names.end());
  return names;
}

gate_check status_check(const observation& obs, const gate_expect& e) {
  const wait_status& st = obs.status;
  const bool ok = e.check == check_id::exit_code
                      ? st.type() == wait_status::kind::exited && st.code() == e.number
                      : st.type() == wait_status::kind::signaled && st.signal() == e.number;
  return {ok, "the program " + st.describe()};
}

/// Each stream's checks and record count: "stdout", "stderr", "file:NAME".
using digests = std::map<write_target, stream_digest>;

/// The log file at PATH, read in pieces into DIGEST and what KEEP keeps of
/// it, with the write calls the tracer saw reach it (OBS's trace).
log_file read_log(const std::string& path, const keep_policy& keep, const observation& obs,
                  stream_digest& digest,
                  std::optional<std::chrono::steady_clock::time_point> deadline) {
  capture kept(keep);
  const bool whole = read_pieces(
      path,
      [&](std::string_view b) {
        digest.feed(b);
        kept.append(b);
      },
      deadline);
  log_file f{path, whole, kept.take_data(), obs.trace ? 0 : -1};
  if (obs.trace)
    for (const auto& dest : obs.trace->destinations)
      if (dest.what == path) f.write_calls += dest.write_calls;
  return f;
}

/// Each watched file in DIR, read in pieces into its digest and what KEEP keeps of it.
/// Until DEADLINE when there is one.
void read_watched(const std::string& dir, const std::vector<std::string>& watch,
                  const std::string& tag, const keep_policy& keep, gate_result& r, digests& d,
                  std::optional<std::chrono::steady_clock::time_point> deadline) {
  const auto names = names_in(dir);
  for (const auto& text : watch) {
    stream_digest& digest = d.try_emplace(write_target::file(text), tag).first->second;
    if (const std::string path = watched_path(dir, names, text); !path.empty())
      r.files[text] = read_log(path, keep, r.obs, digest, deadline);
    digest.finish();
  }
}

/// The log directory DIR's file system was full when the run ended (a
/// statvfs then): the program's writes there may have failed with ENOSPC,
/// the harness's failure (its TMPDIR), not the program's.
void check_log_room(const std::string& dir, observation& obs) {
  if (!obs.harness_failure.empty() || !detail::file_system_full(dir)) return;
  obs.harness_failure = "the log directory's file system (TMPDIR=" + temp_dir() +
                        ") was full when the run ended: the program's writes there may have failed "
                        "with ENOSPC, a failure of the harness's set-up, not of the program";
  obs.notes.push_back(obs.harness_failure);
}

gate_check outcome(const gate_result& r, const gate_expect& e, const digests& d, std::size_t at) {
  if (e.reads_status()) return status_check(r.obs, e);
  if (const auto f = r.files.find(e.in.file_name());
      e.in.is_file() && f != r.files.end() && !f->second.whole)
    return {false, "the log was not read whole before the search's time ran out", false};
  gate_check c = d.at(e.in).result(at, {&r.obs, r.writes(e.in)});
  if (e.in.is_file() && !r.files.contains(e.in.file_name()))
    // A log file never created is a log where nothing arrived (winston's file
    // when the program exits first), checked as that: not "could not check".
    c.why = "the log file '" + e.in.file_name() + "' was never created: " + c.why;
  return c;
}

/// Digests for stdout, stderr and each stream EXPECT reads (records: TAG),
/// each expectation added to its stream's: its index there (0: reads the status).
std::vector<std::size_t> add_expectations(const std::vector<gate_expect>& expect,
                                          const std::string& tag, digests& d) {
  d.try_emplace(write_target::out(), tag);
  d.try_emplace(write_target::err(), tag);
  std::vector<std::size_t> at;  // each expectation's index in its stream's digest
  for (const auto& e : expect)
    at.push_back(e.reads_status() ? 0 : d.try_emplace(e.in, tag).first->second.add(e));
  return at;
}

/// Into R, once every stream is read: the records of each, and each expectation's outcome.
void add_outcomes(const std::vector<gate_expect>& expect, const std::vector<std::size_t>& at,
                  const digests& d, gate_result& r) {
  for (const auto& [name, digest] : d) r.records[name] = digest.records();
  for (std::size_t i = 0; i < expect.size(); ++i)
    r.checks.push_back(outcome(r, expect[i], d, at[i]));
}

/// O's timeout cut to what is left before DEADLINE (at least 1 ms).
void cut_to(run_options& o, std::optional<std::chrono::steady_clock::time_point> deadline) {
  if (!deadline) return;
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      *deadline - std::chrono::steady_clock::now());
  o.timeout = std::clamp(left, std::chrono::milliseconds(1), o.timeout);
}

/// Whether the deadline, not the run's own timeout (OWN), ended R.
bool ended_by_deadline(const gate_result& r, const run_options& o, std::chrono::milliseconds own) {
  for (const auto& [name, f] : r.files)
    if (!f.whole) return true;
  return r.obs.status.type() == wait_status::kind::timeout && o.timeout < own;
}

}  // namespace

gate_result gate_run::run() const {
  const temporary_directory dir(temp_dir() + "/flushcheck-gate-");  // the logs, removed after
  run_options o = options_of(s_, dir.path());
  digests d;
  const std::vector<std::size_t> at = add_expectations(s_.expect, s_.tag, d);
  o.on_output = [&d](int fd, std::string_view b) {
    d.at(fd == 1 ? write_target::out() : write_target::err()).feed(b);
  };
  gate_result r;
  r.repro = repro_command(o, "mkdir -p " + shell_quote(dir.path()) + " && ");  // its own timeout
  cut_to(o, s_.deadline);
  r.obs = flushcheck::run(o);
  d.at(write_target::out()).finish();
  d.at(write_target::err()).finish();
  read_watched(dir.path(), s_.watch, s_.tag, s_.keep, r, d, s_.deadline);
  if (!s_.watch.empty()) check_log_room(dir.path(), r.obs);
  add_outcomes(s_.expect, at, d, r);
  r.out_of_time = ended_by_deadline(r, o, s_.timeout);
  return r;
}

const log_file& gate_result::file(const std::string& name) const {
  auto it = files.find(name);
  if (it != files.end()) return it->second;
  std::string have;
  for (const auto& [k, v] : files) have += " " + k;
  throw std::out_of_range("gate: no log file '" + name + "' was written (watched and found:" +
                          (have.empty() ? std::string(" none") : have) + ")");
}

long gate_result::writes(const write_target& in) const {
  if (in.is_out()) return obs.trace ? stdout_writes() : -1;
  if (in.is_err()) return obs.trace ? stderr_writes() : -1;
  auto it = files.find(in.file_name());
  return it != files.end() ? it->second.write_calls : obs.trace ? 0 : -1;
}

long gate_result::stdout_writes() const {
  return obs.trace ? static_cast<long>(obs.trace->stdout_write_calls()) : 0;
}
long gate_result::stderr_writes() const {
  return obs.trace ? static_cast<long>(obs.trace->stderr_write_calls()) : 0;
}

const fault_result& gate_result::fault(std::size_t i) const {
  if (!obs.trace || i >= obs.trace->faults.size())
    throw std::out_of_range("no fault " + std::to_string(i) + " in this run (" +
                            std::to_string(obs.trace ? obs.trace->faults.size() : 0) + " given)");
  return obs.trace->faults[i];
}

std::ostream& operator<<(std::ostream& os, const gate_result& r) {
  os << "\n" << to_text(r.obs);
  for (const auto& [name, f] : r.files)
    os << "file " << name << ": " << f.content.size() << " bytes in " << f.write_calls
       << " writes: \"" << printable(f.content, 400) << "\"\n";
  return os << "repeat: " << r.repro << "\n";
}

}  // namespace flushcheck
