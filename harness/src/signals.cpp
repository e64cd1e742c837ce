#include "flushcheck/signals.hpp"

#include <csignal>
#include <cstdlib>
#include <cstring>

namespace flushcheck {
namespace {

struct named_signal {
  const char* name;
  int number;
};

constexpr named_signal k_signals[] = {
    {"HUP", SIGHUP},   {"INT", SIGINT},   {"QUIT", SIGQUIT}, {"ILL", SIGILL},   {"TRAP", SIGTRAP},
    {"ABRT", SIGABRT}, {"BUS", SIGBUS},   {"FPE", SIGFPE},   {"KILL", SIGKILL}, {"USR1", SIGUSR1},
    {"SEGV", SIGSEGV}, {"USR2", SIGUSR2}, {"PIPE", SIGPIPE}, {"ALRM", SIGALRM}, {"TERM", SIGTERM},
    {"CHLD", SIGCHLD}, {"CONT", SIGCONT}, {"STOP", SIGSTOP}, {"TSTP", SIGTSTP}, {"XCPU", SIGXCPU},
    {"XFSZ", SIGXFSZ}, {"SYS", SIGSYS},
};

}  // namespace

std::string signal_name(int sig) {
  for (const auto& s : k_signals)
    if (s.number == sig) return s.name;
  return "SIG" + std::to_string(sig);
}

std::optional<int> parse_signal(std::string_view text) {
  std::string upper;
  for (char c : text) upper += static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
  std::string_view name = upper;
  if (name.starts_with("SIG")) name.remove_prefix(3);
  for (const auto& s : k_signals)
    if (name == s.name) return s.number;
  if (name.empty() || name.size() > 2) return std::nullopt;
  int v = 0;
  for (char c : name) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + (c - '0');
  }
  if (v < 1 || v > SIGRTMAX) return std::nullopt;
  return v;
}

}  // namespace flushcheck
