#pragma once
/// The gate checks of one stream, fed as its bytes arrive: what a gate
/// keeps of a stream is what its checks need (a count, a first mismatch,
/// the first 40 records for the message, one counter per record each_once
/// expects), never the stream, so a 1 GB log is checked in a few MB.
/// gate_run::run() feeds stdout and stderr as the reader gets them and each
/// watched log file after the run; gate.hpp's functions on a whole text are
/// the same checks fed that text.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gate_expect.hpp"
#include "observation.hpp"
#include "record_reader.hpp"

namespace flushcheck {

/// each_once keeps a counter per record logged: it counts at most this many
/// (a gate file's larger each_once is refused when it is read).
inline constexpr long each_once_most = long{1} << 26;

/// What a check learns once the run is over.
struct stream_end {
  const observation* obs = nullptr;  ///< visible_at_marker's markers (none: a text alone)
  long writes = -1;                  ///< write calls that brought the stream; -1 not counted
};

/// One check over one stream (the kinds are record_checks.cpp's).
class stream_check {
 public:
  virtual ~stream_check() = default;
  virtual void bytes(std::string_view) {}
  virtual void line(const record_line&) {}
  virtual gate_check result(const stream_end& end) const = 0;
  /// How many of a line's first bytes it reads (a whole-line pattern: all, up to a bound).
  virtual std::size_t line_bytes() const { return 120; }
  /// It counts records: its message says so when the last one arrived torn.
  virtual bool reads_records() const { return true; }
};

/// The stream check E names (not exit_code or signal: they read no stream);
/// throws usage_error for a check it does not know or a bad pattern.
std::unique_ptr<stream_check> make_stream_check(const gate_expect& e);

/// A stream's checks and its record count, fed as the bytes arrive. Not
/// moved once fed (its reader calls back into it).
class stream_digest {
 public:
  explicit stream_digest(std::string tag = "rec ") : tag_(std::move(tag)) {}
  stream_digest(const stream_digest&) = delete;
  stream_digest& operator=(const stream_digest&) = delete;
  /// Checks E on this stream, before the first byte; returns its index for result().
  std::size_t add(const gate_expect& e);
  void feed(std::string_view bytes);
  /// The stream ended (an unterminated last line is read now).
  void finish();
  /// Records (lines with TAG and a number) that arrived whole: a last line
  /// without '\n' is a record cut short, not one that arrived ("rec 12" cut
  /// after "rec 1" would read as another record).
  long records() const noexcept { return records_; }
  /// Check I's outcome; a check that counts records says the torn one apart.
  gate_check result(std::size_t i, const stream_end& end) const;

 private:
  record_reader& reader();
  /// The torn last line L: given to the checks as a line with no record.
  void torn(const record_line& l);

  std::string tag_;
  std::vector<std::unique_ptr<stream_check>> checks_;
  std::optional<record_reader> reader_;  // made at the first byte, when the checks are known
  long records_ = 0;
  std::optional<std::pair<long, std::uint64_t>> torn_;  ///< the torn record's number, its bytes
};

}  // namespace flushcheck
