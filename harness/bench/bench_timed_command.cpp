#include "bench_timed_command.hpp"

#include <chrono>
#include <filesystem>

#include "clean_environment.hpp"
#include "repro.hpp"

namespace flushcheck::detail {

namespace {

/// One timed run of C into ROW.
void time_once(const timed_command& c, bench_row& row) {
  const auto t0 = std::chrono::steady_clock::now();
  const observation obs = run(c.options);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const std::string& out = obs.out.data;
  if (obs.status != wait_status::exited(0) || out.find(c.must_say) == std::string::npos) {
    row.failed = true;
    row.skipped = "the run " + obs.status.describe() + ", not saying \"" + c.must_say +
                  "\": " + obs.err.data.substr(0, obs.err.data.find('\n'));
    return;
  }
  row.seconds.push_back(s);
}

}  // namespace

run_options flushcheck_command(const std::vector<std::string>& args) {
  run_options o;
  o.argv = {std::filesystem::read_symlink("/proc/self/exe").string()};
  o.argv.insert(o.argv.end(), args.begin(), args.end());
  o.env = clean_environment();
  o.keep = keep_policy::parse("ends:64K");
  o.timeout = std::chrono::minutes(10);
  return o;
}

std::vector<bench_row> time_commands(const bench_context& ctx,
                                     const std::vector<timed_command>& commands,
                                     const bench_row& shape) {
  std::vector<bench_row> rows;
  for (const auto& c : commands) {
    rows.push_back(shape);
    rows.back().name = c.name;
    rows.back().repro = repro_command(c.options);
  }
  for (int round = 0; round < ctx.options.repeat; ++round)
    for (std::size_t i = 0; i < commands.size(); ++i)
      if (!rows[i].failed) time_once(commands[i], rows[i]);
  return rows;
}

}  // namespace flushcheck::detail
