#include "gate.hpp"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "conformance.hpp"
#include "error.hpp"
#include "escape.hpp"
#include "record_pattern.hpp"
#include "report.hpp"
#include "repro.hpp"
#include "run.hpp"
#include "temporary.hpp"

namespace flushcheck {

gate_run::gate_run(std::vector<std::string> argv) : argv_(std::move(argv)) {}
gate_run& gate_run::stdout_to(sink_kind k) {
  out_ = k;
  return *this;
}
gate_run& gate_run::stderr_to(sink_kind k) {
  err_ = k;
  return *this;
}
gate_run& gate_run::stderr_to_stdout() {
  err_.reset();
  return *this;
}
gate_run& gate_run::env(std::string name_value) {
  env_.push_back(std::move(name_value));
  return *this;
}
gate_run& gate_run::watch(std::string prefix) {
  watch_.push_back(std::move(prefix));
  return *this;
}
gate_run& gate_run::cut(kill_plan k) {
  cut_ = k;
  return *this;
}
gate_run& gate_run::timeout(std::chrono::milliseconds t) {
  timeout_ = t;
  return *this;
}
gate_run& gate_run::fault(std::string spec) {
  faults_.push_back(std::move(spec));
  return *this;
}
gate_run& gate_run::reader(const std::string& policy) {
  reader_ = reader_policy::parse(policy);
  return *this;
}
gate_run& gate_run::nonblock(bool on) {
  nonblock_ = on;
  return *this;
}

namespace {

/// A fresh directory, removed with what is in it (one level: log files),
/// and listed for an interrupted CLI to remove (temporary.hpp).
struct log_dir {
  std::string path;
  detail::listed_path listed;
  log_dir() {
    std::string tmpl = temp_dir() + "/flushcheck-gate-XXXXXX";
    if (::mkdtemp(tmpl.data()) == nullptr) throw_errno("mkdtemp " + tmpl);
    path = tmpl;
    listed = detail::listed_path(path);
  }
  ~log_dir() {
    if (DIR* d = ::opendir(path.c_str())) {
      while (dirent* e = ::readdir(d))
        if (std::string n = e->d_name; n != "." && n != "..") ::unlink((path + "/" + n).c_str());
      ::closedir(d);
    }
    ::rmdir(path.c_str());
  }
  log_dir(const log_dir&) = delete;
  log_dir& operator=(const log_dir&) = delete;
};

/// PATH's bytes, read into a string of their size (a stream buffer grew by
/// doubling and was copied out: three times a 1 GB log).
std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  std::string text(static_cast<std::size_t>(std::max<std::streamoff>(in.tellg(), 0)), '\0');
  in.seekg(0);
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(std::max<std::streamsize>(in.gcount(), 0)));
  return text;
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

/// TEXT with each "{logdir}" replaced by DIR.
std::string with_logdir(std::string text, const std::string& dir) {
  for (auto at = text.find("{logdir}"); at != std::string::npos;
       at = text.find("{logdir}", at + dir.size()))
    text.replace(at, 8, dir);
  return text;
}

}  // namespace

gate_result gate_run::run() const {
  log_dir dir;
  run_options o;
  for (const auto& a : argv_) o.argv.push_back(with_logdir(a, dir.path));
  for (const auto& f : faults_) o.faults.push_back(fault_plan::parse(with_logdir(f, dir.path)));
  o.reader = reader_;
  o.nonblock = nonblock_;
  o.env = clean_environment();
  o.env.push_back("FLUSHCHECK_LOG_DIR=" + dir.path);
  for (const auto& e : env_) set_variable(o.env, with_logdir(e, dir.path));
  o.stdout_sink = out_;
  o.stderr_sink = err_;
  o.kill = cut_;
  o.trace = traced_ || cut_.needs_tracer() || !faults_.empty();
  o.keep = {keep_policy::kind::all, 0};  // records are counted over the whole output
  o.timeout = timeout_;
  o.on_spawn = on_spawn_;
  gate_result r;
  r.repro = "mkdir -p " + shell_quote(dir.path) + " && " + repro_command(o);
  r.obs = flushcheck::run(o);
  std::vector<std::string> names;
  if (DIR* d = ::opendir(dir.path.c_str())) {
    while (dirent* e = ::readdir(d)) names.emplace_back(e->d_name);
    ::closedir(d);
  }
  for (const auto& prefix : watch_) {
    for (const auto& n : names) {
      const std::string path = dir.path + "/" + n;
      struct stat st {};
      if (n.find(prefix) == std::string::npos || ::lstat(path.c_str(), &st) != 0 ||
          !S_ISREG(st.st_mode))
        continue;
      log_file f;
      f.path = path;
      f.content = read_file(path);
      f.write_calls = r.obs.trace ? 0 : -1;
      if (r.obs.trace)
        for (const auto& dest : r.obs.trace->destinations)
          if (dest.what == path) f.write_calls += dest.write_calls;
      r.files[prefix] = std::move(f);
      break;
    }
  }
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
  os << "\n" << summary(r.obs);
  for (const auto& [name, f] : r.files)
    os << "file " << name << ": " << f.content.size() << " bytes in " << f.write_calls
       << " writes: \"" << printable(f.content, 400) << "\"\n";
  return os << "repeat: " << r.repro << "\n";
}

std::ostream& operator<<(std::ostream& os, const gate_check& c) {
  return os << (c.ok ? "holds: " : "does not hold: ") << c.why;
}

namespace {

/// F with each line of TEXT (without its newline; an unterminated last one
/// too), as a view: a log of any size is read in place, never copied.
template <class F>
void for_each_line(const std::string& text, F f) {
  std::string_view rest = text;
  while (!rest.empty()) {
    const auto nl = rest.find('\n');
    f(rest.substr(0, nl));
    rest.remove_prefix(nl == std::string_view::npos ? rest.size() : nl + 1);
  }
}

}  // namespace

std::vector<long> record_numbers(const std::string& text, const std::string& tag) {
  std::vector<long> out;
  for_each_line(text, [&](std::string_view line) {
    auto at = line.find(tag);
    if (at == std::string_view::npos) return;
    // TEXT is a std::string: the digits end at a newline or at its NUL.
    const char* p = line.data() + at + tag.size();
    char* end = nullptr;
    long n = std::strtol(p, &end, 10);
    if (end != p) out.push_back(n);
  });
  return out;
}

namespace {
std::string list(const std::vector<long>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size() && i < 40; ++i) s += (i ? " " : "") + std::to_string(v[i]);
  if (v.size() > 40) s += " ... (" + std::to_string(v.size()) + ")";
  return s.empty() ? "none" : s;
}
}  // namespace

gate_check records_prefix(const std::string& text, long logged, const std::string& tag) {
  const auto got = record_numbers(text, tag);
  for (std::size_t i = 0; i < got.size(); ++i)
    if (got[i] != static_cast<long>(i))
      return {false, "records arrived as [" + list(got) + "]: record " + std::to_string(i) +
                         " expected at position " + std::to_string(i)};
  if (static_cast<long>(got.size()) > logged)
    return {false, std::to_string(got.size()) + " records arrived, only " + std::to_string(logged) +
                       " were logged"};
  if (got.empty()) return {true, "no record of " + std::to_string(logged) + " arrived"};
  return {true, "records 0.." + std::to_string(static_cast<long>(got.size()) - 1) + " of " +
                    std::to_string(logged) + " arrived, in order"};
}

gate_check records_through(const std::string& text, long last, const std::string& tag) {
  const auto got = record_numbers(text, tag);
  for (long i = 0; i <= last; ++i)
    if (static_cast<long>(got.size()) <= i || got[static_cast<std::size_t>(i)] != i)
      return {false, "every record through " + std::to_string(last) +
                         " should have arrived in order; arrived: [" + list(got) + "]"};
  return {true, "records 0.." + std::to_string(last) + " arrived in order (" +
                    std::to_string(got.size()) + " in all)"};
}

gate_check records_in_order(const std::string& text, const std::string& tag) {
  const auto got = record_numbers(text, tag);
  for (std::size_t i = 1; i < got.size(); ++i)
    if (got[i] <= got[i - 1])
      return {false, "record " + std::to_string(got[i]) + " after " + std::to_string(got[i - 1]) +
                         ": [" + list(got) + "]"};
  return {true, std::to_string(got.size()) + " records, increasing"};
}

gate_check records_each_once(const std::string& text, long logged, const std::string& tag) {
  auto got = record_numbers(text, tag);
  std::sort(got.begin(), got.end());
  std::vector<long> missing, twice, extra;
  std::size_t i = 0;
  for (; i < got.size() && got[i] < 0; ++i) extra.push_back(got[i]);  // "rec -3": never logged
  for (long n = 0; n < logged; ++n) {
    if (i == got.size() || got[i] != n) missing.push_back(n);
    for (bool first = true; i < got.size() && got[i] == n; ++i, first = false)
      if (!first) twice.push_back(n);
  }
  extra.insert(extra.end(), got.begin() + static_cast<std::ptrdiff_t>(i), got.end());
  if (missing.empty() && twice.empty() && extra.empty())
    return {true, logged == 0 ? "no record was logged, and none arrived"
                              : "records 0.." + std::to_string(logged - 1) + " each arrived once"};
  return {false, "of records 0.." + std::to_string(logged - 1) + ": missing [" + list(missing) +
                     "], twice [" + list(twice) + "], not logged [" + list(extra) + "]"};
}

gate_check no_torn_record(const std::string& text) {
  if (text.empty() || text.back() == '\n') return {true, "every line is whole"};
  auto last = text.rfind('\n');
  return {false, "the last line is torn: \"" +
                     printable(text.substr(last == std::string::npos ? 0 : last + 1), 120) + "\""};
}

gate_check no_torn_record(const std::string& text, const std::string& whole_line) {
  std::optional<record_pattern> whole;
  try {
    whole.emplace(whole_line);
  } catch (const usage_error& e) {
    throw usage_error(std::string("no_torn_record: ") + e.what());
  }
  std::size_t lines = 0, torn = 0;
  std::string first;
  std::optional<gate_check> unchecked;
  for_each_line(text, [&](std::string_view line) {
    if (unchecked) return;
    ++lines;
    try {
      if (whole->matches(line)) return;
    } catch (const std::runtime_error& e) {  // Boost.Regex's bound on work
      unchecked = gate_check{false,
                             "line " + std::to_string(lines) + " (" + std::to_string(line.size()) +
                                 " bytes) could not be checked: " + e.what(),
                             false};
      return;
    }
    if (torn++ == 0) first = line.substr(0, 4096);
  });
  if (unchecked) return *unchecked;
  if (!text.empty() && text.back() != '\n' && torn == 0) return no_torn_record(text);
  if (torn == 0) return {true, std::to_string(lines) + " lines, every one a whole record"};
  return {false, std::to_string(torn) + " of " + std::to_string(lines) +
                     " lines torn (not one whole record), the first: \"" + printable(first, 160) +
                     "\""};
}

gate_check one_write_per_record(long write_calls, const std::string& text, const std::string& tag) {
  const long n = static_cast<long>(record_numbers(text, tag).size());
  if (write_calls == n) return {true, std::to_string(n) + " records in as many write calls"};
  return {false, std::to_string(n) + " records arrived in " + std::to_string(write_calls) +
                     " write calls"};
}

gate_check visible_at_marker(const observation& obs, std::size_t marker, bool on_stderr,
                             const std::string& needle) {
  if (marker == 0 || marker > obs.markers.size())
    return {false, "the program reached " + std::to_string(obs.markers.size()) + " markers, not " +
                       std::to_string(marker)};
  const auto& m = obs.markers[marker - 1];
  const std::string& data = on_stderr ? obs.err.data : obs.out.data;
  const std::size_t visible = on_stderr ? m.stderr_visible : m.stdout_visible;
  const bool seen = data.substr(0, visible).find(needle) != std::string::npos;
  return {seen, "at marker " + std::to_string(marker) + " '" + m.label + "' the reader had " +
                    std::to_string(visible) + " bytes" + (seen ? ", with \"" : ", without \"") +
                    needle + "\""};
}

}  // namespace flushcheck
