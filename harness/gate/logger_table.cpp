#include "logger_table.hpp"

#include <cstdio>
#include <cstdlib>

#include "gate.hpp"

namespace flushcheck::loggers {

void add_row(const row& r) {
  const char* path = std::getenv("FLUSHCHECK_LOGGERS_TABLE");
  if (path == nullptr) return;
  if (std::FILE* f = std::fopen(path, "a")) {
    std::fprintf(f, "%s\t%s\t%s\t%s\t%ld\t%ld\t%s\t%s\t%s\n", r.library.c_str(), r.config.c_str(),
                 r.destination.c_str(), r.death.c_str(), r.logged, r.survived,
                 r.writes_per_record.c_str(), r.kind.c_str(), r.note.c_str());
    std::fclose(f);
  }
}

long survived(const std::string& text, const std::string& tag) {
  return static_cast<long>(record_numbers(text, tag).size());
}

std::string ratio_text(double r) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", r);
  return buf;
}

std::string per_record(long writes, long records) {
  if (records == 0) return "-";
  return ratio_text(static_cast<double>(writes) / static_cast<double>(records));
}

void gate_table::add(const std::string& config, const std::string& dest, const std::string& death,
                     const std::string& text, long writes, const std::string& kind,
                     const std::string& note) const {
  const long n = survived(text);
  add_row({library, config, dest, death, logged, n, writes < 0 ? "-" : per_record(writes, n), kind,
           note});
}

}  // namespace flushcheck::loggers
