#include "proc_status.hpp"

#include <cstring>
#include <sstream>
#include <string>

#include "input_file.hpp"

namespace flushcheck::detail {

pid_t tgid_of(pid_t tid) {
  std::istringstream in(read_file("/proc/" + std::to_string(tid) + "/status").value_or(""));
  std::string line;
  while (std::getline(in, line))
    if (line.starts_with("Tgid:")) return static_cast<pid_t>(std::stol(line.substr(5)));
  return tid;
}

bool status_mask_has(pid_t tid, const char* name, int sig) {
  std::istringstream in(read_file("/proc/" + std::to_string(tid) + "/status").value_or(""));
  for (std::string line; std::getline(in, line);)
    if (line.starts_with(name))
      return (std::stoull(line.substr(std::strlen(name)), nullptr, 16) >> (sig - 1)) & 1U;
  return false;
}

}  // namespace flushcheck::detail
