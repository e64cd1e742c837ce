#include "reference_output.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>

#include "error.hpp"
#include "retry_eintr.hpp"
#include "temporary.hpp"

namespace flushcheck::detail {

namespace {

/// Writes all of BYTES to FD at offset AT.
void write_all_at(int fd, std::string_view bytes, std::uint64_t at) {
  for (std::size_t done = 0; done < bytes.size();) {
    ssize_t n = retry_eintr([&] {
      return ::pwrite(fd, bytes.data() + done, bytes.size() - done, static_cast<off_t>(at + done));
    });
    if (n <= 0) throw_errno("spool the reference output");
    done += static_cast<std::size_t>(n);
  }
}

/// Splits BLOCK into lines: each whole one onto OUT while BUDGET lasts (less
/// its bytes and newline), the start of an unfinished one in LINE. False once
/// the budget is spent: a line that fills it goes onto OUT cut to it, the
/// rest of it unread (a 1 GiB line is not read to its end for 4 KiB of it).
bool take_lines(std::string_view block, std::vector<std::string>& out, std::string& line,
                std::size_t& budget) {
  for (char ch : block) {
    if (ch == '\n') {
      out.push_back(std::move(line));
      line.clear();
      if (budget <= out.back().size() + 1) return false;
      budget -= out.back().size() + 1;
    } else if (line.size() < budget) {
      line += ch;
    } else {
      out.push_back(std::move(line));
      return false;
    }
  }
  return true;
}

}  // namespace

reference_output::reference_output() {
  fd_ = anonymous_temporary_file("flushcheck-explore-");  // gone with its last fd
}

void reference_output::append(std::string_view bytes) {
  write_all_at(fd_.get(), bytes, size_);
  size_ += bytes.size();
  key_lines(bytes);
  lines_ = keys_.size();
  if (!bytes.empty()) ends_in_newline_ = bytes.back() == '\n';
}

/// The key of each line BYTES ends (the first continues the line being
/// spooled); an unfinished last line stays in line_hash_ and line_size_.
void reference_output::key_lines(std::string_view bytes) {
  for (std::string_view rest = bytes; !rest.empty();) {
    const std::size_t nl = rest.find('\n');
    const std::string_view piece = rest.substr(0, nl);
    line_hash_.update(piece);
    line_size_ += piece.size();
    if (nl == std::string_view::npos) break;
    keys_.push_back({line_hash_.digest(), line_size_});
    line_hash_.reset();
    line_size_ = 0;
    rest.remove_prefix(nl + 1);
  }
}

std::vector<line_key> reference_output::keys() const {
  std::vector<line_key> out = keys_;
  if (!ends_in_newline_) out.push_back({line_hash_.digest(), line_size_});
  return out;
}

std::string reference_output::read(std::uint64_t at, std::size_t n) const {
  std::string out;
  read(at, n, out);
  return out;
}

void reference_output::read(std::uint64_t at, std::size_t n, std::string& out) const {
  out.resize(static_cast<std::size_t>(std::min<std::uint64_t>(n, size_ - std::min(at, size_))));
  for (std::size_t done = 0; done < out.size();) {
    ssize_t r = retry_eintr([&] {
      return ::pread(fd_.get(), out.data() + done, out.size() - done,
                     static_cast<off_t>(at + done));
    });
    if (r <= 0) throw_errno("read the spooled reference output");
    done += static_cast<std::size_t>(r);
  }
}

std::string reference_output::kept(std::uint64_t size, const keep_policy& keep) const {
  // No policy keeps more than the first and the last keep.bytes (all: every
  // byte): a capture fed those keeps what a run's reader would have kept.
  size = std::min(size, size_);
  const std::uint64_t edge =
      keep.what == keep_policy::kind::all ? size : std::min<std::uint64_t>(keep.bytes, size);
  const std::uint64_t tail_from = std::max(edge, size - edge);
  capture c(keep);
  c.append(read(0, static_cast<std::size_t>(edge)));
  c.append(read(tail_from, static_cast<std::size_t>(size - tail_from)));
  return c.take_data();
}

std::vector<std::string> reference_output::lines_from(std::uint64_t at, std::size_t budget) const {
  std::vector<std::string> out;
  std::string line;
  for (std::uint64_t pos = at; pos < size_ && budget > 0;) {
    const std::string block = read(pos, 65536);
    if (!take_lines(block, out, line, budget)) return out;
    pos += block.size();
  }
  if (!line.empty() && budget > 0) out.push_back(std::move(line));  // unterminated last line
  return out;
}

void prefix_match::feed(std::string_view bytes) {
  total_ += bytes.size();
  if (diverged_) return keep_torn(bytes);
  const std::uint64_t at = total_ - bytes.size();
  ref_.read(at, bytes.size(), want_);
  std::size_t same = bytes.size();
  if (want_.size() != bytes.size() || std::memcmp(bytes.data(), want_.data(), same) != 0)
    same = static_cast<std::size_t>(
        std::mismatch(bytes.begin(), bytes.end(), want_.begin(), want_.end()).first -
        bytes.begin());
  take_matched(at, bytes.substr(0, same));
  if (same < bytes.size()) {
    diverged_ = true;
    keep_torn(bytes.substr(same));
  }
}

/// Bytes equal to the reference's, from offset AT: each newline completes
/// one more line; what follows the last is torn, so far.
void prefix_match::take_matched(std::uint64_t at, std::string_view bytes) {
  const char* last = nullptr;  // memchr: a byte loop here was a fifth of a cut's time
  for (const char *p = bytes.data(), *end = p + bytes.size();
       (p = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p))));
       last = p++)
    ++lines_;
  if (last == nullptr) return keep_torn(bytes);
  whole_ = at + static_cast<std::uint64_t>(last - bytes.data()) + 1;
  torn_.clear();
  keep_torn(bytes.substr(static_cast<std::size_t>(last - bytes.data()) + 1));
}

void prefix_match::keep_torn(std::string_view bytes) {
  const std::size_t room = budget_ - std::min(budget_, torn_.size());
  torn_.append(bytes.substr(0, std::min(room, bytes.size())));
}

line_match::line_match(const reference_output& ref, const keep_policy& keep)
    : ref_(ref),
      keys_(ref.keys()),
      cap_(keep.what == keep_policy::kind::all ? SIZE_MAX
                                               : std::max<std::size_t>(2 * keep.bytes, 4096)),
      budget_(keep.what == keep_policy::kind::all ? SIZE_MAX : keep.bytes),
      torn_(keep) {
  for (const auto& k : keys_) ++ahead_[k.hash ^ k.size];
}

void line_match::feed(std::string_view bytes) {
  for (std::string_view rest = bytes; !rest.empty();) {
    const std::size_t nl = rest.find('\n');
    const std::string_view piece = rest.substr(0, nl);
    add_to_line(piece);
    if (nl == std::string_view::npos) {
      ended_in_newline_ = false;
      return;
    }
    ended_in_newline_ = true;
    on_line();
    rest.remove_prefix(nl + 1);
  }
}

/// PIECE of the line arriving: its key, and its first bytes up to cap_.
void line_match::add_to_line(std::string_view piece) {
  hash_.update(piece);
  size_ += piece.size();
  text_.append(piece.substr(0, cap_ - std::min(cap_, text_.size())));
}

/// A line arrived (its key in hash_ and size_).
void line_match::on_line() {
  const line_key got{hash_.digest(), size_};
  match(got);
  hash_.reset();
  size_ = 0;
  text_.clear();
}

/// The line GOT: the next reference line, a torn one, or one further on,
/// which makes the reference lines before it lost.
void line_match::match(const line_key& got) {
  for (;;) {
    if (next_ < keys_.size() && keys_[next_] == got) {
      take_next(got);
      return;
    }
    const auto it = ahead_.find(got.hash ^ got.size);
    if (it == ahead_.end() || it->second == 0) {  // no line still to come: torn
      torn_.append(text_);
      torn_.append("\n");
      return;
    }
    lose_next();
  }
}

/// The next reference line, GOT, arrived.
void line_match::take_next(const line_key& got) {
  ++survived_;
  --ahead_[got.hash ^ got.size];
  next_at_ += got.size + 1;
  ++next_;
}

/// The next reference line did not arrive.
void line_match::lose_next() {
  const line_key& k = keys_[next_];
  if (++lost_lines_ == 1 || budget_ > 0) {  // the first lost line, and what KEEP holds
    const std::size_t n = static_cast<std::size_t>(
        std::min<std::uint64_t>(k.size, std::max<std::size_t>(budget_, 256)));
    lost_.push_back(ref_.read(next_at_, n));
    budget_ -= std::min(budget_, n + 1);
  }
  --ahead_[k.hash ^ k.size];
  next_at_ += k.size + 1;
  ++next_;
}

void line_match::finish() {
  if (!ended_in_newline_) on_line();
  while (next_ < keys_.size()) lose_next();
}

std::string line_match::torn() {
  std::string t = torn_.take_data();
  // The last piece had no newline of its own.
  if (!ended_in_newline_ && !t.empty() && t.back() == '\n') t.pop_back();
  return t;
}

}  // namespace flushcheck::detail
