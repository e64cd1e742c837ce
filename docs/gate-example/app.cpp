// The program the gate runs: logs RECORDS records "rec N" (every 3rd an
// error), says "logged" through the marker protocol (the gate may kill it
// there), and returns.   app FLUSH_ON RECORDS    (FLUSH_ON: none|error|info)
#include <flushcheck/marker.h>

#include <cstdlib>
#include <string>

#include "minilog.h"

int main(int argc, char** argv) {
  if (argc != 3) return 64;
  const std::string flush_on = argv[1];
  const long records = std::atol(argv[2]);
  const char* dir = std::getenv("FLUSHCHECK_LOG_DIR");  // set by the gate
  minilog::logger log(std::string(dir != nullptr ? dir : ".") + "/app.log");
  if (flush_on == "error") log.flush_on(minilog::error);
  if (flush_on == "info") log.flush_on(minilog::info);
  for (long i = 0; i < records; ++i)
    log.log(i % 3 == 2 ? minilog::error : minilog::info, "rec " + std::to_string(i));
  flushcheck_marker("logged");
  return 0;
}
