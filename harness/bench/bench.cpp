// `flushcheck bench`: the table of suites, and running the ones asked for.
#include "bench.hpp"

#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <set>

#include "bench_suites.hpp"
#include "error.hpp"

namespace flushcheck {
namespace {

using suite_fn = bench_suite (*)(const detail::bench_context&);

struct suite_entry {
  const char* name;
  suite_fn run;
};

/// The one table of suites, in the order `bench` runs them.
constexpr suite_entry k_suites[] = {
    {"stdio", detail::stdio_suite},     {"iostream", detail::iostream_suite},
    {"pipe", detail::pipe_suite},       {"pagecache", detail::pagecache_suite},
    {"tracer", detail::tracer_suite},   {"capture", detail::capture_suite},
    {"explore", detail::explore_suite}, {"jobs", detail::jobs_suite},
    {"program", detail::program_suite}};

suite_fn find_suite(const std::string& name) {
  for (const auto& s : k_suites)
    if (name == s.name) return s.run;
  std::string known;
  for (const auto& s : k_suites) known += std::string(known.empty() ? "" : ", ") + s.name;
  throw usage_error("unknown bench suite '" + name + "' (suites: " + known + ")");
}

std::string machine() {
  utsname u{};
  ::uname(&u);
  long cpus = ::sysconf(_SC_NPROCESSORS_ONLN);
  return std::string(u.sysname) + " " + u.release + " " + u.machine + ", " + std::to_string(cpus) +
         " CPUs";
}

}  // namespace

const std::vector<std::string>& bench_suite_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const auto& s : k_suites) v.push_back(s.name);
    return v;
  }();
  return names;
}

void check_bench_options(const bench_options& options) {
  for (const auto& n : bench_suites_to_run(options)) {
    find_suite(n);
    if (n == "program" && options.program.empty())
      throw usage_error("the program suite needs a program to bench");
  }
  if (options.repeat < 1)
    throw usage_error("repeat " + std::to_string(options.repeat) + ": a row runs at least once");
  if (options.toolchains.empty()) throw usage_error("no toolchain set to bench");
}

std::vector<std::string> bench_suites_to_run(const bench_options& options) {
  std::vector<std::string> names;
  for (const auto& n : options.suites.empty() ? bench_suite_names() : options.suites)
    if (std::find(names.begin(), names.end(), n) == names.end() &&
        (n != "program" || !options.program.empty() || !options.suites.empty()))
      names.push_back(n);
  return names;
}

bench_report run_bench(const bench_options& options) {
  check_bench_options(options);
  std::vector<suite_fn> todo;
  for (const auto& n : bench_suites_to_run(options)) todo.push_back(find_suite(n));
  bench_report r;
  r.machine = machine();
  r.repeat = options.repeat;
  r.quick = options.quick;
  detail::bench_context ctx{options, {options.quick}};
  for (auto fn : todo) r.suites.push_back(fn(ctx));
  return r;
}

namespace detail {

bench_row bench_context::measure(const bench_case& c) const {
  if (options.progress) options.progress(c.row.name);
  return detail::measure(c, options.repeat, options.timeout);
}

bench_claim claim(std::string seed, std::string kind, bool holds, std::string observed) {
  return {std::move(seed), std::move(kind), holds, std::move(observed), true};
}

bench_claim not_checked(std::string seed, std::string kind, std::string why) {
  return {std::move(seed), std::move(kind), false, "not checked: " + std::move(why), false};
}

const bench_row* measured_row(const bench_suite& s, const std::string& name) {
  const bench_row* r = find_row(s, name);
  return r && r->measured() ? r : nullptr;
}

double time_ratio(const bench_row* slow, const bench_row* fast) {
  return slow && fast && fast->median() > 0 ? slow->median() / fast->median() : 0;
}

double throughput_of(const bench_suite& s, const std::string& name) {
  const bench_row* r = measured_row(s, name);
  return r ? r->throughput() : 0;
}

bench_plot log_log_plot(std::string title, std::string x_label, std::string y_label) {
  return {std::move(title), std::move(x_label), std::move(y_label), true, true, {}};
}

bench_series series_of(const bench_suite& s, const std::string& name,
                       double (*y)(const bench_row&)) {
  bench_series out{name, {}};
  for (const auto& r : s.rows)
    if (r.series == name && r.measured()) out.points.push_back({r.x, y(r)});
  std::sort(out.points.begin(), out.points.end(),
            [](const bench_point& a, const bench_point& b) { return a.x < b.x; });
  return out;
}

}  // namespace detail
}  // namespace flushcheck
