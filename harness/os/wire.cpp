#include "wire.hpp"

#include <cstdint>
#include <cstring>

#include "error.hpp"

namespace flushcheck {

namespace {

template <typename T>
void put_raw(std::string& bytes, T v) {
  char raw[sizeof v];
  std::memcpy(raw, &v, sizeof v);
  bytes.append(raw, sizeof v);
}

[[noreturn]] void malformed(const char* what) {
  throw_error(std::make_error_code(std::errc::bad_message),
              std::string("a worker's result: ") + what);
}

}  // namespace

wire_writer& wire_writer::i64(std::int64_t v) { return put_raw(bytes_, v), *this; }
wire_writer& wire_writer::f64(double v) { return put_raw(bytes_, v), *this; }
wire_writer& wire_writer::flag(bool v) { return bytes_.push_back(v ? 1 : 0), *this; }
wire_writer& wire_writer::text(std::string_view s) {
  i64(static_cast<std::int64_t>(s.size()));
  bytes_.append(s);
  return *this;
}

wire_writer& wire_writer::count(std::size_t n) { return i64(static_cast<std::int64_t>(n)); }

wire_writer& wire_writer::texts(const std::vector<std::string>& v) {
  count(v.size());
  for (const auto& s : v) text(s);
  return *this;
}

std::string_view wire_reader::take(std::size_t n) {
  if (n > rest_.size()) malformed("it ends early");
  const auto taken = rest_.substr(0, n);
  rest_.remove_prefix(n);
  return taken;
}

std::int64_t wire_reader::i64() {
  std::int64_t v = 0;
  std::memcpy(&v, take(sizeof v).data(), sizeof v);
  return v;
}

double wire_reader::f64() {
  double v = 0;
  std::memcpy(&v, take(sizeof v).data(), sizeof v);
  return v;
}

bool wire_reader::flag() {
  const char c = take(1)[0];
  if (c != 0 && c != 1) malformed("a flag is neither 0 nor 1");
  return c == 1;
}

std::string wire_reader::text() {
  const std::int64_t n = i64();
  if (n < 0) malformed("a negative length");
  return std::string(take(static_cast<std::size_t>(n)));
}

std::size_t wire_reader::count() {
  const std::int64_t n = i64();
  if (n < 0 || n > std::int64_t{1} << 20) malformed("a list's length is not from 0 to 2^20");
  return static_cast<std::size_t>(n);
}

std::vector<std::string> wire_reader::texts() {
  std::vector<std::string> v;
  for (std::size_t n = count(); n > 0; --n) v.push_back(text());
  return v;
}

void wire_reader::end() const {
  if (!rest_.empty()) malformed("bytes left over");
}

}  // namespace flushcheck
