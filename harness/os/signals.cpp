#include "signals.hpp"

#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "parse_number.hpp"

namespace flushcheck {
namespace {

struct named_signal {
  const char* name;
  int number;
};

constexpr named_signal k_signals[] = {
    {"HUP", SIGHUP},   {"INT", SIGINT},       {"QUIT", SIGQUIT},     {"ILL", SIGILL},
    {"TRAP", SIGTRAP}, {"ABRT", SIGABRT},     {"BUS", SIGBUS},       {"FPE", SIGFPE},
    {"KILL", SIGKILL}, {"USR1", SIGUSR1},     {"SEGV", SIGSEGV},     {"USR2", SIGUSR2},
    {"PIPE", SIGPIPE}, {"ALRM", SIGALRM},     {"TERM", SIGTERM},     {"CHLD", SIGCHLD},
    {"CONT", SIGCONT}, {"STOP", SIGSTOP},     {"TSTP", SIGTSTP},     {"XCPU", SIGXCPU},
    {"XFSZ", SIGXFSZ}, {"SYS", SIGSYS},       {"TTIN", SIGTTIN},     {"TTOU", SIGTTOU},
    {"URG", SIGURG},   {"VTALRM", SIGVTALRM}, {"PROF", SIGPROF},     {"WINCH", SIGWINCH},
    {"IO", SIGIO},     {"PWR", SIGPWR},       {"STKFLT", SIGSTKFLT},
};

/// "RTMIN+3" -> SIGRTMIN + 3, "RTMAX-1" -> SIGRTMAX - 1, "RTMIN", "RTMAX".
std::optional<int> parse_realtime(std::string_view name) {
  bool min = name.starts_with("RTMIN"), max = name.starts_with("RTMAX");
  if (!min && !max) return std::nullopt;
  int base = min ? SIGRTMIN : SIGRTMAX;
  name.remove_prefix(5);
  if (name.empty()) return base;
  if (name.size() < 2 || name.size() > 3 || name[0] != (min ? '+' : '-')) return std::nullopt;
  auto k = detail::parse_number(name.substr(1), 0, 99);
  if (!k) return std::nullopt;
  int sig = min ? base + static_cast<int>(*k) : base - static_cast<int>(*k);
  if (sig < SIGRTMIN || sig > SIGRTMAX) return std::nullopt;
  return sig;
}

/// "9" -> 9: one or two digits, a signal of this system.
std::optional<int> parse_signal_number(std::string_view name) {
  if (name.empty() || name.size() > 2) return std::nullopt;
  auto v = detail::parse_number(name, 1, static_cast<std::uint64_t>(SIGRTMAX));
  if (!v) return std::nullopt;
  return static_cast<int>(*v);
}

}  // namespace

std::string signal_name(int sig) {
  for (const auto& s : k_signals)
    if (s.number == sig) return s.name;
  if (sig == SIGRTMAX) return "RTMAX";
  if (sig == SIGRTMIN) return "RTMIN";
  if (sig > SIGRTMIN && sig < SIGRTMAX) return "RTMIN+" + std::to_string(sig - SIGRTMIN);
  return std::to_string(sig);  // 32, 33: glibc keeps them for itself
}

std::vector<std::string_view> signal_names() {
  std::vector<std::string_view> names;
  for (const auto& s : k_signals) names.push_back(s.name);
  return names;
}

std::optional<int> parse_signal(std::string_view text) {
  std::string upper;
  for (char c : text) upper += static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
  std::string_view name = upper;
  if (name.starts_with("SIG")) name.remove_prefix(3);
  for (const auto& s : k_signals)
    if (name == s.name) return s.number;
  if (auto rt = parse_realtime(name)) return rt;
  return parse_signal_number(name);
}

sigset_t interrupt_signals() noexcept {
  sigset_t set;
  ::sigemptyset(&set);
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) ::sigaddset(&set, sig);
  return set;
}

}  // namespace flushcheck
