// minilog: a tiny logging library, standing for "your library" in
// docs/gate.md. Records go to a file through stdio; flush_on(level) makes
// every record at or above that level flush the file.
#pragma once
#include <cstdio>
#include <string>

namespace minilog {

enum level { info, warning, error, never };

class logger {
 public:
  explicit logger(const std::string& path) : file_(std::fopen(path.c_str(), "w")) {}
  ~logger() {
    if (file_ != nullptr) std::fclose(file_);
  }
  logger(const logger&) = delete;
  logger& operator=(const logger&) = delete;

  void flush_on(level l) { flush_level_ = l; }
  void flush() { std::fflush(file_); }
  void log(level l, const std::string& message) {
    static const char* const names[] = {"INFO", "WARN", "ERROR"};
    std::fprintf(file_, "%s %s\n", names[l], message.c_str());
    if (l >= flush_level_) std::fflush(file_);
  }

 private:
  std::FILE* file_;
  level flush_level_ = never;
};

}  // namespace minilog
