#include "write_target.hpp"

namespace flushcheck {

std::optional<write_target> write_target::parse(std::string_view text) {
  if (text == "stdout") return out();
  if (text == "stderr") return err();
  if (text.starts_with("file:") && text.size() > 5) return file(std::string(text.substr(5)));
  return std::nullopt;
}

std::string write_target::text() const {
  if (kind_ == kind::out) return "stdout";
  if (kind_ == kind::err) return "stderr";
  return "file:" + file_;
}

}  // namespace flushcheck
