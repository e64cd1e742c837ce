// A program that logs with spdlog (Debian's libspdlog-dev) the way an
// application would, for the gates in tests/loggers/spdlog_gate.cpp.
//
//   spdlog_logger CONFIG RECORDS DEATH [THREADS]
//   spdlog_logger CONFIG workload OP...   (a property gate's driver: docs/workload.md,
//   tests/loggers/spdlog.property.toml)
//
// Logs RECORDS records "rec N" (every 5th at error level, the rest info),
// from THREADS threads at once (default 1: thread t logs N = t, t+THREADS,
// ...), then a marker "logged" (the gate may kill it there), then DEATH:
// return | exit | _exit | abort | shutdown_exit (spdlog::shutdown(), then _exit)
// | release_shutdown_exit (the logger's last reference dropped, shutdown(), _exit)
// | wait (marker "waited" after 1.5 s, then return: for flush_every).
// CONFIG: file | file_flush_on_error | file_flush_on_info | file_flush_every |
// stdout | stdout_color | stderr | async_block | async_overrun, and the
// single-threaded loggers (_st: a null mutex) file_st | stdout_st | stdout_color_st
// Files go to $FLUSHCHECK_LOG_DIR/app.log.
#include <spdlog/async.h>
#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "flushcheck/marker.h"
#include "logger_main.hpp"

namespace {

/// CONFIG async_block or async_overrun: an async_logger over a file sink,
/// registered.
std::shared_ptr<spdlog::logger> make_async_logger(const std::string& config,
                                                  const std::string& file) {
  // A small queue, so that overrun_oldest really drops under a burst.
  spdlog::init_thread_pool(config == "async_block" ? 8192 : 16, 1);
  auto policy = config == "async_block" ? spdlog::async_overflow_policy::block
                                        : spdlog::async_overflow_policy::overrun_oldest;
  auto sink = std::make_shared<spdlog::sinks::basic_file_sink_mt>(file, true);
  auto l = std::make_shared<spdlog::async_logger>("app", sink, spdlog::thread_pool(), policy);
  spdlog::register_logger(l);
  return l;
}

std::shared_ptr<spdlog::logger> make_logger(const std::string& config, const std::string& file) {
  if (config == "file_st") return spdlog::basic_logger_st("app", file, true);
  if (config == "stdout_st") return spdlog::stdout_logger_st("app");
  if (config == "stdout_color_st") return spdlog::stdout_color_st("app");
  if (config == "stdout") return spdlog::stdout_logger_mt("app");
  if (config == "stdout_color") return spdlog::stdout_color_mt("app");
  if (config == "stderr") return spdlog::stderr_logger_mt("app");
  if (config == "async_block" || config == "async_overrun") return make_async_logger(config, file);
  auto l = spdlog::basic_logger_mt("app", file, true);
  if (config == "file_flush_on_error") l->flush_on(spdlog::level::err);
  if (config == "file_flush_on_info") l->flush_on(spdlog::level::info);
  if (config == "file_flush_every") spdlog::flush_every(std::chrono::seconds(1));
  return l;
}

/// Records FIRST, FIRST+STEP, ... below RECORDS.
void log_records(spdlog::logger& log, long first, long step, long records) {
  for (long i = first; i < records; i += step) {
    if (i % 5 == 4)
      log.error("rec {} error", i);
    else
      log.info("rec {} info", i);
  }
}

/// The workload mode (docs/workload.md): CONFIG's logger, each record at
/// its level (debug is below spdlog's default level, info, and not logged),
/// `flush` as logger::flush().
int workload(int argc, char** argv) {
  auto log = make_logger(argv[1], logger_main::log_file());
  return logger_main::run_workload(
      argc, argv, "spdlog_logger",
      [log](int level, const std::string& message) {
        static const spdlog::level::level_enum levels[] = {
            spdlog::level::debug, spdlog::level::info, spdlog::level::warn, spdlog::level::err};
        log->log(levels[level], "{}", message);
      },
      [log] { log->flush(); });
}

/// RECORDS records from THREADS threads at once, this one and THREADS - 1
/// more, started into OTHERS and joined before it returns.
void log_from_threads(spdlog::logger& log, long threads, long records,
                      std::vector<std::thread>& others) {
  for (long t = 1; t < threads; ++t)
    others.emplace_back(log_records, std::ref(log), t, threads, records);
  log_records(log, 0, threads, records);
  for (auto& t : others) t.join();
}

/// spdlog::shutdown(), then _exit(0); RELEASE drops the application's
/// logger, LOG, first (its last reference).
[[noreturn]] void shutdown_exit(std::shared_ptr<spdlog::logger>& log, bool release) {
  if (release) log.reset();
  spdlog::shutdown();
  _exit(0);
}

/// DEATH: ends the process here (exit, _exit, abort, shutdown_exit,
/// release_shutdown_exit), or marks "waited" after 1.5 s and returns (wait),
/// or returns at once (return). LOG is the application's logger.
void die(const std::string& death, std::shared_ptr<spdlog::logger>& log) {
  if (death == "exit") std::exit(0);
  if (death == "_exit") _exit(0);
  if (death == "abort") std::abort();
  if (death == "shutdown_exit") shutdown_exit(log, false);         // still holds its logger
  if (death == "release_shutdown_exit") shutdown_exit(log, true);  // drops its logger first
  if (death == "wait") {
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    flushcheck_marker("waited");
  }
}

/// The records of CONFIG's logger from THREADS threads, the marker
/// "logged", then DEATH; main's status.
int log_then_die(const std::string& config, long records, const std::string& death, long threads) {
  const char* dir = std::getenv("FLUSHCHECK_LOG_DIR");
  const std::string file = std::string(dir != nullptr ? dir : ".") + "/app.log";
  flushcheck_marker_init();
  auto log = make_logger(config, file);
  std::vector<std::thread> others;  // as main held it: it outlives the marker and DEATH
  log_from_threads(*log, threads, records, others);
  flushcheck_marker("logged");
  die(death, log);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (logger_main::is_workload(argc, argv)) return workload(argc, argv);
  if (argc != 4 && argc != 5) {
    std::fprintf(stderr, "usage: spdlog_logger CONFIG RECORDS DEATH [THREADS]\n");
    return 64;
  }
  const std::string config = argv[1], death = argv[3];
  const long records = std::atol(argv[2]);
  const long threads = argc == 5 ? std::atol(argv[4]) : 1;
  if (threads < 1 || threads > 64) {
    std::fprintf(stderr, "spdlog_logger: THREADS is 1 to 64\n");
    return 64;
  }
  return log_then_die(config, records, death, threads);
}
