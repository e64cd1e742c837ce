#pragma once
// C stdio's stdout and stderr in a simulated run (docs/model.md): a FILE
// each, the glibc or the musl port (model_file.hpp), and the calls the
// targets make on them (targets/script/stdio_script.c).
#include <memory>
#include <string>

#include "model.hpp"
#include "model_effects.hpp"
#include "model_file.hpp"
#include "script.h"

namespace flushcheck::detail {

class c_stdio {
 public:
  /// The FILEs SETUP's libc and sinks make; their calls and reports go to FX.
  c_stdio(const model_setup& setup, program_effects& fx);

  c_file& file(fc_stream s) { return s == FC_ERR ? *err_ : *out_; }
  const c_file& err() const { return *err_; }

  /// printf("%s") or fputs (from C or C++): reported when it fails.
  void call(const fc_op& op, const std::string& bytes);
  /// fwrite of the bytes, or a putc loop that stops at the first EOF:
  /// reported once when it fails.
  void output(const fc_op& op, const std::string& bytes, bool per_char);
  /// fflush(stream) or fflush(NULL): reported when it fails.
  void flush_op(fc_stream s);
  /// fflush(NULL) and exit's flush: false if either FILE's failed.
  bool flush_all();

 private:
  std::unique_ptr<c_file> make_file(bool is_stdout, channel ch);

  const model_setup& setup_;
  program_effects& fx_;
  std::unique_ptr<c_file> out_;
  std::unique_ptr<c_file> err_;
};

/// The C channel of stdio stream S.
channel c_channel(fc_stream s);

}  // namespace flushcheck::detail
