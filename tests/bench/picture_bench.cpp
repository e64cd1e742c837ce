// What drawing costs a run (issue 28's goal: with --html, drawing takes under
// 5% of a 1-second run; without --html nothing is drawn). Each row runs a
// program of about 1 s once, traced and timed as `run --trace --timeline
// --html` runs it, then draws its page (to_html) ROUNDS times; a row's
// drawing time is its best round. Printed side by side: the run, the
// drawing, their ratio and the page's size. Exit 1 when a ratio is over 5%.
//
//   picture_bench [ROUNDS]      (default 5)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "clean_environment.hpp"
#include "run.hpp"
#include "run_report.hpp"

namespace {

using clock_type = std::chrono::steady_clock;

struct row {
  const char* name;
  std::string script;
};

/// N times TEXT.
std::string times(int n, const std::string& text) {
  std::string s;
  for (int i = 0; i < n; ++i) s += text;
  return s;
}

flushcheck::observation run_once(const std::string& script) {
  flushcheck::run_options o;
  o.argv = {FLUSHCHECK_TARGET_STDIO_SCRIPT, script};
  o.env = flushcheck::clean_environment();
  o.trace = true;
  o.timeline = true;
  o.timeout = std::chrono::seconds(60);
  return flushcheck::run(o);
}

/// The best of ROUNDS drawings of OBS's page: seconds, and the page's bytes.
std::pair<double, std::size_t> draw(const flushcheck::observation& obs, int rounds) {
  double best = 1e9;
  std::size_t bytes = 0;
  for (int i = 0; i < rounds; ++i) {
    const auto start = clock_type::now();
    const std::string page = flushcheck::to_html(obs, {"bench", {}, false}, "repro");
    best = std::min(best, std::chrono::duration<double>(clock_type::now() - start).count());
    bytes = page.size();
  }
  return {best, bytes};
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 5;
  const row rows[] = {
      {"1,000 lines, 1 ms apart",
       "setvbuf line out; " + times(1000, "line 40; sleep 1; ") + "exit 0"},
      {"100,000 1-byte writes, then 1 s", "setvbuf none out; putc 100000; sleep 1000; exit 0"},
      {"one buffered write after 1 s", "line 40; sleep 1000; exit 0"}};
  std::printf("%-34s %10s %10s %8s %10s\n", "row", "run ms", "draw ms", "ratio", "page KiB");
  bool ok = true;
  for (const auto& r : rows) {
    const flushcheck::observation obs = run_once(r.script);
    const auto [seconds, bytes] = draw(obs, rounds);
    const double run_s = static_cast<double>(obs.duration_us) / 1e6, ratio = seconds / run_s;
    std::printf("%-34s %10.1f %10.2f %7.2f%% %10.1f\n", r.name, run_s * 1e3, seconds * 1e3,
                ratio * 100, static_cast<double>(bytes) / 1024);
    ok = ok && ratio < 0.05;
  }
  std::printf("goal: drawing under 5%% of the run: %s\n", ok ? "met" : "NOT MET");
  return ok ? 0 : 1;
}
