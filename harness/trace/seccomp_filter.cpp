#include "seccomp_filter.hpp"

#include <fcntl.h>
#include <seccomp.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <string>

#include "error.hpp"
#include "retry_eintr.hpp"
#include "traced_calls.hpp"
#include "unique_fd.hpp"

namespace flushcheck::detail {

namespace {

/// A SECCOMP_RET_TRACE rule in CTX for each traced call; fcntl only with
/// F_DUPFD and F_DUPFD_CLOEXEC.
void add_trace_rules(scmp_filter_ctx ctx) {
  for (const auto& c : traced_calls) {
    if (c.call == traced_call::fcntl_dupfd) continue;  // below: F_DUPFD* only
    int rc = seccomp_rule_add(ctx, SCMP_ACT_TRACE(0), static_cast<int>(c.nr), 0);
    if (rc != 0)
      throw_error({-rc, std::generic_category()}, std::string("seccomp_rule_add ") + c.name);
  }
  for (int cmd : {F_DUPFD, F_DUPFD_CLOEXEC}) {
    int rc = seccomp_rule_add(ctx, SCMP_ACT_TRACE(0), SCMP_SYS(fcntl), 1,
                              SCMP_A1(SCMP_CMP_EQ, static_cast<scmp_datum_t>(cmd)));
    if (rc != 0) throw_error({-rc, std::generic_category()}, "seccomp_rule_add fcntl");
  }
}

/// The exported program's bytes, read from FD to its end.
std::vector<char> read_program(int fd) {
  std::vector<char> bytes;
  char buf[4096];
  for (ssize_t n; (n = retry_eintr([&] { return ::read(fd, buf, sizeof buf); })) != 0;) {
    if (n < 0) throw_errno("read seccomp program");
    bytes.insert(bytes.end(), buf, buf + n);
  }
  return bytes;
}

/// CTX's program, as the kernel takes it.
std::vector<sock_filter> exported_program(scmp_filter_ctx ctx) {
  // libseccomp 2.5 exports to an fd only: through a pipe into memory.
  auto p = pipe_pair::make();
  int rc = seccomp_export_bpf(ctx, p.write_end.get());
  if (rc != 0) throw_error({-rc, std::generic_category()}, "seccomp_export_bpf");
  p.write_end.reset();
  std::vector<char> bytes = read_program(p.read_end.get());
  std::vector<sock_filter> prog(bytes.size() / sizeof(sock_filter));
  std::memcpy(prog.data(), bytes.data(), prog.size() * sizeof(sock_filter));
  return prog;
}

}  // namespace

std::vector<sock_filter> traced_calls_filter() {
  std::unique_ptr<void, void (*)(scmp_filter_ctx)> ctx(seccomp_init(SCMP_ACT_ALLOW),
                                                       seccomp_release);
  if (!ctx) throw_error({ENOMEM, std::generic_category()}, "seccomp_init");
  // Other ABIs (x32, i386 through int 0x80) pass untraced instead of dying.
  seccomp_attr_set(ctx.get(), SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_ALLOW);
  add_trace_rules(ctx.get());
  return exported_program(ctx.get());
}

}  // namespace flushcheck::detail
