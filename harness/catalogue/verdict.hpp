#pragma once
/// The outcome of one check, as a value: the properties and the model check
/// both return one.
#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace flushcheck {

struct verdict {
  bool pass = true;
  std::string observed;     ///< what the run showed, short ("visible at marker 1: 0 of 4")
  std::string explanation;  ///< why it passes or fails, for people
  std::string repro;        ///< one `flushcheck run ...` command line
  /// What the check measured, by name, for programs ("buffer_bytes": 4096):
  /// `observed` is for people and is not parsed. In the matrix JSON.
  std::map<std::string, std::int64_t> figures;
  /// Why this machine cannot check the claim ("tmpfs: O_DIRECT goes through
  /// its page cache"); none when it could. A case with a reason is skipped:
  /// shown as such and never asserted, whatever `pass` says.
  std::optional<std::string> skipped;
};

}  // namespace flushcheck
