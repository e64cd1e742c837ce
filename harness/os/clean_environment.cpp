// The clean environment of the harness's own runs.
#include "clean_environment.hpp"

namespace flushcheck {

std::vector<std::string> clean_environment() {
  return {"PATH=/usr/local/bin:/usr/bin:/bin", "LANG=C"};
}

}  // namespace flushcheck
