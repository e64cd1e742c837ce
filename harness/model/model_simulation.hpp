#pragma once
// One run of a script through the model (docs/model.md): the ops driven in
// order (model_simulation.cpp), C stdio's FILEs (the ports in
// model_glibc_file.cpp and model_musl_file.cpp), the C++ streams over them
// (model_streams.cpp), and the prediction made of what happened
// (model_result.cpp). The kernel's side of each call is model_kernel.
#include <array>
#include <cstddef>
#include <memory>
#include <string>

#include "model.hpp"
#include "model_file.hpp"
#include "model_kernel.hpp"

namespace flushcheck::detail {

/// A C++ stream buffer whose flushes the model does not port (libstdc++'s
/// stdio_filebuf after sync_with_stdio(false)): what it was given may be at
/// the reader at any time; what a flush pushed must be.
struct loose_buffer {
  std::size_t given = 0;
  std::size_t flushed = 0;  ///< certainly delivered
  long calls_hi = 0;
  long ops = 0;
  void output(std::size_t n);
  void flush();
};

/// The C++ streams' settings and states, as the script's ops leave them.
struct cxx_streams {
  bool synced = true;  ///< sync_with_stdio
  bool cin_tied = true;
  bool cerr_tied = true;
  bool clog_tied = false;
  std::array<bool, 3> unitbuf{false, true, false};  ///< cout, cerr, clog
  std::array<bool, 3> good{true, true, true};       ///< neither bad nor failed
  bool clear = true;  ///< the target clears a stream after reporting it ("clear off")
  std::array<loose_buffer, 2> loose{};  ///< libstdc++'s own: cout's, cerr's (clog shares it)
};

class simulation {
 public:
  /// SETUP and S must have passed validate().
  simulation(const model_setup& setup, const script& s, const kill_plan& cut);
  prediction run();

 private:
  // -- the ops (model_simulation.cpp)
  void run_ops(prediction& p);
  void at_marker();
  bool end_op(const fc_op& op, prediction& p);
  void step(const fc_op& op);
  void setting(const fc_op& op);
  void set_tie(const fc_op& op);
  std::string payload(std::size_t n, bool newline) const;
  void give(channel ch, const std::string& bytes);
  void report();
  bool cxx() const { return setup_.language == lang::cxx; }
  std::unique_ptr<c_file> make_file(bool is_stdout, channel ch);
  // -- C stdio (model_simulation.cpp)
  c_file& file(fc_stream s) { return s == FC_ERR ? *err_ : *out_; }
  void c_call(const fc_op& op, const std::string& bytes);
  void c_output(const fc_op& op, const std::string& bytes, bool per_char);
  void c_flush_op(fc_stream s);
  bool all_c_flush();
  // -- the C++ streams (model_streams.cpp)
  bool libcxx() const;
  bool libstdcxx_before(int major) const;
  bool loose() const;
  bool good(fc_stream s) const;
  void set_bad(fc_stream s);
  void output(const fc_op& op, const std::string& bytes, bool per_char);
  void endl(fc_stream s);
  void unformatted(fc_stream s, const std::string& bytes, bool per_char, bool put_loop);
  void put(fc_stream s, const std::string& piece, bool per_char);
  bool sentry(fc_stream s);
  void end_sentry(fc_stream s);
  bool pubsync(fc_stream s);
  void cxx_flush(fc_stream s);
  void cxx_flush_op(fc_stream s);
  void check(fc_stream s);
  void exit_flush();
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
  model_kernel kernel_;
  std::unique_ptr<c_file> out_;
  std::unique_ptr<c_file> err_;
  std::array<std::string, channel_count> meant_;  ///< all each channel was given so far
  cxx_streams cxx_;
  int reports_ = 0;
  int op_ = 0;  ///< the op running (ops.size(): at exit)
  long markers_ = 0;
};

/// Indexes of the C++ streams: cout, cerr, clog.
int stream_index(fc_stream s);
/// The C channel of stdio stream S.
channel c_channel(fc_stream s);
/// The channel of libstdc++'s own buffer of stream S (after sync_with_stdio(false)).
channel cxx_channel(fc_stream s);

}  // namespace flushcheck::detail
