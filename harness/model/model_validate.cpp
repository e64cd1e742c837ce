#include "model_validate.hpp"

#include <algorithm>
#include <array>
#include <string>

#include "error.hpp"
#include "model_kernel.hpp"

namespace flushcheck::detail {
namespace {

/// The ops the model has no port of, or only as the first op.
void validate_op(const fc_op& op, std::size_t i) {
  if (op.kind == FC_CLOSE) throw usage_error("the model does not cover 'close'");
  if (is_fd_op(op)) {  // under stdio; fsync's EINVAL on a pipe or a pty is not modelled
    const std::string text = op_text(op);
    throw usage_error("the model does not cover '" + text.substr(0, text.find(' ')) + "'");
  }
  if (op.kind == FC_FORK || op.kind == FC_THREADS)
    throw usage_error("the model does not cover 'fork' and 'threads'");
  if (fc_is_c_stream_op(op.kind))
    throw usage_error("the model does not cover 'lock', 'unlock' and 'putc_unlocked'");
  if (op.kind == FC_SYNC && i != 0)
    throw usage_error("the model covers sync_with_stdio only as the first op");
}

/// setvbuf after output on its stream is undefined (ISO C 7.21.5.3).
void validate_setvbuf(const script& s) {
  std::array<bool, 2> wrote{};
  for (const auto& op : s.ops) {
    if (op.kind == FC_SETVBUF && wrote[op.stream == FC_ERR])
      throw usage_error("setvbuf after output on that stream is undefined (ISO C 7.21.5.3)");
    if (is_output_op(op) || op.kind == FC_FLUSH) {
      wrote[0] = wrote[0] || op.stream != FC_ERR;  // C++ streams reach both
      wrote[1] = wrote[1] || op.stream != FC_OUT;
    }
  }
}

bool has_op(const script& s, fc_op_kind k) {
  return std::any_of(s.ops.begin(), s.ops.end(),
                     [k](const fc_op& op) { return op.kind == k && !(k == FC_SYNC && op.n); });
}

/// Each fault plan: on stdout's or stderr's destination, and no short
/// write where the error reports go (ERR_DEST).
void validate_fault_plans(const model_setup& setup, int err_dest) {
  for (const auto& f : setup.faults) {
    if (f.where == fault_plan::target::file)
      throw usage_error("the model covers faults on stdout's and stderr's destinations only");
    if (f.error == 0 && reaches(setup, f, err_dest))
      throw usage_error(
          "the model covers short writes only where no error report goes: the targets "
          "report on stderr's destination with one write(2) of strerror's text");
  }
}

/// What the model does not port under faults, refused rather than guessed.
void validate_faults(const model_setup& setup, const script& s) {
  const int err_dest = dest_of(setup, channel::c_err);
  validate_fault_plans(setup, err_dest);
  if (setup.faults.empty()) return;
  if (setup.language == lang::cxx && setup.profile.cxxlib == cxx_impl::libstdcxx &&
      has_op(s, FC_SYNC))
    throw usage_error(
        "the model does not cover faults after sync_with_stdio(false) on libstdc++: its own "
        "stream buffers are not ported");
  if (has_op(s, FC_THROW) && faults_reach(setup, err_dest))
    throw usage_error(
        "the model does not cover faults on stderr's destination with an uncaught "
        "exception: the terminate handler's writes are not ported");
}

}  // namespace

void validate(const model_setup& setup, const script& s) {
  const auto& p = setup.profile;
  if (p.libc != libc_impl::glibc && p.libc != libc_impl::musl)
    throw usage_error("the model has no port of libc '" + std::string(to_string(p.libc)) + "'");
  if (setup.language == lang::cxx && p.cxxlib != cxx_impl::libstdcxx &&
      p.cxxlib != cxx_impl::libcxx)
    throw usage_error("the model has no port of C++ library '" + std::string(to_string(p.cxxlib)) +
                      "'");
  for (std::size_t i = 0; i < s.ops.size(); ++i) validate_op(s.ops[i], i);
  validate_setvbuf(s);
  validate_faults(setup, s);
}

}  // namespace flushcheck::detail
