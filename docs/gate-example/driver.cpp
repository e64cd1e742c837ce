// The property gate's driver for minilog: the workload helper parses the
// workload and calls back for a record and a flush (docs/workload.md).
//   driver FLUSH_ON WORKLOAD...    (FLUSH_ON: none|error|info)
#include <flushcheck/workload.h>

#include <cstdlib>
#include <string>

#include "minilog.h"

int main(int argc, char** argv) {
  if (argc < 2) return 64;
  const std::string flush_on = argv[1];
  const char* dir = std::getenv("FLUSHCHECK_LOG_DIR");  // set by the gate
  minilog::logger log(std::string(dir != nullptr ? dir : ".") + "/app.log");
  if (flush_on == "error") log.flush_on(minilog::error);
  if (flush_on == "info") log.flush_on(minilog::info);
  flushcheck_driver driver{[](void* cx, int level, long, const char* message, std::size_t) {
                             // minilog has no debug level: debug records are info
                             static const minilog::level levels[] = {
                                 minilog::info, minilog::info, minilog::warning, minilog::error};
                             static_cast<minilog::logger*>(cx)->log(levels[level], message);
                           },
                           [](void* cx) { static_cast<minilog::logger*>(cx)->flush(); }, &log};
  return flushcheck_workload_run("minilog_driver", argc - 2, argv + 2, &driver);
}
