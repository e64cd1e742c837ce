// The kinds of stream check, one class each, and the digest that feeds them.
#include "record_checks.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "error.hpp"
#include "escape.hpp"
#include "logger_table.hpp"
#include "record_pattern.hpp"

namespace flushcheck {

namespace {

/// The first 40 of a list of record numbers and how many there were: what a message shows.
struct record_list {
  std::vector<long> first;
  std::uint64_t count = 0;
  void add(long n) {
    if (first.size() < 40) first.push_back(n);
    ++count;
  }
  std::string text() const {
    std::string s;
    for (std::size_t i = 0; i < first.size(); ++i) s += (i ? " " : "") + std::to_string(first[i]);
    if (count > first.size()) s += " ... (" + std::to_string(count) + ")";
    return s.empty() ? "none" : s;
  }
};

std::string str(std::uint64_t n) { return std::to_string(n); }

/// records_through: records 0..LAST arrived, in order, none twice (more may follow).
class through_check : public stream_check {
 public:
  explicit through_check(long last) : last_(last) {}
  void line(const record_line& l) override {
    if (!l.record) return;
    const auto i = static_cast<long>(got_.count);
    if (i <= last_ && *l.record != i) bad_ = true;
    got_.add(*l.record);
  }
  gate_check result(const stream_end&) const override {
    if (bad_ || static_cast<long>(got_.count) <= last_)
      return {false, "every record through " + std::to_string(last_) +
                         " should have arrived in order; arrived: [" + got_.text() + "]"};
    return {true, "records 0.." + std::to_string(last_) + " arrived in order (" + str(got_.count) +
                      " in all)"};
  }

 private:
  long last_;
  bool bad_ = false;
  record_list got_;
};

/// records_prefix: records 0..k-1 for some k <= LOGGED, in order, no gap, no duplicate.
class prefix_check : public stream_check {
 public:
  explicit prefix_check(long logged) : logged_(logged) {}
  void line(const record_line& l) override {
    if (!l.record) return;
    if (!mismatch_ && *l.record != static_cast<long>(got_.count)) mismatch_ = got_.count;
    got_.add(*l.record);
  }
  gate_check result(const stream_end&) const override {
    if (mismatch_)
      return {false, "records arrived as [" + got_.text() + "]: record " + str(*mismatch_) +
                         " expected at position " + str(*mismatch_)};
    if (static_cast<long>(got_.count) > logged_)
      return {false, str(got_.count) + " records arrived, only " + std::to_string(logged_) +
                         " were logged"};
    if (got_.count == 0) return {true, "no record of " + std::to_string(logged_) + " arrived"};
    return {true, "records 0.." + str(got_.count - 1) + " of " + std::to_string(logged_) +
                      " arrived, in order"};
  }

 private:
  long logged_;
  std::optional<std::uint64_t> mismatch_;
  record_list got_;
};

/// in_order: increasing record numbers (some may be missing), none twice;
/// records_at_least: and at least LEAST of them.
class order_check : public stream_check {
 public:
  explicit order_check(long least = 0) : least_(least) {}
  void line(const record_line& l) override {
    if (!l.record) return;
    if (!bad_ && got_.count != 0 && *l.record <= last_) bad_ = {*l.record, last_};
    last_ = *l.record;
    got_.add(*l.record);
  }
  gate_check result(const stream_end&) const override {
    if (bad_)
      return {false, "record " + std::to_string(bad_->first) + " after " +
                         std::to_string(bad_->second) + ": [" + got_.text() + "]"};
    if (static_cast<long>(got_.count) < least_)
      return {false, "at least " + std::to_string(least_) + " records should have arrived, " +
                         str(got_.count) + " did: [" + got_.text() + "]"};
    return {true, str(got_.count) + " records, increasing" +
                      (least_ > 0 ? " (at least " + std::to_string(least_) + ")" : "")};
  }

 private:
  long least_;
  long last_ = 0;
  std::optional<std::pair<long, long>> bad_;
  record_list got_;
};

/// each_once: records 0..LOGGED-1 each arrived exactly once, in any order.
/// One counter per record logged, up to a bound.
class once_check : public stream_check {
 public:
  static constexpr long most = each_once_most;
  explicit once_check(long logged) : logged_(logged) {
    if (logged_ >= 0 && logged_ <= most) seen_.assign(static_cast<std::size_t>(logged_), 0);
  }
  void line(const record_line& l) override {
    if (!l.record) return;
    const long n = *l.record;
    if (n < 0 || n >= logged_ || logged_ > most) return extra_.add(n);
    auto& c = seen_[static_cast<std::size_t>(n)];
    c = static_cast<unsigned char>(std::min(255, c + 1));
  }
  gate_check result(const stream_end&) const override {
    if (logged_ > most)
      return {false,
              "each_once counts at most " + std::to_string(most) + " records, not " +
                  std::to_string(logged_),
              false};
    record_list missing, twice;
    tally(missing, twice);
    if (missing.count == 0 && twice.count == 0 && extra_.count == 0)
      return {true, logged_ <= 0
                        ? "no record was logged, and none arrived"
                        : "records 0.." + std::to_string(logged_ - 1) + " each arrived once"};
    return failure(missing, twice);
  }

 private:
  /// The records logged that never arrived, and each arrival of one after its first.
  void tally(record_list& missing, record_list& twice) const {
    for (std::size_t n = 0; n < seen_.size(); ++n) {
      if (seen_[n] == 0) missing.add(static_cast<long>(n));
      for (int k = 1; k < seen_[n]; ++k) twice.add(static_cast<long>(n));
    }
  }
  /// What went wrong: the records missing, twice, and never logged.
  gate_check failure(const record_list& missing, const record_list& twice) const {
    record_list extra = extra_;
    std::sort(extra.first.begin(), extra.first.end());
    return {false, "of records 0.." + std::to_string(logged_ - 1) + ": missing [" + missing.text() +
                       "], twice [" + twice.text() + "], not logged [" + extra.text() + "]"};
  }

  long logged_;
  std::vector<unsigned char> seen_;  // how often each arrived, up to 255
  record_list extra_;                // arrived, never logged (the first 40, sorted when shown)
};

/// The message for a stream whose last line has no '\n' after it.
gate_check torn_tail(const std::string& tail) {
  return {false, "the last line is torn: \"" + printable(tail, 120) + "\""};
}

/// no_torn_record: the stream ends with '\n' (a last line without one was cut).
class tail_check : public stream_check {
 public:
  bool reads_records() const override { return false; }
  void line(const record_line& l) override {
    if (!l.terminated) tail_ = std::string(l.head.substr(0, 120));
  }
  gate_check result(const stream_end&) const override {
    return tail_ ? torn_tail(*tail_) : gate_check{true, "every line is whole"};
  }

 private:
  std::optional<std::string> tail_;
};

/// no_torn_record with a pattern: every line is one whole record and the stream ends with '\n'.
class pattern_check : public stream_check {
 public:
  static constexpr std::size_t longest = std::size_t{1} << 20;
  explicit pattern_check(const std::string& pattern) : whole_(make(pattern)) {}
  bool reads_records() const override { return false; }
  std::size_t line_bytes() const override { return longest + 1; }
  void line(const record_line& l) override {
    if (unchecked_) return;
    ++lines_;
    if (!l.terminated) tail_ = std::string(l.head.substr(0, 120));
    if (l.size > longest) return unchecked(l, "longer than 1 MiB, the most a line is matched");
    try {
      if (whole_.matches(l.head)) return;
    } catch (const std::runtime_error& e) {  // Boost.Regex's bound on work
      return unchecked(l, e.what());
    }
    if (torn_++ == 0) first_ = std::string(l.head.substr(0, 4096));
  }
  gate_check result(const stream_end&) const override {
    if (unchecked_) return *unchecked_;
    if (tail_ && torn_ == 0) return torn_tail(*tail_);
    if (torn_ == 0) return {true, str(lines_) + " lines, every one a whole record"};
    return {false, str(torn_) + " of " + str(lines_) +
                       " lines torn (not one whole record), the first: \"" +
                       printable(first_, 160) + "\""};
  }

 private:
  static record_pattern make(const std::string& pattern) {
    try {
      return record_pattern(pattern);
    } catch (const usage_error& e) {
      throw usage_error(std::string("no_torn_record: ") + e.what());
    }
  }
  void unchecked(const record_line& l, const std::string& why) {
    unchecked_ = gate_check{
        false,
        "line " + str(l.number) + " (" + str(l.size) + " bytes) could not be checked: " + why,
        false};
  }

  record_pattern whole_;
  std::uint64_t lines_ = 0, torn_ = 0;
  std::string first_;
  std::optional<std::string> tail_;
  std::optional<gate_check> unchecked_;
};

/// max_writes_per_record: at most RATIO write calls per record that arrived.
class writes_check : public stream_check {
 public:
  explicit writes_check(double ratio) : ratio_(ratio) {}
  void line(const record_line& l) override { records_ += l.record ? 1 : 0; }
  gate_check result(const stream_end& end) const override;

 private:
  double ratio_;
  long records_ = 0;
};

gate_check writes_check::result(const stream_end& end) const {
  if (end.writes < 0) return {false, "write calls were not counted (traced = false)", false};
  const std::string writes = std::to_string(end.writes);
  if (records_ == 0) return {false, "no record arrived (" + writes + " write calls)", false};
  const bool ok = static_cast<double>(end.writes) <= ratio_ * static_cast<double>(records_);
  return {ok, std::to_string(records_) + " records arrived in " + writes + " write calls (" +
                  loggers::per_record(end.writes, records_) + " per record; at most " +
                  loggers::ratio_text(ratio_) + ")"};
}

/// visible_at_marker: at marker M the reader of the stream already had NEEDLE.
class visible_check : public stream_check {
 public:
  visible_check(long marker, bool on_stderr, std::string needle)
      : marker_(marker), on_stderr_(on_stderr), needle_(needle), find_(std::move(needle)) {}
  bool reads_records() const override { return false; }
  void bytes(std::string_view b) override {
    if (auto end = find_.feed(b)) end_ = offset_ + *end;
    offset_ += b.size();
  }
  gate_check result(const stream_end& end) const override {
    const std::size_t reached = end.obs ? end.obs->markers.size() : 0;
    if (marker_ <= 0 || static_cast<std::size_t>(marker_) > reached)
      return {false,
              "the program reached " + str(reached) + " markers, not " + std::to_string(marker_)};
    const auto& m = end.obs->markers[static_cast<std::size_t>(marker_ - 1)];
    const std::size_t visible = on_stderr_ ? m.stderr_visible : m.stdout_visible;
    const bool seen = end_ && *end_ <= visible;
    return {seen, "at marker " + std::to_string(marker_) + " '" + m.label + "' the reader had " +
                      str(visible) + " bytes" + (seen ? ", with \"" : ", without \"") + needle_ +
                      "\""};
  }

 private:
  long marker_;
  bool on_stderr_;
  std::string needle_;
  stream_find find_;
  std::uint64_t offset_ = 0;
  std::optional<std::uint64_t> end_;  // where NEEDLE's first match ends in the stream
};

/// A check that fails whatever arrives (one asked of a stream it cannot read).
class fixed_check : public stream_check {
 public:
  explicit fixed_check(gate_check c) : c_(std::move(c)) {}
  bool reads_records() const override { return false; }
  gate_check result(const stream_end&) const override { return c_; }

 private:
  gate_check c_;
};

std::unique_ptr<stream_check> marker_check(const gate_expect& e) {
  if (e.in.is_file())
    return std::make_unique<fixed_check>(
        gate_check{false, "visible_at_marker reads stdout or stderr"});
  return std::make_unique<visible_check>(e.number, e.in.is_err(), e.text);
}

}  // namespace

std::unique_ptr<stream_check> make_stream_check(const gate_expect& e) {
  switch (e.check) {
    case check_id::records_through: return std::make_unique<through_check>(e.number);
    case check_id::records_prefix: return std::make_unique<prefix_check>(e.number);
    case check_id::records_at_least: return std::make_unique<order_check>(e.number);
    case check_id::in_order: return std::make_unique<order_check>();
    case check_id::each_once: return std::make_unique<once_check>(e.number);
    case check_id::no_torn_record:
      if (e.text.empty()) return std::make_unique<tail_check>();
      return std::make_unique<pattern_check>(e.text);
    case check_id::max_writes_per_record: return std::make_unique<writes_check>(e.ratio);
    case check_id::visible_at_marker: return marker_check(e);
    case check_id::exit_code:
    case check_id::signal: break;
  }
  throw usage_error("'" + std::string(check_name(e.check)) + "' is not a stream check");
}

std::size_t stream_digest::add(const gate_expect& e) {
  checks_.push_back(make_stream_check(e));
  return checks_.size() - 1;
}

record_reader& stream_digest::reader() {
  if (reader_) return *reader_;
  std::size_t keep = 0;
  for (const auto& c : checks_) keep = std::max(keep, c->line_bytes());
  return reader_.emplace(tag_, keep, [this](const record_line& l) {
    if (l.record && !l.terminated) return torn(l);
    records_ += l.record ? 1 : 0;
    for (const auto& c : checks_) c->line(l);
  });
}

void stream_digest::torn(const record_line& l) {
  torn_ = {*l.record, l.size};
  record_line cut = l;
  cut.record.reset();
  for (const auto& c : checks_) c->line(cut);
}

gate_check stream_digest::result(std::size_t i, const stream_end& end) const {
  gate_check c = checks_[i]->result(end);
  if (torn_ && checks_[i]->reads_records())
    c.why += "; torn, not counted: record " + std::to_string(torn_->first) + " (the last line, " +
             str(torn_->second) + " bytes, no newline)";
  return c;
}

void stream_digest::feed(std::string_view bytes) {
  for (const auto& c : checks_) c->bytes(bytes);
  reader().feed(bytes);
}

void stream_digest::finish() { reader().finish(); }

}  // namespace flushcheck
