// gate.hpp's checks on a whole text: each is the stream check of
// record_checks.hpp fed the text at once.
#include <cstdint>
#include <string>
#include <vector>

#include "gate.hpp"
#include "record_checks.hpp"

namespace flushcheck {

namespace {

gate_check check_text(std::string_view text, const gate_expect& e, const std::string& tag,
                      const stream_end& end = {}) {
  stream_digest d(tag);
  const std::size_t i = d.add(e);
  d.feed(text);
  d.finish();
  return d.result(i, end);
}

gate_expect expect(check_id check, long number = 0, std::string text = "") {
  gate_expect e;
  e.check = check;
  e.number = number;
  e.text = std::move(text);
  return e;
}

}  // namespace

std::vector<long> record_numbers(const std::string& text, const std::string& tag) {
  std::vector<long> out;
  record_reader reader(tag, 0, [&](const record_line& l) {
    if (l.record) out.push_back(*l.record);
  });
  reader.feed(text);
  reader.finish();
  return out;
}

gate_check records_prefix(const std::string& text, long logged, const std::string& tag) {
  return check_text(text, expect(check_id::records_prefix, logged), tag);
}

gate_check records_at_least(const std::string& text, long least, const std::string& tag) {
  return check_text(text, expect(check_id::records_at_least, least), tag);
}

gate_check records_through(const std::string& text, long last, const std::string& tag) {
  return check_text(text, expect(check_id::records_through, last), tag);
}

gate_check in_order(const std::string& text, const std::string& tag) {
  return check_text(text, expect(check_id::in_order), tag);
}

gate_check each_once(const std::string& text, long logged, const std::string& tag) {
  return check_text(text, expect(check_id::each_once, logged), tag);
}

gate_check no_torn_record(const std::string& text) {
  return check_text(text, expect(check_id::no_torn_record), "rec ");
}

gate_check no_torn_record(const std::string& text, const std::string& whole_line) {
  return check_text(text, expect(check_id::no_torn_record, 0, whole_line), "rec ");
}

gate_check one_write_per_record(long write_calls, const std::string& text, const std::string& tag) {
  const long n = static_cast<long>(record_numbers(text, tag).size());
  if (write_calls == n) return {true, std::to_string(n) + " records in as many write calls"};
  return {false, std::to_string(n) + " records arrived in " + std::to_string(write_calls) +
                     " write calls"};
}

std::vector<std::vector<gate_check>> check_prefixes(std::string_view text,
                                                    const std::vector<gate_expect>& expect,
                                                    const std::string& tag,
                                                    const std::vector<std::uint64_t>& ends) {
  std::vector<std::vector<gate_check>> out;
  for (const std::uint64_t end : ends) {
    stream_digest d(tag);
    std::vector<std::size_t> at;
    for (const auto& e : expect) at.push_back(d.add(e));
    d.feed(text.substr(0, static_cast<std::size_t>(end)));
    d.finish();
    auto& checks = out.emplace_back();
    for (std::size_t i : at) checks.push_back(d.result(i, {}));
  }
  return out;
}

gate_check visible_at_marker(const observation& obs, std::size_t marker, bool on_stderr,
                             const std::string& needle) {
  gate_expect e = expect(check_id::visible_at_marker, static_cast<long>(marker), needle);
  e.in = on_stderr ? write_target::err() : write_target::out();
  return check_text(on_stderr ? obs.err.data : obs.out.data, e, "rec ", {&obs});
}

}  // namespace flushcheck
