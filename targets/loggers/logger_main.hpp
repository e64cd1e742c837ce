#pragma once
// What the C++ logger programs of the gates share in main (boost_log,
// easyloggingpp, log4cxx): their arguments CONFIG RECORDS DEATH, the log
// file, the marker channel, the records they log, and the deaths every
// library has. Each program keeps what is its library's own: its CONFIGs,
// how it logs a record, and the deaths that flush it.
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

/// Ends the program by DEATH when it is one every library has: exit (exit(0)),
/// _exit (_exit(0)) or abort. Returns for any other death.
void common_death(const std::string& death);

}  // namespace logger_main
