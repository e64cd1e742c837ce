// The generators of model cases (model_gen.hpp).
#include "model_gen.hpp"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <optional>
#include <string>

namespace flushcheck {
namespace {

/// gen::weightedOneOf over a list built at run time (it takes only an
/// initializer_list); shrinks towards the first choice.
template <typename T>
rc::Gen<T> weighted(std::vector<std::pair<std::size_t, rc::Gen<T>>> choices) {
  std::size_t total = 0;
  for (const auto& c : choices) total += c.first;
  return rc::gen::mapcat(rc::gen::inRange<std::size_t>(0, total), [choices](std::size_t x) {
    for (const auto& c : choices) {
      if (x < c.first) return c.second;
      x -= c.first;
    }
    return choices.back().second;
  });
}

/// Byte counts: mostly small, some on the buffer sizes of the profiles
/// (musl 1024 and setvbuf's 8 unused bytes, glibc 4096 from st_blksize,
/// BUFSIZ 8192), some large.
rc::Gen<long> gen_count(long max) {
  return rc::gen::map(rc::gen::weightedOneOf<long>(
                          {{6, rc::gen::inRange<long>(0, 12)},
                           {2, rc::gen::inRange<long>(12, 300)},
                           {2, rc::gen::elementOf(std::vector<long>{
                                   55,   56,   57,   63,   64,   65,   127,  128,  129,  1015, 1016,
                                   1017, 1023, 1024, 1025, 4095, 4096, 4097, 8191, 8192, 8193})},
                           {1, rc::gen::inRange<long>(300, 9000)}}),
                      [max](long n) { return std::min(n, max); });
}

rc::Gen<fc_stream> gen_stream(lang l) {
  if (l == lang::c) return rc::gen::weightedElement<fc_stream>({{3, FC_OUT}, {1, FC_ERR}});
  return rc::gen::weightedElement<fc_stream>({{4, FC_OUT}, {2, FC_ERR}, {1, FC_LOG}});
}

/// Weighted choices of ops, for weighted().
using op_choices = std::vector<std::pair<std::size_t, rc::Gen<fc_op>>>;

/// The ops that write, in language L: write, line, putc, printf, fputs, a newline.
op_choices output_ops(lang l) {
  using namespace rc;
  return {
      {5, gen::apply([](fc_stream s, long n) { return make_op(FC_WRITE, s, n); }, gen_stream(l),
                     gen_count(20000))},
      {5, gen::apply([](fc_stream s, long n) { return make_op(FC_LINE, s, n); }, gen_stream(l),
                     gen_count(20000))},
      {2, gen::apply([](fc_stream s, long n) { return make_op(FC_PUTC, s, n); }, gen_stream(l),
                     gen_count(1100))},
      {1, gen::map(gen_count(4000), [](long n) { return make_op(FC_PRINTF, FC_OUT, n); })},
      {1, gen::apply([](fc_stream s, long n) { return make_op(FC_FPUTS, s, n); },
                     gen::element(FC_OUT, FC_ERR), gen_count(20000))},
      {1, gen::map(gen_stream(l), [](fc_stream s) { return make_op(FC_NEWLINE, s); })},
  };
}

/// The ops on the buffers and the markers: flush, setvbuf, marker.
void add_buffer_ops(op_choices& ops) {
  using namespace rc;
  ops.push_back(
      {2, gen::map(gen::weightedElement<fc_stream>({{3, FC_OUT}, {1, FC_ERR}, {1, FC_ALL}}),
                   [](fc_stream s) { return make_op(FC_FLUSH, s); })});
  ops.push_back(
      {1,
       gen::apply(
           [](int mode, long size, fc_stream s) { return make_op(FC_SETVBUF, s, size, mode); },
           gen::inRange(0, 3),
           gen::elementOf(std::vector<long>{0, 1, 8, 9, 64, 100, 127, 128, 129, 1024, 4096, 5000}),
           gen::element(FC_OUT, FC_ERR))});
  ops.push_back({2, gen::just(make_op(FC_MARKER))});
}

/// The reads of stdin: read, getline.
void add_input_ops(op_choices& ops) {
  using namespace rc;
  ops.push_back(
      {1, gen::map(gen::inRange<long>(1, 8), [](long n) { return make_op(FC_READ, FC_OUT, n); })});
  ops.push_back({1, gen::just(make_op(FC_GETLINE))});
}

/// Faulted scripts also ignore SIGPIPE (so EPIPE takes the error path)
/// and, in C++, stop clearing a stream the target reported ("clear off").
void add_fault_ops(lang l, op_choices& ops) {
  using namespace rc;
  ops.push_back({1, gen::just(make_op(FC_IGNORE, FC_OUT, SIGPIPE))});
  if (l == lang::cxx) ops.push_back({1, gen::just(make_op(FC_CLEAR, FC_OUT, 0))});
}

/// The C++ streams' own ops: endl, unitbuf, tie, sync_with_stdio.
void add_cxx_ops(lang l, op_choices& ops) {
  using namespace rc;
  ops.push_back({3, gen::map(gen_stream(l), [](fc_stream s) { return make_op(FC_ENDL, s); })});
  ops.push_back({1, gen::apply([](bool on, fc_stream s) { return make_op(FC_UNITBUF, s, on); },
                               gen::arbitrary<bool>(), gen_stream(l))});
  ops.push_back({1, gen::apply([](fc_stream s, bool on) { return make_op(FC_TIE, s, on); },
                               gen::element(FC_IN, FC_ERR, FC_LOG), gen::arbitrary<bool>())});
  ops.push_back({1, gen::just(make_op(FC_SYNC, FC_OUT, 0))});
}

/// One op of a script in language L: reads of stdin too WITH_INPUT, the
/// fault ops when FAULTS.
rc::Gen<fc_op> gen_op(lang l, bool with_input, bool faults) {
  op_choices ops = output_ops(l);
  add_buffer_ops(ops);
  if (with_input) add_input_ops(ops);
  if (faults) add_fault_ops(l, ops);
  if (l == lang::cxx) add_cxx_ops(l, ops);
  return weighted<fc_op>(std::move(ops));
}

/// How the script ends: falls off main (none), or a call that ends it.
rc::Gen<std::vector<fc_op>> gen_ending(lang l) {
  using namespace rc;
  std::vector<std::pair<std::size_t, Gen<std::vector<fc_op>>>> endings = {
      {4, gen::just(std::vector<fc_op>{})},
      {1, gen::just(std::vector<fc_op>{make_op(FC_EXIT, FC_OUT, 3)})},
      {1, gen::just(std::vector<fc_op>{make_op(FC_RETURN, FC_OUT, 5)})},
      {1, gen::just(std::vector<fc_op>{make_op(FC_UEXIT, FC_OUT, 4)})},
      {1, gen::just(std::vector<fc_op>{make_op(FC_QUICK_EXIT, FC_OUT, 6)})},
      {1, gen::just(std::vector<fc_op>{make_op(FC_ABORT)})},
      {1, gen::just(std::vector<fc_op>{make_op(FC_CRASH)})},
      {1, gen::just(std::vector<fc_op>{make_op(FC_RAISE, FC_OUT, SIGTERM)})},
  };
  if (l == lang::cxx) endings.push_back({1, gen::just(std::vector<fc_op>{make_op(FC_THROW)})});
  return weighted<std::vector<fc_op>>(std::move(endings));
}

struct setup_choice {
  sink_kind out = sink_kind::pipe;
  std::optional<sink_kind> err = sink_kind::pipe;
  std::string input;
};

/// stdout's sink: a pty, a pipe or a file, now and then /dev/null or /dev/full.
rc::Gen<sink_kind> gen_stdout_sink() {
  return rc::gen::weightedElement<sink_kind>({{3, sink_kind::pty},
                                              {3, sink_kind::pipe},
                                              {3, sink_kind::file},
                                              {1, sink_kind::null},
                                              {1, sink_kind::full}});
}

rc::Gen<setup_choice> gen_setup() {
  using namespace rc;
  return gen::apply(
      [](sink_kind out, int err, bool input) {
        setup_choice c;
        c.out = out;
        c.err = err == 0 ? std::nullopt
                         : std::optional<sink_kind>(err == 1 ? sink_kind::pipe : sink_kind::file);
        if (input) c.input = "first line\nsecond\nthird line of stdin\n";
        return c;
      },
      gen_stdout_sink(), gen::inRange(0, 3), gen::arbitrary<bool>());
}

/// A plan's calls, from what was drawn: WHEN 0 to 3 the N-th call (2 and 3:
/// TIMES calls from it), 4 every call, 5 and 6 each with probability P (0:
/// 0.2, else 0.5) from SEED.
fault_plan plan_calls(int when, long n, long times, int p, unsigned seed) {
  fault_plan f;
  f.when = when < 4    ? fault_plan::pattern::nth
           : when == 4 ? fault_plan::pattern::every
                       : fault_plan::pattern::random;
  f.n = n;
  f.times = when < 2 ? 1 : when < 4 ? times : 1;
  f.probability = p == 0 ? 0.2 : 0.5;
  f.seed = seed;
  return f;
}

/// What F does to the calls it hits, from WHAT: an errno, or (SHORT_OK, on
/// stdout) a short write, small on single calls, larger on many.
void plan_failure(fault_plan& f, int what, bool to_stderr, bool short_ok) {
  static const int errnos[] = {EAGAIN, ENOSPC, EPIPE, EINTR, EIO};
  const bool nth = f.when == fault_plan::pattern::nth;
  if (short_ok && !to_stderr && what >= 5) {
    static const long small[] = {1, 2, 5, 100, 1000}, large[] = {100, 1000, 4000};
    f.short_bytes = nth ? small[what % 5] : large[what % 3];
  } else {
    f.error = errnos[what % 5];
  }
}

/// One --fault plan. Errnos on stdout's or stderr's destination; short
/// writes only on stdout's when stderr has its own sink (the targets'
/// error reports are never torn): small ones on single calls, larger ones
/// on every call or a random subset.
rc::Gen<fault_plan> gen_fault(bool short_ok) {
  using namespace rc;
  return gen::apply(
      [short_ok](int what, bool to_stderr, int when, long n, long times, int p, unsigned seed) {
        fault_plan f = plan_calls(when, n, times, p, seed);
        plan_failure(f, what, to_stderr, short_ok);
        f.where = to_stderr ? fault_plan::target::stderr_sink : fault_plan::target::stdout_sink;
        return f;
      },
      gen::inRange(0, 12), gen::weightedElement<bool>({{3, false}, {1, true}}), gen::inRange(0, 7),
      gen::inRange<long>(1, 7), gen::inRange<long>(2, 5), gen::inRange(0, 2),
      gen::inRange<unsigned>(1, 1000));
}

/// Drops what the model does not port under faults: an uncaught exception
/// when a plan reaches stderr's destination (the terminate handler writes there).
void fit_faults(model_case& c) {
  if (c.setup.faults.empty() || c.ops.ops.empty() || c.ops.ops.back().kind != FC_THROW) return;
  for (const auto& f : c.setup.faults)
    if (f.where == fault_plan::target::stderr_sink || !c.setup.stderr_sink) {
      c.ops.ops.pop_back();
      return;
    }
}

/// A cut of FAMILY for case C: a marker (or none: the script's own ending),
/// or write:N / after-write:N with N among the calls the uncut run makes.
kill_plan pick_cut(const model_case& c, cut_family family, int kind, long raw, bool term) {
  const int sig = term ? SIGTERM : SIGKILL;
  if (family == cut_family::markers_and_endings) {
    long markers = 0;
    for (const auto& op : c.ops.ops) markers += op.kind == FC_MARKER ? 1 : 0;
    return kind != 0 && markers > 0 ? kill_plan::at_marker(1 + raw % markers, sig) : kill_plan{};
  }
  const prediction whole = predict(c.setup, c.ops, kill_plan{});
  if (!whole.exact || whole.writes[0].first == 0) return {};
  const long n = 1 + raw % whole.writes[0].first;
  return kind == 0 ? kill_plan::at_write(n, sig) : kill_plan::after_write(n, sig);
}

/// Which streams a script has used and set a buffer on, as normalize()
/// takes its ops: setvbuf only before a stream's first operation.
struct buffer_use {
  bool used_out = false, used_err = false, set_out = false, set_err = false;
  /// False for a setvbuf after its stream's first operation or first
  /// setvbuf, which normalize() drops; else notes what OP uses or sets.
  bool admit(const fc_op& op, lang l) {
    if (op.kind == FC_SETVBUF) {
      const bool err = op.stream == FC_ERR;
      if (err ? (used_err || set_err) : (used_out || set_out)) return false;
      (err ? set_err : set_out) = true;
    }
    if (is_output_op(op) || op.kind == FC_FLUSH) {
      used_out = used_out || op.stream != FC_ERR || l == lang::cxx;
      used_err = used_err || op.stream != FC_OUT;
    }
    return true;
  }
};

/// A case's fault plans: one or two when FAULTS, else none.
rc::Gen<std::vector<fault_plan>> gen_plans(bool faults, bool short_ok) {
  using namespace rc;
  if (!faults) return gen::just(std::vector<fault_plan>{});
  // One or two plans (gen::resize would also shrink every value in them).
  return gen::mapcat(gen::inRange(1, 3), [short_ok](int n) {
    return gen::container<std::vector<fault_plan>>(static_cast<std::size_t>(n),
                                                   gen_fault(short_ok));
  });
}

/// A case's setup in language L for PROFILE: SC's sinks and stdin, PLANS,
/// and st_blksize as the sinks give it.
model_setup setup_of(lang l, const impl_profile& profile, const setup_choice& sc,
                     std::vector<fault_plan> plans) {
  model_setup setup;
  setup.language = l;
  setup.profile = profile;
  setup.stdout_sink = sc.out;
  setup.stderr_sink = sc.err;
  setup.input = sc.input;
  setup.faults = std::move(plans);
  return with_st_blksize(std::move(setup));
}

/// A whole case on SC's sinks and stdin (gen_case()).
rc::Gen<model_case> gen_case_on(lang l, const impl_profile& profile, cut_family family, bool faults,
                                const setup_choice& sc) {
  using namespace rc;
  auto families = faults ? gen::element(cut_family::markers_and_endings, cut_family::writes)
                         : gen::just(family);
  return gen::apply(
      [l, profile, sc](const std::vector<fc_op>& ops, const std::vector<fc_op>& ending,
                       std::vector<fault_plan> plans, cut_family fam, int cut_kind, long raw,
                       bool term) {
        model_case c;
        c.setup = setup_of(l, profile, sc, std::move(plans));
        c.ops = normalize(ops, ending, l, !c.setup.faults.empty());
        fit_faults(c);
        c.cut = pick_cut(c, fam, cut_kind, raw, term);
        return c;
      },
      gen::container<std::vector<fc_op>>(gen_op(l, !sc.input.empty(), faults)), gen_ending(l),
      gen_plans(faults, sc.err.has_value()), families, gen::inRange(0, 2),
      gen::inRange<long>(0, 1000), gen::arbitrary<bool>());
}

}  // namespace

fc_op make_op(fc_op_kind kind, fc_stream stream, long n, int mode) {
  fc_op op{};
  op.kind = kind;
  op.stream = stream;
  op.n = n;
  op.mode = mode;
  return op;
}

/// Makes a generated (or shrunk) op list a script the model covers:
/// setvbuf only before a stream's first operation, sync_with_stdio only
/// first (NO_SYNC: never), markers labelled m1.., at most 61 ops so that
/// every op's byte is its own (docs/script.md), C ops only for C.
script normalize(std::vector<fc_op> ops, const std::vector<fc_op>& ending, lang l, bool no_sync) {
  script s;
  buffer_use buffers;
  int markers = 0;
  for (auto op : ops) {
    if (s.ops.size() >= 60) break;
    if (l == lang::c && op.stream == FC_LOG) op.stream = FC_OUT;
    if (op.kind == FC_SYNC && (no_sync || !s.ops.empty())) continue;
    if (!buffers.admit(op, l)) continue;
    if (op.kind == FC_MARKER) std::snprintf(op.label, sizeof op.label, "m%d", ++markers);
    s.ops.push_back(op);
  }
  for (const auto& op : ending) s.ops.push_back(op);
  return s;
}

/// A whole case for PROFILE in language L; cuts of FAMILY. FAULTS: one or
/// two --fault plans, and cuts of either family.
rc::Gen<model_case> gen_case(lang l, const impl_profile& profile, cut_family family, bool faults) {
  return rc::gen::mapcat(gen_setup(), [l, profile, family, faults](const setup_choice& sc) {
    return gen_case_on(l, profile, family, faults, sc);
  });
}

void showValue(const model_case& c, std::ostream& os) {
  os << "script: " << c.ops.text() << "\nstdout: " << to_string(c.setup.stdout_sink) << ", stderr: "
     << (c.setup.stderr_sink ? std::string(to_string(*c.setup.stderr_sink)) : "stdout")
     << ", stdin: " << (c.setup.input.empty() ? "null" : "pipe") << ", cut: " << c.cut.text();
  for (const auto& f : c.setup.faults) os << ", --fault=" << f.text();
}

}  // namespace flushcheck
