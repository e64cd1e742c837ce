// The `iostream` suite (SEED_CLAIMS C): std::endl against '\n', a flush
// every K lines, sync_with_stdio, unitbuf and a tied cin, to an ofstream and
// to cout, per C++ toolchain set (targets/bench/bench_iostream.cpp).
#include "bench_suites.hpp"

namespace flushcheck::detail {
namespace {

struct iostream_spec {
  std::string name;                ///< "endl ofstream"
  std::vector<std::string> flags;  ///< --ofstream, --unsync, ...
  std::string op;                  ///< endl, nl, nl_flush, fprintf, tied
  long every = 0;                  ///< nl_flush: lines per flush
  sink_kind sink = sink_kind::file;
};

/// The bench program of SET with S's flags, its op, LINES and S's lines per flush.
std::vector<std::string> iostream_argv(const target_set& set, const iostream_spec& s, long lines) {
  std::vector<std::string> argv = {bench_program(set, "bench_iostream")};
  argv.insert(argv.end(), s.flags.begin(), s.flags.end());
  argv.push_back(s.op);
  argv.push_back(std::to_string(lines));
  if (s.every > 0) argv.push_back(std::to_string(s.every));
  return argv;
}

bench_case iostream_case(const target_set& set, const iostream_spec& s, long lines) {
  bench_case c;
  c.row.name = s.name + " " + std::string(to_string(s.sink)) + " [" + set.name + "]";
  c.row.toolchain = set.name;
  c.row.sink = to_string(s.sink);
  c.row.ops = lines;
  c.row.bytes = 10 * lines;
  c.argv = iostream_argv(set, s, lines);
  if (s.op == "tied") c.input = std::string(static_cast<std::size_t>(lines), 'i');
  c.sink = s.sink;
  return c;
}

/// The ofstream rows of the flush-interval plot: x is lines per flush
/// (1: endl; N: '\n' with no flush of the program's own: the filebuf writes
/// when its buffer is full, and at the final flush).
void add_flush_sweep(const bench_context& ctx, const target_set& set, long n, bench_suite& out) {
  auto sweep_row = [&](iostream_spec spec, long per_flush) {
    auto c = iostream_case(set, spec, n);
    c.row.series = set.name;
    c.row.x = static_cast<double>(per_flush);
    out.rows.push_back(ctx.measure(c));
  };
  sweep_row({"endl ofstream", {"--ofstream"}, "endl"}, 1);
  for (long k : {10L, 100L, 1000L, 10000L})
    if (k < n)
      sweep_row({"'\\n' + flush/" + std::to_string(k) + " ofstream", {"--ofstream"}, "nl_flush", k},
                k);
  sweep_row({"'\\n' ofstream", {"--ofstream"}, "nl"}, n);
}

void add_set(const bench_context& ctx, const target_set& set, bench_suite& out) {
  long n = ctx.sizes.scale(100000, 10000);
  add_flush_sweep(ctx, set, n, out);
  const std::vector<iostream_spec> specs = {{"endl cout", {}, "endl"},
                                            {"'\\n' cout", {}, "nl"},
                                            {"'\\n' cout unsync", {"--unsync"}, "nl"},
                                            {"unitbuf cout", {"--unitbuf"}, "nl"},
                                            {"fprintf", {}, "fprintf"},
                                            {"endl cout", {}, "endl", 0, sink_kind::pipe},
                                            {"'\\n' cout", {}, "nl", 0, sink_kind::pipe}};
  for (const auto& spec : specs) out.rows.push_back(ctx.measure(iostream_case(set, spec, n)));
  long pairs = ctx.sizes.scale(20000, 2000);
  out.rows.push_back(ctx.measure(iostream_case(set, {"tied cin", {}, "tied"}, pairs)));
  out.rows.push_back(ctx.measure(iostream_case(set, {"untied cin", {"--untie"}, "tied"}, pairs)));
}

const bench_row* row(const bench_suite& s, const std::string& name, const std::string& t) {
  return measured_row(s, name + " [" + t + "]");
}

/// std::endl flushes: one write() per line, in set T.
bench_claim endl_claim(const bench_suite& s, const std::string& t) {
  const bench_row* endl = row(s, "endl ofstream file", t);
  return claim("std::endl is '\\n' plus flush(): one write() per line (C)", "mechanism",
               endl && endl->write_calls == endl->ops,
               endl ? std::to_string(endl->write_calls) + " write() for " +
                          std::to_string(endl->ops) + " lines [" + t + "]"
                    : "not measured");
}

/// A tied cin flushes cout before each read; untied, it does not; in set T.
bench_claim tie_claim(const bench_suite& s, const std::string& t) {
  const bench_row* tied = row(s, "tied cin file", t);
  const bench_row* untied = row(s, "untied cin file", t);
  return claim(
      "cin is tied to cout: cout is flushed before every read from cin (C)", "mechanism",
      tied && untied && tied->write_calls == tied->ops && untied->write_calls < untied->ops,
      tied && untied ? "tied " + std::to_string(tied->write_calls) + ", untied " +
                           std::to_string(untied->write_calls) + " write() for " +
                           std::to_string(tied->ops) + " read/write pairs [" + t + "]"
                     : "not measured");
}

void add_mechanism_claims(bench_suite& s, const std::string& t) {
  s.claims.push_back(endl_claim(s, t));
  s.claims.push_back(tie_claim(s, t));
}

void add_ordering_claims(bench_suite& s, const std::string& t) {
  double endl = time_ratio(row(s, "endl ofstream file", t), row(s, "'\\n' ofstream file", t));
  s.claims.push_back(claim("1,000,000 lines to an ofstream: endl ~40x slower than '\\n' (C)",
                           "ordering", endl >= 5, significant(endl) + "x [" + t + "]"));
  double sync = time_ratio(row(s, "'\\n' cout file", t), row(s, "'\\n' cout unsync file", t));
  s.claims.push_back(
      claim("sync_with_stdio(false) makes '\\n' to cout faster: 0.32 s -> 0.28 s (C)", "ordering",
            sync > 1, "synced takes " + significant(sync) + "x the unsynced time [" + t + "]"));
  double tie = time_ratio(row(s, "tied cin file", t), row(s, "untied cin file", t));
  s.claims.push_back(claim("cin.tie(nullptr) makes read/write pairs faster: 0.08 s vs 0.03 s (C)",
                           "ordering", tie > 1,
                           "tied takes " + significant(tie) + "x the untied time [" + t + "]"));
}

double ms(const bench_row& r) { return r.median() * 1e3; }

/// Time by lines per flush to an ofstream, a line per set of SETS.
void add_flush_plot(bench_suite& s, const std::vector<const target_set*>& sets) {
  bench_plot plot = log_log_plot("lines to an ofstream: time by lines per flush (1: std::endl)",
                                 "lines per flush", "median time (ms)");
  for (const auto* set : sets) plot.series.push_back(series_of(s, set->name, ms));
  s.plots = {plot};
}

/// The iostream suite before its rows: its name and what it says of itself.
bench_suite described_iostream_suite() {
  bench_suite s;
  s.name = "iostream";
  s.title = "std::endl against '\\n', flush intervals, sync_with_stdio, unitbuf, a tied cin";
  s.seed = "SEED_CLAIMS C (C++ iostreams)";
  s.placement = "unpinned";
  return s;
}

/// The toolchain sets that have a C++ library; a note in S for each that has none.
std::vector<const target_set*> iostream_sets(const bench_context& ctx, bench_suite& s) {
  std::vector<const target_set*> sets;
  for (const auto& set : ctx.options.toolchains)
    if (!set.iostream_script.empty())
      sets.push_back(&set);
    else
      s.notes.push_back(set.name + ": no C++ library in this toolchain set");
  return sets;
}

}  // namespace

bench_suite iostream_suite(const bench_context& ctx) {
  bench_suite s = described_iostream_suite();
  const std::vector<const target_set*> sets = iostream_sets(ctx, s);
  if (sets.empty()) return s;
  const std::string t = sets.front()->name;
  s.baseline = "'\\n' ofstream file [" + t + "]";
  for (const auto* set : sets) add_set(ctx, *set, s);
  set_ratios(s);
  add_mechanism_claims(s, t);
  add_ordering_claims(s, t);
  add_flush_plot(s, sets);
  return s;
}

}  // namespace flushcheck::detail
