#pragma once
// What the C++ logger programs of the gates share in main: their arguments
// CONFIG RECORDS DEATH, the log file, the marker channel, the records they
// log, and the deaths every library has (boost_log, easyloggingpp,
// log4cxx); and the property gates' workload mode, `PROGRAM CONFIG workload
// OP...` (docs/workload.md; every C++ logger program). Each program keeps
// what is its library's own: its CONFIGs, how it logs a record, its flush,
// and the deaths that flush it.
#include <functional>
#include <string>

namespace logger_main {

struct arguments {
  std::string config;
  long records = 0;
  std::string death;
  std::string file;  ///< $FLUSHCHECK_LOG_DIR/app.log, ./app.log without it
};

/// Is CONFIG with DEATH a combination the program knows?
using validator = std::function<bool(const std::string& config, const std::string& death)>;

/// PROGRAM's arguments into OUT, and the marker channel opened; false after
/// "usage: PROGRAM CONFIG RECORDS DEATH" on stderr when there are not 3 of
/// them or VALID refuses them (the caller exits 64).
bool parse(int argc, char** argv, const char* program, const validator& valid, arguments& out);

/// RECORDS records through LOG (index, warning?): "rec N", every 5th a
/// warning, then the marker "logged" (where a gate may kill the program).
void log_records(long records, const std::function<void(long index, bool warning)>& log);

/// The log file: $FLUSHCHECK_LOG_DIR/app.log, ./app.log without it.
std::string log_file();

/// Whether ARGV is `PROGRAM CONFIG workload OP...`: a property gate's driver.
bool is_workload(int argc, char** argv);

/// Logs one workload record (docs/workload.md) at LEVEL (0 debug, 1 info,
/// 2 warn, 3 error) with MESSAGE ("rec N ...") through the library.
using level_log = std::function<void(int level, const std::string& message)>;

/// Runs the workload ARGV spells after "workload" (flushcheck/workload.h),
/// logging through LOG and flushing through FLUSH (empty: `flush` does
/// nothing); returns what main returns (64 for a bad workload).
int run_workload(int argc, char** argv, const char* program, level_log log,
                 std::function<void()> flush = {});

/// Ends the program by DEATH when it is one every library has: exit (exit(0)),
/// _exit (_exit(0)) or abort. Returns for any other death.
void common_death(const std::string& death);

}  // namespace logger_main
