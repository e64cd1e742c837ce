#pragma once
/// Where a check reads a program's records: one of its streams, or a log
/// file it writes (NAME, as a gate file's `watch` lists it). Gate files,
/// promises and the wire spell it "stdout", "stderr" or "file:NAME"; below
/// their parsers it is this type, and only reporters spell it again (text()).
#include <compare>
#include <optional>
#include <string>
#include <string_view>

namespace flushcheck {

class write_target {
 public:
  /// stdout.
  write_target() = default;
  static write_target out() { return {}; }
  static write_target err() { return write_target(kind::err, ""); }
  /// The watched log file NAME (not empty).
  static write_target file(std::string name) { return write_target(kind::file, std::move(name)); }
  /// "stdout", "stderr" or "file:NAME" with NAME not empty; nullopt otherwise.
  static std::optional<write_target> parse(std::string_view text);

  bool is_out() const noexcept { return kind_ == kind::out; }
  bool is_err() const noexcept { return kind_ == kind::err; }
  bool is_file() const noexcept { return kind_ == kind::file; }
  /// The log file's name; "" for a stream.
  const std::string& file_name() const noexcept { return file_; }
  /// "stdout", "stderr" or "file:NAME", as gate files and reports spell it.
  std::string text() const;

  auto operator<=>(const write_target&) const = default;

 private:
  enum class kind { out, err, file };
  write_target(kind k, std::string file) : kind_(k), file_(std::move(file)) {}
  kind kind_ = kind::out;
  std::string file_;
};

}  // namespace flushcheck
