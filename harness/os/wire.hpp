#pragma once
/// Values as bytes between two processes of the harness (a worker's result
/// to the process that forked it, workers.hpp): integers, numbers, flags and
/// strings one after another, read back in the order they were put. A
/// reader checks each length against what is left: bytes that end early or
/// are not what was put throw harness_error, never read past their end.
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace flushcheck {

class wire_writer {
 public:
  wire_writer& i64(std::int64_t v);
  wire_writer& f64(double v);
  wire_writer& flag(bool v);
  wire_writer& text(std::string_view s);
  /// A list's length, before its items.
  wire_writer& count(std::size_t n);
  /// Strings: their count, then each.
  wire_writer& texts(const std::vector<std::string>& v);
  /// Numbers by name: their count, then each name and number.
  template <typename Int>
  wire_writer& named(const std::map<std::string, Int>& m) {
    count(m.size());
    for (const auto& [name, n] : m) text(name).i64(static_cast<std::int64_t>(n));
    return *this;
  }
  /// The bytes put so far (the writer is left empty).
  std::string take() { return std::move(bytes_); }

 private:
  std::string bytes_;
};

/// Reads BYTES, which must outlive it (it holds a view of them).
class wire_reader {
 public:
  explicit wire_reader(std::string_view bytes) : rest_(bytes) {}
  std::int64_t i64();
  double f64();
  bool flag();
  std::string text();
  /// A list's length: 0 to 2^20, else an error.
  std::size_t count();
  /// What wire_writer::texts put.
  std::vector<std::string> texts();
  /// What wire_writer::named put, into a map of Int.
  template <typename Int>
  std::map<std::string, Int> named() {
    std::map<std::string, Int> m;
    for (std::size_t n = count(); n > 0; --n) {
      std::string name = text();
      m[std::move(name)] = static_cast<Int>(i64());
    }
    return m;
  }
  /// Throws unless every byte was read: a reader that reads what was put.
  void end() const;

 private:
  std::string_view take(std::size_t n);
  std::string_view rest_;
};

}  // namespace flushcheck
