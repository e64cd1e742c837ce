#pragma once
/// The outcome of one check, as a value: the properties and the model check
/// both return one.
#include <string>

namespace flushcheck {

struct verdict {
  bool pass = true;
  std::string observed;     ///< what the run showed, short ("visible at marker 1: 0 of 4")
  std::string explanation;  ///< why it passes or fails, for people
  std::string repro;        ///< one `flushcheck run ...` command line
};

}  // namespace flushcheck
