#pragma once
// What a simulated program did, as its C and C++ streams report it
// (model_stdio.hpp, model_streams.hpp): the bytes each channel was given,
// every write call the kernel saw (model_kernel.hpp), and the targets'
// error reports.
#include <array>
#include <cstddef>
#include <string>
#include <string_view>

#include "model.hpp"
#include "model_kernel.hpp"

namespace flushcheck::detail {

struct program_effects {
  program_effects(const model_setup& setup, const kill_plan& cut) : kernel(setup, cut) {}

  model_kernel kernel;
  std::array<std::string, channel_count> meant;  ///< all each channel was given so far
  int reports = 0;
  int op = 0;  ///< the op running (ops.size(): at exit)

  /// The program hands BYTES to channel CH: what it meant to write.
  void give(channel ch, const std::string& bytes) { meant[static_cast<std::size_t>(ch)] += bytes; }
  /// A write call of channel CH's BYTES by the op running; what the kernel returned.
  long call(channel ch, std::string_view bytes) { return kernel.call(ch, bytes, op, false); }
  /// The targets' error report: one write(2) to fd 2, never retried.
  void report() {
    ++reports;
    kernel.call(channel::c_err, "target error report", op, true);
  }
};

}  // namespace flushcheck::detail
