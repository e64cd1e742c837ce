// What a matrix record says of the machine it was made on.
#include "machine.hpp"

#include <sys/utsname.h>
#include <unistd.h>

#include <ctime>
#include <map>
#include <sstream>

#include "input_file.hpp"

namespace flushcheck {

namespace {

/// os-release's KEY=VALUE lines, values unquoted.
std::map<std::string, std::string> os_release() {
  auto text = read_file("/etc/os-release");
  if (!text) text = read_file("/usr/lib/os-release");
  std::istringstream in(text.value_or(""));
  std::map<std::string, std::string> fields;
  for (std::string line; std::getline(in, line);) {
    const auto eq = line.find('=');
    if (eq == std::string::npos) continue;
    std::string value = line.substr(eq + 1);
    if (value.size() >= 2 && (value.front() == '"' || value.front() == '\''))
      value = value.substr(1, value.size() - 2);
    fields[line.substr(0, eq)] = value;
  }
  return fields;
}

}  // namespace

machine_info this_machine() {
  machine_info m;
  auto os = os_release();
  m.distribution = os.count("PRETTY_NAME") ? os["PRETTY_NAME"] : "unknown";
  const std::string release = os.count("VERSION_ID") ? os["VERSION_ID"] : os["VERSION_CODENAME"];
  m.id = (os.count("ID") ? os["ID"] : "unknown") + (release.empty() ? "" : " " + release);
  struct utsname u {};
  if (::uname(&u) == 0) m.kernel = u.release, m.arch = u.machine;
  m.cpus = ::sysconf(_SC_NPROCESSORS_ONLN);
  return m;
}

const char* flushcheck_version() noexcept { return FLUSHCHECK_VERSION; }

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  ::gmtime_r(&t, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

}  // namespace flushcheck
