#include "option_values.hpp"

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "capture.hpp"
#include "fault_plan.hpp"
#include "kill_plan.hpp"
#include "reader_policy.hpp"
#include "signals.hpp"
#include "sink_kind.hpp"

namespace flushcheck::cli {

namespace {

std::map<const CLI::Option*, option_values>& registry() {
  static std::map<const CLI::Option*, option_values> values;
  return values;
}

template <typename Names>
std::vector<std::string> strings(const Names& names, const std::string& suffix = "") {
  std::vector<std::string> out;
  for (const auto& n : names) out.push_back(std::string(n) + suffix);
  return out;
}

std::vector<std::string> errno_words(const std::string& suffix) {
  std::vector<std::string> out;
  for (const auto& [name, number] : fault_errnos()) out.push_back(std::string(name) + suffix);
  out.push_back("short:");
  return out;
}

}  // namespace

CLI::Option* with_values(CLI::Option* option, option_values v) {
  registry()[option] = std::move(v);
  return option;
}

const option_values* values_of(const CLI::Option* option) {
  const auto it = registry().find(option);
  return it == registry().end() ? nullptr : &it->second;
}

option_values sink_values(bool comma_list) { return {strings(sink_kind_names()), {}, comma_list}; }

option_values stderr_values() {
  auto v = sink_values();
  v.words.push_back("stdout");
  return v;
}

option_values stdin_values() { return word_values({"null", "pipe", "pty"}); }

option_values signal_values(bool comma_list) { return {strings(signal_names()), {}, comma_list}; }

option_values kill_values() {
  auto words = strings(signal_names(), "@");
  words.insert(words.begin(), "never");
  return {words, strings(kill_plan::when_forms()), false};
}

option_values fault_values() {
  return {errno_words("@"), strings(fault_plan::when_forms()), false};
}

option_values fault_what_values() { return {errno_words(""), {}, true}; }

option_values reader_values() { return {strings(reader_policy::forms()), {}, false}; }

option_values keep_values() { return {strings(keep_policy::forms()), {}, false}; }

option_values word_values(std::vector<std::string> words) { return {std::move(words), {}, false}; }

option_values without(option_values v, const std::string& word) {
  std::erase(v.words, word);
  return v;
}

std::string listed(const option_values& v) { return joined(v.words, " | "); }

std::string joined(const std::vector<std::string>& words, const std::string& sep) {
  std::string text;
  for (const auto& w : words) text += (text.empty() ? "" : sep) + w;
  return text;
}

CLI::Option* add_derive_option(CLI::App* app, std::string& derive, const std::string& help) {
  return add_option_with_values(app, "--derive", derive, help, word_values({"on", "off"}))
      ->capture_default_str();
}

bool derive_on(const std::string& derive) {
  if (derive != "on" && derive != "off")
    throw usage_error("--derive=" + derive + ": expected on or off");
  return derive == "on";
}

}  // namespace flushcheck::cli
