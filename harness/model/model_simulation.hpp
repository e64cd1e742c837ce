#pragma once
// One run of a script through the model (docs/model.md): the ops driven in
// order (model_simulation.cpp) through the program's streams, C stdio's
// FILEs (model_stdio.hpp) and, in C++, the iostreams over them
// (model_streams.hpp); what they did (model_effects.hpp), the kernel's side
// of each call (model_kernel.hpp), and the prediction made of it
// (model_result.cpp).
#include <array>
#include <cstddef>
#include <string>

#include "model.hpp"
#include "model_effects.hpp"
#include "model_stdio.hpp"
#include "model_streams.hpp"

namespace flushcheck::detail {

class simulation {
 public:
  /// SETUP and S must have passed validate().
  simulation(const model_setup& setup, const script& s, const kill_plan& cut);
  simulation(const simulation&) = delete;
  simulation& operator=(const simulation&) = delete;
  prediction run();

 private:
  // -- the ops (model_simulation.cpp)
  void run_ops(prediction& p);
  void at_marker();
  bool end_op(const fc_op& op, prediction& p);
  void step(const fc_op& op);
  void setting(const fc_op& op);
  void output(const fc_op& op, const std::string& bytes, bool per_char);
  void flush_op(fc_stream s);
  void exit_flush();
  std::string payload(std::size_t n, bool newline) const;
  bool cxx() const { return setup_.language == lang::cxx; }
  // -- the result (model_result.cpp)
  void finish(prediction& p);
  void count_calls(prediction& p) const;
  void widen_loose(prediction& p) const;
  void widen_loose_buffer(prediction& p, int i) const;
  void widen_loose_full(prediction& p) const;
  void widen_terminate(prediction& p) const;
  std::array<std::string, channel_count> full_meant() const;

  const model_setup& setup_;
  const script& script_;
  kill_plan cut_;
  program_effects fx_;  // before the streams, which report to it
  c_stdio stdio_;
  cxx_iostreams streams_;
  long markers_ = 0;
};

}  // namespace flushcheck::detail
