// A program that logs with Boost.Log (Boost 1.74, Debian 12's
// libboost-log-dev) the way an application would, for the gates in
// tests/loggers/boost_log_gate.cpp.
//
//   boost_log_logger CONFIG RECORDS DEATH
//   boost_log_logger CONFIG workload OP...   (a property gate's driver: docs/workload.md,
//   tests/loggers/boost_log.property.toml)
//
// Logs RECORDS records "rec N info" (every 5th "rec N warn", at warning) with
// BOOST_LOG_TRIVIAL and the sink's default formatter, which writes the message
// alone (basic_formatter(), expressions/formatter.hpp); the backend adds the
// '\n' (auto_newline_mode insert_if_missing, sinks/auto_newline_mode.hpp).
// Then a marker "logged" (the gate may kill it there), then DEATH: return |
// exit | _exit | abort | core_flush_exit (core::get()->flush(), then _exit) |
// sink_flush_exit (the sink's own flush(), then _exit) | stop_flush_exit
// (async_file only: remove_sink, stop(), flush(), then _exit, the shutdown
// of Boost.Log's example/doc/sinks_async.cpp).
// CONFIG: file (synchronous_sink over text_file_backend, its defaults:
// auto_flush off) | file_auto_flush | console (add_console_log(std::cout),
// auto_flush off, its default) | console_auto_flush | async_file
// (asynchronous_sink over text_file_backend, auto_flush on). Files go to
// $FLUSHCHECK_LOG_DIR/app.log; text_file_backend opens it at the first
// record it writes. Once a sink is added, Boost.Log's default sink (the
// fallback while there is none) is no longer used (doc/tutorial.qbk).
//
// The program keeps only weak pointers to its sink: the core owns it, as in
// Boost.Log's tutorial (add the sink, drop the pointer), so that exit() and
// return destroy it alike. A shared_ptr local to main would outlive
// std::exit, which destroys no locals, and with it the file's buffer.
#include <unistd.h>
#include <boost/log/core.hpp>
#include <boost/log/keywords/auto_flush.hpp>
#include <boost/log/keywords/file_name.hpp>
#include <boost/log/sinks/async_frontend.hpp>
#include <boost/log/sinks/sync_frontend.hpp>
#include <boost/log/sinks/text_file_backend.hpp>
#include <boost/log/trivial.hpp>
#include <boost/log/utility/setup/console.hpp>
#include <boost/smart_ptr/make_shared_object.hpp>
#include <boost/smart_ptr/shared_ptr.hpp>
#include <boost/smart_ptr/weak_ptr.hpp>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

#include "logger_main.hpp"

namespace {

namespace logging = boost::log;
namespace sinks = boost::log::sinks;
namespace keywords = boost::log::keywords;

using file_sink = sinks::synchronous_sink<sinks::text_file_backend>;
using async_file_sink = sinks::asynchronous_sink<sinks::text_file_backend>;

boost::weak_ptr<sinks::sink> the_sink;            // owned by the core
boost::weak_ptr<async_file_sink> the_async_sink;  // async_file only

bool valid(const std::string& config, const std::string& death) {
  for (const char* c : {"file", "file_auto_flush", "console", "console_auto_flush", "async_file"}) {
    if (config != c) continue;
    for (const char* d : {"return", "exit", "_exit", "abort", "core_flush_exit", "sink_flush_exit"})
      if (death == d) return true;
    return death == "stop_flush_exit" && config == "async_file";
  }
  return false;
}

/// text_file_backend writing FILE (truncated: open_mode defaults to
/// trunc | out), flushing after each record if FLUSH_EACH.
boost::shared_ptr<sinks::text_file_backend> file_backend(const std::string& file, bool flush_each) {
  return boost::make_shared<sinks::text_file_backend>(keywords::file_name = file,
                                                      keywords::auto_flush = flush_each);
}

/// CONFIG's sink over text_file_backend: async_file's asynchronous_sink (kept
/// in the_async_sink too), or a synchronous_sink.
boost::shared_ptr<sinks::sink> make_file_sink(const std::string& config, const std::string& file) {
  if (config == "async_file") {
    auto async = boost::make_shared<async_file_sink>(file_backend(file, true));
    the_async_sink = async;
    return async;
  }
  return boost::make_shared<file_sink>(file_backend(file, config == "file_auto_flush"));
}

/// Adds CONFIG's sink to the core (valid() said CONFIG is known).
void add_sink(const std::string& config, const std::string& file) {
  if (config == "console" || config == "console_auto_flush") {
    // add_console_log builds a synchronous_sink over text_ostream_backend on
    // the stream (null_deleter) and adds it to the core (utility/setup/console.hpp).
    const bool flush_each = config == "console_auto_flush";
    the_sink = logging::add_console_log(std::cout, keywords::auto_flush = flush_each);
    return;
  }
  boost::shared_ptr<sinks::sink> sink = make_file_sink(config, file);
  logging::core::get()->add_sink(sink);
  the_sink = sink;
}

/// stop_flush_exit (async_file only): the async sink removed from the core,
/// stopped and flushed, then _exit.
[[noreturn]] void stop_flush_exit() {
  if (auto sink = the_async_sink.lock()) {
    logging::core::get()->remove_sink(sink);
    sink->stop();   // ends the feeding loop; records may stay queued
    sink->flush();  // feeds what is queued, then flushes the backend
  }
  _exit(0);
}

/// Ends the process as DEATH says; returns main's status for "return".
int die(const std::string& death) {
  logger_main::common_death(death);
  if (death == "core_flush_exit") {
    logging::core::get()->flush();  // core/core.hpp: "flush on all registered sinks"
    _exit(0);
  }
  if (death == "sink_flush_exit") {
    if (auto sink = the_sink.lock()) sink->flush();
    _exit(0);
  }
  if (death == "stop_flush_exit") stop_flush_exit();
  return 0;
}

/// One workload record at its trivial severity (level 0 debug, 1 info, 2
/// warning, 3 error).
void log_at_level(int level, const std::string& message) {
  if (level == 0)
    BOOST_LOG_TRIVIAL(debug) << message;
  else if (level == 1)
    BOOST_LOG_TRIVIAL(info) << message;
  else if (level == 2)
    BOOST_LOG_TRIVIAL(warning) << message;
  else
    BOOST_LOG_TRIVIAL(error) << message;
}

/// The workload mode (docs/workload.md): CONFIG's sink, each record at its
/// trivial severity, `flush` as core::flush() ("flush on all registered
/// sinks", core/core.hpp).
int workload(int argc, char** argv) {
  if (!valid(argv[1], "return")) {
    std::fprintf(stderr, "boost_log_logger: unknown CONFIG '%s'\n", argv[1]);
    return 64;
  }
  add_sink(argv[1], logger_main::log_file());
  return logger_main::run_workload(argc, argv, "boost_log_logger", log_at_level,
                                   [] { logging::core::get()->flush(); });
}

}  // namespace

int main(int argc, char** argv) {
  if (logger_main::is_workload(argc, argv)) return workload(argc, argv);
  logger_main::arguments args;
  if (!logger_main::parse(argc, argv, "boost_log_logger", valid, args)) return 64;
  add_sink(args.config, args.file);
  logger_main::log_records(args.records, [](long i, bool warning) {
    if (warning)
      BOOST_LOG_TRIVIAL(warning) << "rec " << i << " warn";
    else
      BOOST_LOG_TRIVIAL(info) << "rec " << i << " info";
  });
  return die(args.death);
}
