// The `tracer` suite: what counting write(2) costs. Each workload runs plain
// (the harness, no tracer), under a bare ptrace loop (the floor), under the
// flushcheck tracer, under `strace -f -c`, and with the perf and eBPF
// backends where they can run; round by round, so that a drift of the machine reaches every
// variant alike, in blocks where one variant leaves work behind that would tax the
// others. Timed from outside: the run itself is what is measured.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>

#include "bench_bare_loop.hpp"
#include "bench_bpftrace.hpp"
#include "bench_suites.hpp"
#include "bpf_counter.hpp"
#include "cpu_pin.hpp"
#include "error.hpp"
#include "escape.hpp"
#include "perf_counter.hpp"
#include "repro.hpp"
#include "run.hpp"

namespace flushcheck::detail {
namespace {

struct workload {
  std::string label;  ///< "(a) unbuffered putc"
  std::vector<std::string> argv;
  long writes;  ///< write calls it makes (0: few)
  int rounds;
};

struct variant {
  std::string name;
  std::function<long()> run;  ///< the writes it counted, -1 if none; throws variant_failed
  std::string repro;
  /// Untimed, before each run: what the run needs held (the eBPF object
  /// attached), let go after it, so that no other variant pays for it.
  std::function<std::shared_ptr<void>()> hold;
  /// Timed in the first round only: strace under --quick, where its row,
  /// at 300x plain, took 8 of bench --quick's 17 s.
  bool once = false;
  /// The variants of a block are timed round by round, and the blocks one
  /// after another: an eBPF object's detach leaves RCU work behind that
  /// taxes the runs after it (interleaved, /bin/true's plain median went
  /// from 544 to 650 us and the tracer's from 725 to 824 us).
  int block = 0;
};

/// A variant's run that did not end as it should: its row is FAILED.
struct variant_failed {
  std::string why;
};

run_options plain_options(const std::vector<std::string>& argv) {
  run_options o;
  o.argv = argv;
  o.env = clean_environment();
  o.stdout_sink = sink_kind::null;
  o.timeout = std::chrono::minutes(5);
  return o;
}

/// A run of the harness, placed as a traced run places itself: the run loop
/// and the program (which inherits the pin) on one CPU, so that a traced row
/// and its plain row differ by the tracer alone, not by where the scheduler
/// put an unpinned program (plain's median was 2.7x its minimum unpinned).
variant harness_variant(const std::string& name, run_options o) {
  auto count = [o] {
    const cpu_pin pin;
    auto obs = run(o);
    if (obs.status != wait_status::exited(0))
      throw variant_failed{"the run " + obs.status.describe() + ": " +
                           obs.err.data.substr(0, obs.err.data.find('\n'))};
    return obs.trace ? obs.trace->totals[static_cast<int>(traced_call::write)] : -1L;
  };
  return {name, count, repro_command(o), {}, false, 0};
}

long bare_loop(const std::vector<std::string>& argv) {
  long stops = bare_ptrace_loop({.argv = argv});
  if (stops < 0) throw variant_failed{"the bare loop's program did not run to its end"};
  return stops;
}

/// ARGV run under `strace -f -c`, counting its writes as the seeds did.
std::vector<std::string> strace_argv(const std::vector<std::string>& argv) {
  std::vector<std::string> st = {"strace", "-f", "-c", "-o", "/dev/null", "-e", "trace=write"};
  st.insert(st.end(), argv.begin(), argv.end());
  return st;
}

/// The eBPF backend's variants of TRACED: attaching per run, attached
/// throughout (the attachment held untimed), and its floor: the program run
/// plain while empty programs sit on the same attach points (held untimed).
/// In a block after the others, round by round among themselves.
void add_bpf_variants(std::vector<variant>& v, run_options traced) {
  run_options plain = traced;
  plain.trace = false;
  traced.backend = trace_backend::bpf;
  v.push_back(harness_variant("eBPF backend", traced));
  v.back().block = 1;
  v.push_back(harness_variant("eBPF backend, attached", traced));
  v.back().hold = [] { return std::make_shared<bpf_attachment>(); };
  v.back().block = 1;
  v.push_back(harness_variant("eBPF floor (empty)", plain));
  v.back().hold = [] { return std::make_shared<bpf_floor_attachment>(); };
  v.back().block = 1;
}

std::vector<variant> variants(const workload& w, bool quick) {
  auto traced = plain_options(w.argv);
  traced.trace = true;
  std::vector<variant> v = {
      harness_variant("plain", plain_options(w.argv)),
      {"bare ptrace loop", [argv = w.argv] { return bare_loop(argv); }, "", {}, false, 0},
      harness_variant("flushcheck tracer", traced)};
  if (::access("/usr/bin/strace", X_OK) == 0) {
    v.push_back(harness_variant("strace -f -c", plain_options(strace_argv(w.argv))));
    v.back().once = quick;
  }
  if (bpf_unavailable_reason().empty()) add_bpf_variants(v, traced);
  return v;
}

/// One timed run of V into ROW: its time and count, or ROW failed.
void time_once(const variant& v, bench_row& row) {
  try {
    const std::shared_ptr<void> held = v.hold ? v.hold() : nullptr;
    auto t0 = std::chrono::steady_clock::now();
    long counted = v.run();
    row.seconds.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    if (counted >= 0) row.write_calls = counted;
  } catch (const variant_failed& f) {
    row.failed = true;
    row.skipped = f.why;
  }
}

/// A row named "LABEL: NAME" of W's series, before it is timed.
bench_row row_of(const workload& w, const std::string& name, const std::string& repro) {
  bench_row row;
  row.name = w.label + ": " + name;
  row.series = w.label;
  row.sink = "null";
  row.ops = w.writes;
  row.repro = repro;
  return row;
}

/// The basename of PATH as the kernel keeps it for comm: 15 bytes.
std::string comm_of(const std::string& path) {
  return path.substr(path.rfind('/') + 1).substr(0, 15);
}

/// bpftrace's counts of the runs it watched (PIDS): each one's, all equal,
/// or ROW failed.
void check_bpftrace_counts(const std::map<pid_t, long>& counts, const std::vector<pid_t>& pids,
                           bench_row& row) {
  for (pid_t p : pids) {
    const auto it = counts.find(p);
    const long n = it == counts.end() ? 0 : it->second;
    if (row.write_calls >= 0 && n != row.write_calls) {
      row.failed = true;
      row.skipped = "bpftrace counted " + std::to_string(row.write_calls) + " writes in one run, " +
                    std::to_string(n) + " in another";
    }
    row.write_calls = n;
  }
}

/// A shell line that counts W's writes with bpftrace around RUN_REPRO.
std::string bpftrace_repro(const workload& w, const std::string& run_repro) {
  // bpftrace attached in the background while flushcheck runs the program once
  return "bpftrace -e " +
         shell_quote("tracepoint:syscalls:sys_enter_write /comm == \"" + comm_of(w.argv[0]) +
                     "\"/ { @[pid] = count(); }") +
         " & sleep 5; " + run_repro + "; kill -INT $!; wait";
}

/// Starts bpftrace on W's program into SESSION; false, ROW saying why, if
/// bpftrace refused.
bool start_bpftrace(const workload& w, std::optional<bpftrace_session>& session, bench_row& row) {
  try {
    session.emplace(comm_of(w.argv[0]));
  } catch (const harness_error& e) {  // bpftrace's own refusal: not measured, and why
    row.skipped = e.what();
    return false;
  }
  return true;
}

/// W's rounds of V timed into ROW while SESSION counts, then its counts of
/// the runs (PIDS) checked; or ROW failed.
void time_counted_rounds(const workload& w, const variant& v, bpftrace_session& session,
                         const std::vector<pid_t>& pids, bench_row& row) {
  try {
    for (int round = 0; round < w.rounds && !row.failed; ++round) time_once(v, row);
    check_bpftrace_counts(session.finish(), pids, row);
  } catch (const harness_error& e) {
    row.failed = true;
    row.skipped = e.what();
  }
}

/// bpftrace counting W's writes: started once and attached for all of
/// W's rounds, in a block after the other variants (its start takes about a
/// second, and attached it taxes every syscall of the machine).
bench_row bpftrace_row(const workload& w) {
  bench_row row = row_of(w, "bpftrace", "");
  std::vector<pid_t> pids;
  run_options o = plain_options(w.argv);
  o.on_spawn = [&pids](int pid) { pids.push_back(pid); };
  variant v = harness_variant("bpftrace", o);
  row.repro = bpftrace_repro(w, v.repro);
  std::optional<bpftrace_session> session;
  if (!start_bpftrace(w, session, row)) return row;
  time_counted_rounds(w, v, *session, pids, row);
  return row;
}

/// The perf backend counting W: its tracepoints registered once for all of
/// W's rounds (a perf_attachment), in a block after the other variants.
/// Registering and unregistering them costs about 0.5 s, which each round
/// cannot pay; registered, they tax every syscall of the machine, so the
/// other variants run without them.
bench_row perf_row(const workload& w) {
  auto o = plain_options(w.argv);
  o.trace = true;
  o.backend = trace_backend::perf;
  const variant v = harness_variant("perf backend", o);
  bench_row row = row_of(w, v.name, v.repro);
  const perf_attachment held;
  for (int round = 0; round < w.rounds && !row.failed; ++round) time_once(v, row);
  return row;
}

/// The rows of W: block by block, every variant of the block timed once
/// per round, in turn.
std::vector<bench_row> measure_workload(const bench_context& ctx, const workload& w) {
  auto vs = variants(w, ctx.options.quick);
  std::vector<bench_row> rows;
  for (const auto& v : vs) rows.push_back(row_of(w, v.name, v.repro));
  if (ctx.options.progress) ctx.options.progress(w.label);
  int last = 0;
  for (const auto& v : vs) last = std::max(last, v.block);
  for (int block = 0; block <= last; ++block)
    for (int round = 0; round < w.rounds; ++round)
      for (std::size_t i = 0; i < vs.size(); ++i)
        if (vs[i].block == block && !rows[i].failed && (round == 0 || !vs[i].once))
          time_once(vs[i], rows[i]);
  if (perf_unavailable_reason().empty()) rows.push_back(perf_row(w));
  if (bpftrace_unavailable_reason().empty() && bpf_unavailable_reason().empty())
    rows.push_back(bpftrace_row(w));
  double plain = rows[0].measured() ? rows[0].median() : 0;
  for (auto& r : rows) r.values["x_plain"] = plain > 0 && r.measured() ? r.median() / plain : 0;
  return rows;
}

double x_plain(const bench_suite& s, const std::string& name) {
  const bench_row* r = find_row(s, name);
  return r ? r->values.at("x_plain") : 0;
}

/// Microseconds per write the variant adds to plain, in workload (a).
double per_write(const bench_suite& s, const std::string& variant_name) {
  const bench_row* plain = find_row(s, "(a) unbuffered putc: plain");
  const bench_row* r = find_row(s, "(a) unbuffered putc: " + variant_name);
  if (!plain || !r || r->ops <= 0) return 0;
  return (r->median() - plain->median()) / static_cast<double>(r->ops) * 1e6;
}

/// The tracer and the bare loop each count the WRITES of workload (a).
void add_count_claim(bench_suite& s, long writes) {
  const bench_row* t = find_row(s, "(a) unbuffered putc: flushcheck tracer");
  const bench_row* bare = find_row(s, "(a) unbuffered putc: bare ptrace loop");
  bool exact = t && bare && t->write_calls == writes && bare->write_calls == writes;
  s.claims.push_back(claim("the tracer counts every write() (docs/tracing.md)", "mechanism", exact,
                           "tracer " + std::to_string(t ? t->write_calls : -1) + ", bare loop " +
                               std::to_string(bare ? bare->write_calls : -1) + " of " +
                               std::to_string(writes)));
}

/// What a traced write costs: against strace, with the bare loop's floor.
void add_per_write_claim(bench_suite& s) {
  double ours = per_write(s, "flushcheck tracer"), floor = per_write(s, "bare ptrace loop");
  double st = per_write(s, "strace -f -c");
  s.claims.push_back(claim("per traced write, the tracer costs less than strace -f -c", "ordering",
                           st > 0 && ours > 0 && ours < st,
                           significant(ours) + " us per write (bare loop " + significant(floor) +
                               " us, strace " + (st > 0 ? significant(st) + " us" : "not run") +
                               ")"));
}

/// What tracing costs a program that writes nothing (workload (c), /bin/true).
void add_fixed_cost_claim(bench_suite& s) {
  double fixed = x_plain(s, "(c) /bin/true: flushcheck tracer");
  s.claims.push_back(
      claim("a traced run of a program that writes nothing costs at most 1.15x "
            "plain (the tracer's goal, docs/tracing.md)",
            "ordering", fixed > 0 && fixed <= 1.15, significant(fixed) + "x plain"));
}

void add_claims(bench_suite& s, long writes) {
  add_count_claim(s, writes);
  add_fixed_cost_claim(s);
  add_per_write_claim(s);
}

/// The eBPF backend against plain on (a) and (b), and against bpftrace.
void add_bpf_plain_claims(bench_suite& s) {
  const double a = x_plain(s, "(a) unbuffered putc: eBPF backend");
  const double bb = x_plain(s, "(b) buffered putc: eBPF backend");
  s.claims.push_back(claim("the eBPF backend costs at most 1.5x plain on (a) unbuffered putc",
                           "ordering", a > 0 && a <= 1.5, significant(a) + "x plain"));
  s.claims.push_back(claim("the eBPF backend costs at most 1.05x plain on (b) buffered putc",
                           "ordering", bb > 0 && bb <= 1.05, significant(bb) + "x plain"));
  // Like for like: bpftrace is started once and attached for all its
  // rounds, so it is set against the backend attached throughout, not
  // against the row that attaches and detaches (RCU waits) in each run.
  const double bt = x_plain(s, "(a) unbuffered putc: bpftrace");
  const double held = x_plain(s, "(a) unbuffered putc: eBPF backend, attached");
  if (bt > 0)
    s.claims.push_back(
        claim("the eBPF backend, attached, costs less than bpftrace (attached throughout) on (a) "
              "unbuffered putc",
              "ordering", held > 0 && held < bt,
              significant(held) + "x plain, bpftrace " + significant(bt) + "x"));
}

/// The eBPF backend, attached, against its floor on (a): what counting adds
/// to what the attach points cost by themselves (issue 57's goal: 1.15x).
void add_bpf_floor_claim(bench_suite& s) {
  const double floor = x_plain(s, "(a) unbuffered putc: eBPF floor (empty)");
  const double attached = x_plain(s, "(a) unbuffered putc: eBPF backend, attached");
  const double x = floor > 0 ? attached / floor : 0;
  s.claims.push_back(
      claim("the eBPF backend, attached, costs at most 1.15x its floor (empty programs on the same "
            "attach points) on (a) unbuffered putc",
            "ordering", x > 0 && x <= 1.15,
            significant(x) + "x the floor (the floor " + significant(floor) +
                "x plain, the backend " + significant(attached) + "x plain)"));
}

/// The eBPF backend's goals (issue 40, docs/tracing.md): exact, a tenth of
/// the tracer's cost per write, 1.5x plain on (a), 1.05x on (b); and 1.15x
/// its floor (issue 57).
void add_bpf_claims(bench_suite& s, long writes) {
  const bench_row* b = find_row(s, "(a) unbuffered putc: eBPF backend");
  if (b == nullptr) return;  // not measured: a note says why
  s.claims.push_back(claim("the eBPF backend counts every write() (docs/tracing.md)", "mechanism",
                           b->write_calls == writes,
                           std::to_string(b->write_calls) + " of " + std::to_string(writes)));
  const double ours = per_write(s, "eBPF backend"), tracer = per_write(s, "flushcheck tracer");
  s.claims.push_back(
      claim("per write, the eBPF backend costs at most a tenth of the tracer", "ordering",
            ours > 0 && tracer > 0 && ours * 10 <= tracer,
            significant(ours) + " us per write, tracer " + significant(tracer) + " us"));
  add_bpf_plain_claims(s);
  add_bpf_floor_claim(s);
}

/// The tracer suite before its rows: its name and what it says of itself.
bench_suite described_tracer_suite() {
  bench_suite s;
  s.name = "tracer";
  s.title =
      "what counting write(2) costs: plain, a bare ptrace loop, the tracer, strace, perf, eBPF, "
      "bpftrace";
  s.seed = "the tracer's goals (docs/tracing.md); strace -c is how the seeds counted";
  s.baseline = "each workload's plain run";
  s.placement =
      "every row run by the harness (plain too) with its run loop and program on one CPU, and the "
      "tracer thread there too when traced (cpu_pin.hpp); the eBPF backend's rows round by round "
      "among themselves in a block after the others (a detach leaves RCU work that taxes the runs "
      "after it); the perf backend's and bpftrace's rows each in a block after those, attached "
      "throughout";
  return s;
}

/// The workloads: (a) N unbuffered putc, (b) many buffered ones, (c) a
/// program that writes nothing.
std::vector<workload> workloads(const bench_context& ctx, long n) {
  const std::string script = ctx.options.default_set.stdio_script;
  long big = ctx.sizes.scale(10000000, 1000000);
  int rounds = ctx.options.repeat;
  return {{"(a) unbuffered putc", {script, "setvbuf none; putc " + std::to_string(n)}, n, rounds},
          {"(b) buffered putc", {script, "putc " + std::to_string(big) + "; exit 0"}, 0, rounds},
          {"(c) /bin/true", {"/bin/true"}, 0, rounds * 10}};
}

/// A note for each variant this machine could not run, and why.
void add_not_measured_notes(bench_suite& s) {
  if (std::string why = perf_unavailable_reason(); !why.empty())
    s.notes.push_back("perf backend not measured: " + why);
  if (std::string why = bpf_unavailable_reason(); !why.empty())
    s.notes.push_back("eBPF backend and bpftrace not measured: " + why);
  else if (std::string bt = bpftrace_unavailable_reason(); !bt.empty())
    s.notes.push_back("bpftrace not measured: " + bt);
  if (::access("/usr/bin/strace", X_OK) != 0) s.notes.push_back("strace not installed");
}

}  // namespace

bench_suite tracer_suite(const bench_context& ctx) {
  bench_suite s = described_tracer_suite();
  long n = ctx.sizes.scale(50000, 20000);
  for (const auto& w : workloads(ctx, n))
    for (auto& r : measure_workload(ctx, w)) s.rows.push_back(std::move(r));
  add_not_measured_notes(s);
  for (auto& r : s.rows) r.ratio = r.values.at("x_plain");  // each workload against its plain run
  add_claims(s, n);
  add_bpf_claims(s, n);
  return s;
}

}  // namespace flushcheck::detail
