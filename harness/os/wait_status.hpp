#pragma once
/// How a child ended. Keeps "exited with N" apart from "killed by signal S"
/// (rr's WaitStatus); Boost.Process folds the two, we must not.
#include <string>

namespace flushcheck {

class wait_status {
 public:
  enum class kind { exited, signaled, timeout };

  /// From a raw waitpid status.
  static wait_status from_raw(int raw) noexcept;
  static wait_status exited(int code) noexcept { return {kind::exited, code, 0}; }
  static wait_status signaled(int sig, bool core = false) noexcept {
    wait_status s{kind::signaled, 0, sig};
    s.core_ = core;
    return s;
  }
  /// The run hit its deadline; SIG is what the harness killed it with.
  static wait_status timed_out(int sig) noexcept { return {kind::timeout, 0, sig}; }

  kind type() const noexcept { return kind_; }
  int code() const noexcept { return code_; }
  int signal() const noexcept { return signal_; }
  bool core_dumped() const noexcept { return core_; }
  /// "exited", "signaled" or "timeout" (the JSON names).
  const char* type_name() const noexcept;
  /// "exited 0", "killed by SIGKILL", "timed out (process group killed with SIGKILL)".
  std::string describe() const;

  bool operator==(const wait_status&) const = default;

 private:
  wait_status(kind k, int code, int sig) noexcept : kind_(k), code_(code), signal_(sig) {}
  kind kind_;
  int code_;
  int signal_;
  bool core_ = false;
};

}  // namespace flushcheck
