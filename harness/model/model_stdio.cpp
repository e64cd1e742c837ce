// C stdio's side of a simulated run (model_stdio.hpp).
#include "model_stdio.hpp"

namespace flushcheck::detail {

channel c_channel(fc_stream s) { return s == FC_ERR ? channel::c_err : channel::c_out; }

c_stdio::c_stdio(const model_setup& setup, program_effects& fx)
    : setup_(setup),
      fx_(fx),
      out_(make_file(true, channel::c_out)),
      err_(make_file(false, channel::c_err)) {}

std::unique_ptr<c_file> c_stdio::make_file(bool is_stdout, channel ch) {
  write_call call = [&fx = fx_, ch](std::string_view bytes) { return fx.call(ch, bytes); };
  const bool tty = is_tty(dest_sink(setup_, is_stdout ? 0 : 1));
  if (setup_.profile.libc == libc_impl::musl)
    return make_musl_file(is_stdout, tty, std::move(call));
  const auto& release = setup_.profile.libc_release;
  return make_glibc_file(!is_stdout, tty, setup_.st_blksize[is_stdout ? 0 : 1],
                         glibc_release_rules::of(release.major, release.minor), std::move(call));
}

void c_stdio::call(const fc_op& op, const std::string& bytes) {
  const fc_stream s = op.kind == FC_PRINTF ? FC_OUT : op.stream;
  fx_.give(c_channel(s), bytes);
  const bool ok = op.kind == FC_PRINTF ? file(s).printf(bytes) : file(s).fputs(bytes);
  if (!ok) fx_.report();
}

void c_stdio::output(const fc_op& op, const std::string& bytes, bool per_char) {
  fx_.give(c_channel(op.stream), bytes);
  c_file& f = file(op.stream);
  bool ok = true;
  if (per_char) {
    for (std::size_t i = 0; ok && i < bytes.size(); ++i) ok = f.putc(bytes[i]);
  } else if (!bytes.empty()) {
    ok = f.fwrite(bytes);
  }
  if (!ok) fx_.report();
}

void c_stdio::flush_op(fc_stream s) {
  const bool ok = s == FC_ALL ? flush_all() : file(s).fflush();
  if (!ok) fx_.report();
}

/// glibc walks _IO_list_all (stderr, stdout); musl flushes stdout, then
/// stderr. Each is flushed whatever the other did.
bool c_stdio::flush_all() {
  const bool musl = setup_.profile.libc == libc_impl::musl;
  const bool first = (musl ? out_ : err_)->fflush();
  const bool second = (musl ? err_ : out_)->fflush();
  return first && second;
}

}  // namespace flushcheck::detail
